// clumplab-cli shape: a built-in shape's mesh (STL) and clump template (JSON), made by the shapes
// library; prints what it made as one JSON object.
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "Commands.hpp"
#include "core/clump/MassProperties.hpp"
#include "core/clump/Solid.hpp"
#include "core/io/AtomicOutputFile.hpp"
#include "core/io/TemplateFile.hpp"
#include "shapes/BuiltinShapes.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/MeshTemplateBuilder.hpp"
#include "shapes/StlWriter.hpp"

namespace clumplab::cli {

namespace {
bool pebblesOverlap(const std::vector<Pebble>& pebbles) {
  for (std::size_t i = 0; i < pebbles.size(); ++i) {
    for (std::size_t j = i + 1; j < pebbles.size(); ++j) {
      const double reach = pebbles[i].radius + pebbles[j].radius;
      if ((pebbles[i].center - pebbles[j].center).squaredNorm() < reach * reach) return true;
    }
  }
  return false;
}

// How the template file refers to the mesh: relative to the template's folder.
std::string meshPathFromTemplate(const std::string& meshFile, const std::string& templateFile) {
  namespace fs = std::filesystem;
  const fs::path mesh = fs::absolute(meshFile).lexically_normal();
  const fs::path folder = fs::absolute(templateFile).lexically_normal().parent_path();
  const fs::path relative = mesh.lexically_relative(folder);
  return relative.empty() ? mesh.string() : relative.string();
}
}  // namespace

int shapeCommand(const std::vector<std::string>& argv) {
  const Arguments args(argv, {"--size", "--mesh", "--template", "--density", "--inertia"},
                       {"--list", "--ascii"});
  if (args.has("--list")) {
    if (argv.size() != 1) throw UsageError("--list takes no other arguments");
    std::cout << nlohmann::json{{"shapes", shapes::builtinShapeNames()}}.dump() << std::endl;
    return 0;
  }
  if (args.positional().size() != 1) {
    throw UsageError(
        "expected one shape name: clumplab-cli shape NAME (clumplab-cli shape --list names them)");
  }
  const std::string name = args.positional()[0];
  const double size = args.number("--size").value_or(0.0);
  if (args.has("--size") && !(size > 0.0)) throw UsageError("--size must be positive (metres)");
  if (args.has("--ascii") && !args.has("--mesh")) throw UsageError("--ascii applies to --mesh OUT.stl");
  if (args.has("--template") && !args.has("--density"))
    throw UsageError("--template needs --density D (kg/m^3)");
  if (args.has("--density") && !args.has("--template")) throw UsageError("--density applies to --template");
  const double density = args.number("--density").value_or(0.0);
  if (args.has("--density") && !(density > 0.0)) throw UsageError("--density must be positive");

  shapes::BuiltinShape shape;
  try {
    shape = shapes::makeBuiltinShape(name, size);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  nlohmann::json out = {{"name", shape.name},
                        {"description", shape.description},
                        {"triangles", shape.mesh.size()},
                        {"volume", shapes::signedVolume(shape.mesh)},
                        {"pebbles", shape.pebbles.size()}};
  const std::optional<std::string> meshFile = args.text("--mesh");
  if (meshFile) {
    shapes::writeStl(shape.mesh, *meshFile, "ClumpLab built-in shape " + name + ", metres",
                     args.has("--ascii") ? shapes::StlFormat::Ascii : shapes::StlFormat::Binary);
    out["mesh_file"] = *meshFile;
  }
  if (const std::optional<std::string> templateFile = args.text("--template")) {
    // By default the clump's own mass properties: overlapping pebbles would be counted twice by the
    // pebble sum, so voxels count their union once. --inertia mesh takes the ideal solid's.
    MeshTemplateRequest request;
    request.name = name;
    request.shape = name;
    request.shapeSize = size;
    request.density = density;
    request.inertia = args.text("--inertia").value_or(pebblesOverlap(shape.pebbles) ? "voxel" : "pebbles");
    ClumpTemplate t;
    try {
      t = shapes::buildMeshTemplate(request).clump;
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    if (meshFile) t.sourceMesh = meshPathFromTemplate(*meshFile, *templateFile);
    writeFileAtomically(*templateFile, templateToJson(t) + "\n");
    out["template_file"] = *templateFile;
  }
  std::cout << out.dump() << std::endl;
  return 0;
}

}  // namespace clumplab::cli
