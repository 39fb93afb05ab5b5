#include "shapes/WallMeshReader.hpp"

#include "core/base/Errors.hpp"
#include "shapes/MeshImport.hpp"

namespace clumplab::shapes {

WallMeshReader wallMeshReader() {
  return [](const std::string& path) {
    TriangleMesh mesh = readMeshTriangles(path);
    if (mesh.triangles.empty()) throw InputError(path, "", "the mesh has no triangles");
    return mesh;
  };
}

}  // namespace clumplab::shapes
