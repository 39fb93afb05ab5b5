#pragma once
// Where the time of a step goes now: the seconds per step of the world's stages over about the last
// second of wall time, from readings of its cumulative stage clocks (Snapshot::stageSeconds). The
// clocks run since the world was built, so their average since then kept showing the old figures
// for minutes after a change of scale (small clumps joining, a tiny step: issue 37). Readings are
// taken only while the world steps (a paused run keeps its last figures), and a reading whose
// steps or clocks went back (a step back, a reset, a new scene) starts the window afresh.
// Plain C++, owned by the simulation thread.
#include <array>
#include <chrono>
#include <cstdint>
#include <deque>

#include "core/world/Snapshot.hpp"

namespace clumplab::sim {

// Seconds per step [s] of each stage, averaged over `steps` recent steps (none yet: steps 0).
struct StageTimes {
  std::uint64_t steps = 0;
  double windowSeconds = 0.0;            // wall time the figures span [s]
  std::array<double, 5> stageSeconds{};  // per World Stage
  double broadPhaseBodySeconds = 0.0;    // the broad phase's two levels (NeighborList::Seconds)
  double broadPhasePebbleSeconds = 0.0;
  double total() const;  // of the stages [s]
};

class RecentStageTimes {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr double kWindowSeconds = 1.0;  // wall time the figures span, at least

  // A reading of `snapshot`'s step count and cumulative clocks at wall time `now`.
  void sample(Clock::time_point now, const Snapshot& snapshot);
  void restart() { readings_.clear(); }
  // From the oldest reading kept (about kWindowSeconds before the newest) to the newest.
  StageTimes perStep() const;

 private:
  struct Reading {
    Clock::time_point wall;
    std::uint64_t steps = 0;
    std::array<double, 7> seconds{};  // the five stages, then the broad phase's two levels
  };
  std::deque<Reading> readings_;
};

}  // namespace clumplab::sim
