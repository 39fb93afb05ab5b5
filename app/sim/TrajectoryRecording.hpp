#pragma once
// Recording a trajectory from the running app (clumplab-trajectory/1, core/io/Trajectory.hpp): the
// simulation thread appends the world's poses and velocities at step boundaries, every N steps or
// every chosen interval of simulated time. The file is written as .partial and renamed when the
// recording ends (stop, another scene, closing the app). Plain C++, owned by the simulation thread.
#include <cstdint>
#include <memory>
#include <string>

#include "core/io/Trajectory.hpp"
#include "core/scene/Scene.hpp"

namespace clumplab::sim {

struct TrajectoryPlan {
  std::string path;                  // the .cltraj file
  double everySeconds = 1.0 / 60.0;  // simulated time between frames [s]; used when everySteps == 0
  std::uint64_t everySteps = 0;      // > 0: a frame every this many steps instead
};

// What the GUI shows of a recording.
struct TrajectoryStatus {
  bool recording = false;
  std::string path;
  std::size_t frames = 0;
  std::uint64_t bytes = 0;
  double seconds = 0.0;  // simulated time recorded [s]
  // The last recording's end: "" while recording or after a clean finish, else why it stopped.
  std::string problem;
  std::uint64_t finishedCount = 0;  // recordings ended so far (the GUI reports each once)
  std::size_t lastFrames = 0;       // frames of the last finished recording
};

class TrajectoryRecording {
 public:
  // Opens the file and writes the world's current state as the first frame. Throws InputError
  // naming the file.
  TrajectoryRecording(const TrajectoryPlan& plan, const World& world, const Scene& loadedFrom);
  // Appends a frame when one is due (call after every step).
  void afterStep(const World& world);
  // Writes the file's end and renames it into place. Throws InputError naming the file.
  void finish();
  std::size_t templateCount() const { return templates_; }
  const TrajectoryPlan& plan() const { return plan_; }
  std::size_t frames() const { return writer_.frames(); }
  std::uint64_t bytes() const { return writer_.bytes(); }
  double seconds() const { return lastTime_ - startTime_; }

 private:
  void append(const World& world);
  TrajectoryPlan plan_;
  TrajectoryWriter writer_;
  std::size_t templates_ = 0;
  double startTime_ = 0.0;  // [s]
  double lastTime_ = 0.0;   // [s]
  std::uint64_t startStep_ = 0;
  std::uint64_t framesDue_ = 0;  // frames after the first one written so far
};

}  // namespace clumplab::sim
