#include "sim/RecentStageTimes.hpp"

#include <chrono>

namespace clumplab::sim {

double StageTimes::total() const {
  double sum = 0.0;
  for (const double s : stageSeconds) sum += s;
  return sum;
}

void RecentStageTimes::sample(Clock::time_point now, const Snapshot& snapshot) {
  Reading r;
  r.wall = now;
  r.steps = snapshot.steps;
  for (std::size_t k = 0; k < snapshot.stageSeconds.size(); ++k) r.seconds[k] = snapshot.stageSeconds[k];
  r.seconds[5] = snapshot.broadPhaseBodySeconds;
  r.seconds[6] = snapshot.broadPhasePebbleSeconds;
  if (!readings_.empty()) {
    const Reading& last = readings_.back();
    if (r.steps == last.steps) return;  // nothing stepped: the figures stay
    bool wentBack = r.steps < last.steps;
    for (std::size_t k = 0; k < r.seconds.size(); ++k) wentBack = wentBack || r.seconds[k] < last.seconds[k];
    if (wentBack) readings_.clear();
  }
  readings_.push_back(r);
  // Keep one reading at or before the window's start, so that the figures span the whole window.
  const auto windowStart =
      now - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kWindowSeconds));
  while (readings_.size() > 2 && readings_[1].wall <= windowStart) readings_.pop_front();
}

StageTimes RecentStageTimes::perStep() const {
  StageTimes t;
  if (readings_.size() < 2) return t;
  const Reading& first = readings_.front();
  const Reading& last = readings_.back();
  t.steps = last.steps - first.steps;
  t.windowSeconds = std::chrono::duration<double>(last.wall - first.wall).count();
  const double steps = static_cast<double>(t.steps);
  for (std::size_t k = 0; k < t.stageSeconds.size(); ++k) {
    t.stageSeconds[k] = (last.seconds[k] - first.seconds[k]) / steps;
  }
  t.broadPhaseBodySeconds = (last.seconds[5] - first.seconds[5]) / steps;
  t.broadPhasePebbleSeconds = (last.seconds[6] - first.seconds[6]) / steps;
  return t;
}

}  // namespace clumplab::sim
