// clumplab-cli import DIR --from liggghts --out RUN.cltraj: a LIGGGHTS run of an exported scene
// (core/export/EngineImport.hpp) as a ClumpLab trajectory, for `clumplab --replay` and
// `--record`. Prints {"from", "folder", "trajectory", "frames", "bodies", ...}.
#include <iostream>

#include "Commands.hpp"
#include "core/export/EngineImport.hpp"
#include "shapes/SceneLoading.hpp"

namespace clumplab::cli {

int importCommand(const std::vector<std::string>& argv) {
  const Arguments args(argv, {"--from", "--out"});
  if (args.positional().size() != 1)
    throw UsageError(
        "expected exactly one folder: clumplab-cli import DIR --from liggghts|yade --out RUN.cltraj");
  const auto from = args.text("--from");
  if (!from) throw UsageError("--from liggghts|yade is required");
  if (*from != "liggghts" && *from != "yade")
    throw UsageError("--from: expected liggghts or yade, got \"" + *from + "\"");
  const auto out = args.text("--out");
  if (!out) throw UsageError("--out RUN.cltraj is required");
  const std::string& folder = args.positional()[0];
  const EngineImportSummary s = *from == "liggghts"
                                    ? importLiggghtsRun(folder, *out, shapes::sceneLoadOptions())
                                    : importYadeRun(folder, *out, shapes::sceneLoadOptions());
  const nlohmann::json summary = {{"from", *from},
                                  {"folder", folder},
                                  {"trajectory", *out},
                                  {"frames", s.frames},
                                  {"scene_bodies", s.sceneBodies},
                                  {"inserted_bodies", s.insertedBodies},
                                  {"most_bodies", s.mostBodies},
                                  {"first_time", s.firstTime},
                                  {"last_time", s.lastTime},
                                  {"last_step", s.lastStep},
                                  {"largest_pebble_offset", s.largestPebbleOffset},
                                  {"largest_start_offset", s.largestStartOffset}};
  std::cout << summary.dump() << std::endl;
  return 0;
}

}  // namespace clumplab::cli
