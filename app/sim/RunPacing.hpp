#pragma once
// How far the simulation thread should step in a display frame: simulated time follows wall-clock
// time x the chosen speed from an anchor (re-anchored on run, pause and speed changes), a run that
// falls far behind drops its backlog instead of racing to catch up, and the speed actually reached
// is measured over a sliding window. Plain C++ (std::chrono), no World.
#include <chrono>
#include <cstdint>
#include <deque>

namespace clumplab::sim {

// Pacing and throughput, measured on the simulation thread.
struct SimulationStats {
  bool paused = true;
  bool asFastAsPossible = false;
  double targetSpeed = 1.0;     // simulated seconds per wall second wanted
  double measuredSpeed = 0.0;   // measured over the last half second
  double stepsPerSecond = 0.0;  // measured over the last half second
  bool fallingBehind = false;   // the last frame could not keep up with the target speed
};

class RunPacing {
 public:
  using Clock = std::chrono::steady_clock;

  static constexpr double kFrameSeconds = 1.0 / 60.0;  // display frame the thread paces against
  static constexpr double kRateWindowSeconds = 0.5;    // the measured speed's window
  // Falling behind by more than this many wall seconds of the target drops the backlog (re-sync)
  // instead of trying to catch up, so the view never races to make up for lost time.
  static constexpr double kMaxLagSeconds = 0.1;

  // Simulated time `simTime` [s] corresponds to wall time `now` from here on; the measured rates
  // start afresh.
  void restart(Clock::time_point now, double simTime);
  // Simulated seconds per wall second, clamped to [1e-3, 1]; or as fast as possible.
  void setSpeed(double speed, bool asFastAsPossible);
  bool asFastAsPossible() const { return asFast_; }

  // The simulated time [s] a real-time run should reach by `sliceStart`, for a world at `simTime`
  // stepping `timeStep` [s]. A lag of more than kMaxLagSeconds of wall time (or two steps, at slow
  // speeds where one step spans many frames) re-anchors at `simTime` and aims one frame ahead.
  double realTimeTarget(Clock::time_point sliceStart, double simTime, double timeStep);

  // Whether the last frame's stepping was cut short by its time budget.
  void setFallingBehind(bool behind) { stats_.fallingBehind = behind; }
  bool fallingBehind() const { return stats_.fallingBehind; }

  // Adds a point (wall time, simulated time, step count) to the window and updates the measured
  // speed and step rate; a paused run measures zero.
  void updateRates(Clock::time_point now, double simTime, std::uint64_t steps, bool running);

  SimulationStats stats(bool paused) const;

 private:
  struct RatePoint {
    Clock::time_point wall;
    double sim;
    std::uint64_t steps;
  };
  Clock::time_point anchorWall_{};
  double anchorSim_ = 0.0;
  double speed_ = 1.0;
  bool asFast_ = false;
  SimulationStats stats_;
  std::deque<RatePoint> rateWindow_;
};

}  // namespace clumplab::sim
