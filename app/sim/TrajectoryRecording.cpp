#include "sim/TrajectoryRecording.hpp"

#include <cmath>
#include <filesystem>

#include "core/io/SceneWriter.hpp"
#include "core/world/World.hpp"

namespace clumplab::sim {

namespace {
std::string folderOf(const std::string& path) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  return folder.empty() ? std::string(".") : folder;
}

TrajectoryPlan checked(TrajectoryPlan plan) {
  if (plan.everySteps == 0 && !(plan.everySeconds > 0.0 && std::isfinite(plan.everySeconds)))
    plan.everySteps = 1;
  return plan;
}
}  // namespace

TrajectoryRecording::TrajectoryRecording(const TrajectoryPlan& plan, const World& world,
                                         const Scene& loadedFrom)
    : plan_(checked(plan)),
      writer_(plan.path, sceneToJson(sceneFromWorld(world, loadedFrom), folderOf(plan.path)),
              templateKeys(world.model().templates)),
      templates_(world.model().templates.size()),
      startTime_(world.time()),
      lastTime_(world.time()),
      startStep_(world.stepCount()) {
  append(world);
}

void TrajectoryRecording::append(const World& world) {
  writer_.append(world.time(), world.stepCount(), world.bodies());
  lastTime_ = world.time();
}

void TrajectoryRecording::afterStep(const World& world) {
  const std::uint64_t steps = world.stepCount() - startStep_;
  if (plan_.everySteps > 0) {
    if (steps % plan_.everySteps == 0) append(world);
    return;
  }
  // Frame k is due at start + k x interval; a frame lands on the first step that reaches it (to
  // half a step), and an interval shorter than the step records every step.
  const double half = 0.5 * world.model().settings.timeStep;
  const double due = startTime_ + static_cast<double>(framesDue_ + 1) * plan_.everySeconds;
  if (world.time() + half < due) return;
  append(world);
  framesDue_ = static_cast<std::uint64_t>(
      std::max(std::floor((world.time() + half - startTime_) / plan_.everySeconds), 1.0));
}

void TrajectoryRecording::finish() {
  writer_.close();
}

}  // namespace clumplab::sim
