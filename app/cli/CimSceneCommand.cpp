// clumplab-cli cim-scene: the cluster integration paper's test system (746 elastic spherocylinders in a
// periodic 5 cm box, equilibrated to equipartition at 6.13e-6 J per particle), written as a scene file.
#include <cstdio>
#include <iostream>

#include "Commands.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/studies/SpherocylinderGas.hpp"

namespace clumplab::cli {

int cimSceneCommand(const std::vector<std::string>& argv) {
  const Arguments args(argv,
                       {"--out", "--count", "--box", "--energy", "--stiffness", "--buffer", "--seed",
                        "--tolerance", "--max-time", "--threads", "--min-step"},
                       {"--quiet"});
  if (!args.positional().empty()) throw UsageError("takes no positional arguments (the scene goes to --out)");
  const auto out = args.text("--out");
  if (!out) throw UsageError("--out FILE is required");
  cim::SpherocylinderGasRequest r;
  r.count = static_cast<std::size_t>(args.integer("--count").value_or(746));
  r.boxLength = args.number("--box").value_or(r.boxLength);
  r.meanKineticEnergy = args.number("--energy").value_or(r.meanKineticEnergy);
  r.stiffness = args.number("--stiffness").value_or(r.stiffness);
  r.buffer = args.number("--buffer").value_or(r.buffer);
  r.seed = static_cast<std::uint64_t>(args.integer("--seed").value_or(1));
  r.tolerance = args.number("--tolerance").value_or(r.tolerance);
  r.maxTime = args.number("--max-time").value_or(r.maxTime);
  r.threads = static_cast<int>(args.integer("--threads").value_or(1));
  const double minStep = args.number("--min-step").value_or(0.0);
  if (r.count < 1 || !(r.boxLength > 0.0) || !(r.meanKineticEnergy > 0.0) || !(r.stiffness > 0.0) ||
      !(r.buffer > 0.0) || !(r.tolerance > 0.0) || !(r.maxTime > 0.0) || r.threads < 1 || !(minStep >= 0.0)) {
    throw UsageError(
        "--count, --box, --energy, --stiffness, --buffer, --tolerance, --max-time and --threads "
        "must be positive, --min-step >= 0");
  }
  const bool quiet = args.has("--quiet");
  double lastReport = -1.0;
  r.progress = [&](double t, double ratio, double meanRatio) {
    if (quiet || t - lastReport < 0.05) return;
    lastReport = t;
    std::fprintf(stderr,
                 "equilibrating: t = %.3f s, E_rot/E_trans %.4f (mean over the window %.4f; 2/3 wanted)\n", t,
                 ratio, meanRatio);
  };
  cim::SpherocylinderGasResult g = cim::makeSpherocylinderGas(r);
  Scene& scene = g.scene;
  char description[900];
  std::snprintf(
      description, sizeof description,
      "the cluster integration paper's test system (Table 1): %zu elastic spherocylinders (shaft %g mm, "
      "radius %g mm, density "
      "%g kg/m^3) in a periodic cubic box of %g cm (volume fraction %.4f), zero gravity, a linear "
      "repulsive spring only (kn %g N/m; clumplab-cli cim-table varies it), mean kinetic energy %g J per "
      "particle with no spin about the shafts, equilibrated for %.3f s to E_rot/E_trans = %.4f (2/3: "
      "equipartition of 2 rotational and 3 translational degrees of freedom). Made by clumplab-cli "
      "cim-scene --seed %llu --stiffness %g --min-step %g.",
      r.count, 1e3 * r.shaftLength, 1e3 * r.radius, r.density, 1e2 * r.boxLength, g.volumeFraction,
      r.stiffness, r.meanKineticEnergy, g.equilibrationTime, g.ratio, static_cast<unsigned long long>(r.seed),
      r.stiffness, minStep);
  scene.description = description;
  scene.duration = 0.1;
  scene.model.settings.timeStep = 1e-3;
  scene.model.settings.threads = 1;
  scene.model.settings.cim.minStep = minStep;
  saveScene(scene, *out);
  const nlohmann::json summary = {{"scene", *out},
                                  {"bodies", scene.bodies.size()},
                                  {"volume_fraction", g.volumeFraction},
                                  {"equilibration_time", g.equilibrationTime},
                                  {"ratio", g.ratio},
                                  {"mean_ratio", g.meanRatio},
                                  {"placement_attempts", g.placementAttempts},
                                  {"seed", r.seed}};
  std::cout << summary.dump() << std::endl;
  return 0;
}

}  // namespace clumplab::cli
