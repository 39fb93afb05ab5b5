#include <filesystem>
#include <iostream>

#include "Commands.hpp"
#include "core/Errors.hpp"
#include "core/MassProperties.hpp"
#include "core/TemplateFile.hpp"

namespace clumplab::cli {

namespace {
nlohmann::json matrixJson(const Mat3& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (int r = 0; r < 3; ++r) rows.push_back({m(r, 0), m(r, 1), m(r, 2)});
  return rows;
}
}  // namespace

int inertiaCommand(const std::vector<std::string>& argv) {
  const Arguments args(argv, {"--method", "--density", "--scale", "--voxels", "--samples"});
  if (args.positional().size() != 1) throw UsageError("expected exactly one file: clumplab-cli inertia FILE");
  const std::string file = args.positional()[0];
  const std::string ext = std::filesystem::path(file).extension().string();
  if (ext != ".json") {
    throw InputError(file, "",
                     "reading meshes (" + ext +
                         ") needs the shapes library, which this build "
                         "does not have yet; give a clumplab-template/1 JSON file");
  }
  ClumpTemplate t = loadTemplateFile(file);
  const double scale = args.number("--scale").value_or(1.0);
  if (!(scale > 0.0)) throw UsageError("--scale must be positive");
  if (scale != 1.0) t = scaledTemplate(t, scale);
  const std::string method = args.text("--method").value_or(t.density > 0.0 ? "pebbles" : "given");
  double density = args.number("--density").value_or(t.density);
  if (args.has("--density") && !(density > 0.0)) throw UsageError("--density must be positive");

  MassProperties m;
  if (method == "given") {
    m.mass = t.mass;
    m.volume = t.volume;
    m.inertiaTensor = t.principalMoments.asDiagonal();
    if (args.has("--density")) throw UsageError("--density does not apply to --method given");
  } else {
    if (!(density > 0.0)) throw InputError(file, "density", "no density in the file: pass --density D");
    if (method == "pebbles") {
      m = massFromPebbles(t.pebbles, std::vector<double>(t.pebbles.size(), density));
    } else if (method == "voxel") {
      const long long n = args.integer("--voxels").value_or(128);
      if (n < 4 || n > 2048) throw UsageError("--voxels must lie in [4, 2048]");
      m = massFromVoxels(t.pebbles, density, static_cast<int>(n));
    } else if (method == "monte-carlo") {
      const long long n = args.integer("--samples").value_or(1000000);
      if (n < 1000) throw UsageError("--samples must be at least 1000");
      m = massFromMonteCarlo(t.pebbles, density, n, true);
    } else if (method == "mesh") {
      throw UsageError("--method mesh needs a mesh file and the shapes library (not in this build yet)");
    } else {
      throw UsageError("unknown method \"" + method + "\" (use pebbles, given, voxel or monte-carlo)");
    }
  }
  const PrincipalFrame frame = principalFrame(m.inertiaTensor);
  nlohmann::json out = {{"file", file},
                        {"method", method},
                        {"volume", m.volume},
                        {"mass", m.mass},
                        {"center_of_mass", vectorJson(m.centerOfMass)},
                        {"inertia_tensor", matrixJson(m.inertiaTensor)},
                        {"principal_moments", vectorJson(frame.moments)},
                        {"principal_axes", matrixJson(frame.axes)}};
  if (method == "monte-carlo") out["relative_error"] = m.statisticalError;
  std::cout << out.dump() << std::endl;
  return 0;
}

}  // namespace clumplab::cli
