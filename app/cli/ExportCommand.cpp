// clumplab-cli export SCENE --to vtk|liggghts|yade|mercurydpm --out DIR [--steps N | --time T]
// [--every K]: the scene's initial state for ParaView, or a deck / script / clump folders for an
// engine that scales out (core/export/SceneExport.hpp). Prints {"target", "folder", "files",
// "warnings", "bodies", "templates", "total_mass"}; a feature the target cannot express exits 2
// naming the scene file, the JSON path and why.
#include <cmath>
#include <iostream>

#include "Commands.hpp"
#include "core/export/SceneExport.hpp"
#include "core/world/World.hpp"

namespace clumplab::cli {

int exportCommand(const std::vector<std::string>& argv) {
  const Arguments args(argv, {"--to", "--out", "--steps", "--time", "--every", "--integrator", "--dt",
                              "--threads", "--spheres", "--plane"});
  const auto target = args.text("--to");
  if (!target) throw UsageError("--to vtk|liggghts|yade|mercurydpm is required");
  const auto folder = args.text("--out");
  if (!folder) throw UsageError("--out DIR is required");
  if (*target != "vtk" && *target != "liggghts" && *target != "yade" && *target != "mercurydpm")
    throw UsageError("--to: expected vtk, liggghts, yade or mercurydpm, got \"" + *target + "\"");
  if (args.has("--steps") && args.has("--time")) throw UsageError("give --steps or --time, not both");
  const Scene scene = loadSceneWithOverrides(args, "export");
  ExportRun run;
  if (const auto s = args.integer("--steps")) {
    run.steps = *s;
  } else if (const auto t = args.number("--time")) {
    if (*t < 0.0) throw UsageError("--time must not be negative");
    run.steps = std::llround(*t / scene.model.settings.timeStep);
  } else if (scene.duration > 0.0) {
    run.steps = std::llround(scene.duration / scene.model.settings.timeStep);
  }
  run.every = args.integer("--every").value_or(100);
  if (run.every < 1) throw UsageError("--every must be at least 1");

  const auto world = buildWorld(scene);
  ExportResult result;
  if (*target == "vtk") result = exportVtk(*world, *folder);
  if (*target == "liggghts") result = exportLiggghts(scene, *world, *folder, run);
  if (*target == "yade") result = exportYade(scene, *world, *folder, run);
  if (*target == "mercurydpm") result = exportMercury(scene, *world, *folder);

  double mass = 0.0;
  for (double m : world->bodies().mass) mass += m;
  nlohmann::json summary = {{"target", *target},
                            {"folder", *folder},
                            {"files", result.files},
                            {"warnings", result.warnings},
                            {"bodies", world->bodies().size()},
                            {"templates", world->model().templates.size()},
                            {"total_mass", mass},
                            {"time_step", scene.model.settings.timeStep}};
  nlohmann::json figures = nlohmann::json::object();
  for (const auto& [name, values] : result.figures) figures[name] = values;
  summary["figures"] = figures;
  if (*target == "liggghts" || *target == "yade") summary["steps"] = run.steps, summary["every"] = run.every;
  std::cout << summary.dump() << std::endl;
  return 0;
}

}  // namespace clumplab::cli
