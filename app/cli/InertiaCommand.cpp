// clumplab-cli inertia FILE: mass properties of a mesh (exact, voxels or Monte Carlo over its
// interior), or of a clump's pebbles (template JSON, `x y z r` text, MercuryDPM clump folder).
#include <filesystem>
#include <iostream>
#include <optional>

#include "Commands.hpp"
#include "ShapesJson.hpp"
#include "core/base/Errors.hpp"
#include "core/clump/MassProperties.hpp"
#include "core/io/PebbleFiles.hpp"
#include "core/io/TemplateFile.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/MeshSolid.hpp"

namespace clumplab::cli {

namespace {

constexpr double kDefaultDensity = 1000.0;  // [kg/m^3] when a mesh or pebble list gives none

MassProperties sampled(const std::string& method, const Solid& solid, double density, const Sampling& s) {
  if (method == "voxel") {
    return s.voxels > 0 ? massFromVoxels(solid, density, s.voxels)
                        : massFromVoxelsWithinBudget(solid, density, s.budget);
  }
  return massFromMonteCarlo(solid, density, s.samples, s.halton);
}

double densityOption(const Arguments& args, double fallback) {
  const double d = args.number("--density").value_or(fallback);
  if (!(d > 0.0)) throw UsageError("--density must be positive");
  return d;
}

nlohmann::json meshInertia(const std::string& file, const std::string& method, const Arguments& args) {
  const shapes::PreparedMesh prepared = shapes::importMesh(file, meshOptions(args));
  printWarnings(prepared.report);
  const double density = densityOption(args, kDefaultDensity);
  MassProperties m;
  if (method == "mesh") {
    m = shapes::preparedMassProperties(prepared, density);
  } else if (method == "voxel" || method == "monte-carlo") {
    m = sampled(method, *prepared.solid, density, samplingOptions(args));
  } else if (method == "pebbles" || method == "given") {
    throw UsageError("--method " + method +
                     " needs pebbles: a template JSON, an `x y z r` text or a MercuryDPM clump folder");
  } else {
    throw UsageError("unknown method \"" + method + "\" (use mesh, voxel or monte-carlo for a mesh)");
  }
  nlohmann::json out = massPropertiesJson(m);
  out["method"] = method;
  out["density"] = density;
  out["mesh"] = meshReportJson(prepared.report);
  return out;
}

nlohmann::json pebbleInertia(const std::string& file, const std::string& requested, const Arguments& args) {
  // The pebbles and what the file says of mass (a template or a MercuryDPM folder may).
  std::vector<Pebble> pebbles;
  double density = 0.0;
  std::optional<MassProperties> given;
  const double scale = args.number("--scale").value_or(1.0);
  if (!(scale > 0.0)) throw UsageError("--scale must be positive");
  if (isMercuryClumpFolder(file)) {
    const MercuryClump c = readMercuryClumpFolder(file);
    pebbles = c.pebbles;
    if (c.mass) {
      // MClump's mass and tensor are per unit density (its default); --density multiplies them.
      given = mercuryMassProperties(c, args.number("--density").value_or(1.0));
    }
  } else if (std::filesystem::path(file).extension() == ".json") {
    const ClumpTemplate t = loadTemplateFile(file);
    pebbles = t.pebbles;
    density = t.density;
    MassProperties m;
    m.mass = t.mass;
    m.volume = t.volume;
    m.inertiaTensor = t.principalMoments.asDiagonal();  // the file's pebbles are in the principal frame
    given = m;
  } else {
    pebbles = readPebbleText(file);
  }
  // Defaults: a template with a density is summed over its pebbles (as before meshes existed), one
  // without, or a MercuryDPM folder with Inertia/, reports the mass properties it holds.
  const bool isTemplate = std::filesystem::path(file).extension() == ".json";
  const std::string method =
      !requested.empty() ? requested : ((given && !(isTemplate && density > 0.0)) ? "given" : "pebbles");
  if (method == "mesh") throw UsageError("--method mesh needs a mesh file (STL, OBJ, PLY, ...)");
  if (method == "given") {
    if (!given)
      throw InputError(file, "",
                       "holds no mass properties to give: use --method pebbles, voxel or monte-carlo");
    if (args.has("--density") && !isMercuryClumpFolder(file))
      throw UsageError("--density does not apply to --method given");
    MassProperties m = *given;
    const double f3 = scale * scale * scale;
    m.mass *= f3;
    m.volume *= f3;
    m.inertiaTensor *= f3 * scale * scale;
    nlohmann::json out = massPropertiesJson(m);
    out["method"] = method;
    return out;
  }
  for (Pebble& p : pebbles) {
    p.center *= scale;
    p.radius *= scale;
  }
  density = densityOption(args, density > 0.0 ? density : kDefaultDensity);
  MassProperties m;
  if (method == "pebbles") {
    m = massFromPebbles(pebbles, std::vector<double>(pebbles.size(), density));
  } else if (method == "voxel" || method == "monte-carlo") {
    m = sampled(method, PebbleUnion(pebbles), density, samplingOptions(args));
  } else {
    throw UsageError("unknown method \"" + method +
                     "\" (use pebbles, given, voxel or monte-carlo for pebbles)");
  }
  nlohmann::json out = massPropertiesJson(m);
  out["method"] = method;
  out["density"] = density;
  out["pebbles"] = pebbles.size();
  return out;
}

}  // namespace

nlohmann::json inertiaResult(const std::vector<std::string>& argv) {
  const Arguments args(argv,
                       {"--method", "--density", "--scale", "--voxels", "--voxel-budget", "--samples",
                        "--sequence", "--max-triangles"},
                       {"--repair"});
  if (args.positional().size() != 1) throw UsageError("expected exactly one file: clumplab-cli inertia FILE");
  const std::string file = args.positional()[0];
  const bool mesh = isMeshFile(file);
  const std::string method = args.text("--method").value_or(mesh ? "mesh" : "");
  nlohmann::json out = mesh ? meshInertia(file, method, args) : pebbleInertia(file, method, args);
  out["file"] = file;
  return out;
}

int inertiaCommand(const std::vector<std::string>& argv) {
  std::cout << inertiaResult(argv).dump() << std::endl;
  return 0;
}

}  // namespace clumplab::cli
