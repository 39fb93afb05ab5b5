#pragma once
// Wall-clock timing of the engine's stages (World::stageSeconds, NeighborList::seconds).
#include <chrono>

namespace clumplab {

using StageClock = std::chrono::steady_clock;

inline double secondsSince(StageClock::time_point t0) {
  return std::chrono::duration<double>(StageClock::now() - t0).count();
}

}  // namespace clumplab
