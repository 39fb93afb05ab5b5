// Fuzz target: the mesh importer path (STL binary and ASCII through Assimp and our checks: welding,
// degenerate and duplicate triangles, closed-surface and orientation checks, optional repair).
#include "FuzzTarget.hpp"
#include "TemporaryInputFile.hpp"
#include "shapes/MeshImport.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace clumplab;
  static fuzz::TemporaryInputFile file(".stl");
  const std::string& path = file.write(data, size);
  for (const bool repair : {false, true}) {
    fuzz::expectOnlyInputErrors([&] {
      shapes::MeshOptions options;
      options.repair = repair;
      options.maxTriangles = 200'000;  // the fuzzer's memory limit; the default is 2e7
      (void)shapes::importMesh(path, options);
    });
  }
  return 0;
}
