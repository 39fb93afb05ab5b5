#pragma once
// Wall-clock timing of the engine's stages (World::stageSeconds, NeighborList::seconds).
#include <chrono>

namespace clumplab {

using StageClock = std::chrono::steady_clock;

inline double secondsSince(StageClock::time_point t0) {
  return std::chrono::duration<double>(StageClock::now() - t0).count();
}

// Adds the seconds of its lifetime to a stage's running total [s]: one per timed scope.
class StageTimer {
 public:
  explicit StageTimer(double& totalSeconds) : total_(totalSeconds), start_(StageClock::now()) {}
  ~StageTimer() { total_ += secondsSince(start_); }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  double& total_;
  StageClock::time_point start_;
};

}  // namespace clumplab
