#include "sim/RunPacing.hpp"

#include <algorithm>

namespace clumplab::sim {

void RunPacing::restart(Clock::time_point now, double simTime) {
  anchorWall_ = now;
  anchorSim_ = simTime;
  rateWindow_.clear();
}

void RunPacing::setSpeed(double speed, bool asFastAsPossible) {
  speed_ = std::clamp(speed, 1e-3, 1.0);
  asFast_ = asFastAsPossible;
}

double RunPacing::realTimeTarget(Clock::time_point sliceStart, double simTime, double timeStep) {
  double target = anchorSim_ + std::chrono::duration<double>(sliceStart - anchorWall_).count() * speed_;
  // Never re-sync before a step was even due (slow speeds: a step may span many frames).
  if (target - simTime > std::max(kMaxLagSeconds * speed_, 2.0 * timeStep)) {
    anchorSim_ = simTime;
    anchorWall_ = sliceStart;
    target = simTime + std::max(kFrameSeconds * speed_, timeStep);
  }
  return target;
}

void RunPacing::updateRates(Clock::time_point now, double simTime, std::uint64_t steps, bool running) {
  rateWindow_.push_back({now, simTime, steps});
  while (rateWindow_.size() > 2 &&
         std::chrono::duration<double>(now - rateWindow_.front().wall).count() > kRateWindowSeconds) {
    rateWindow_.pop_front();
  }
  const RatePoint& first = rateWindow_.front();
  const double wall = std::chrono::duration<double>(now - first.wall).count();
  if (wall > 0.05 && running) {
    stats_.measuredSpeed = (simTime - first.sim) / wall;
    stats_.stepsPerSecond = static_cast<double>(steps - first.steps) / wall;
  } else if (!running) {
    stats_.measuredSpeed = 0.0;
    stats_.stepsPerSecond = 0.0;
  }
}

SimulationStats RunPacing::stats(bool paused) const {
  SimulationStats s = stats_;
  s.paused = paused;
  s.asFastAsPossible = asFast_;
  s.targetSpeed = speed_;
  return s;
}

}  // namespace clumplab::sim
