#include "sim/StateHistory.hpp"

#include <algorithm>
#include <cmath>

namespace clumplab::sim {

std::uint64_t StateHistory::intervalSteps(double timeStep) const {
  const double bySeconds = timeStep > 0.0 ? std::ceil(everySeconds_ / timeStep - 1e-9) : 1.0;
  return std::max<std::uint64_t>({1, everySteps_, static_cast<std::uint64_t>(std::min(bySeconds, 1e12))});
}

void StateHistory::setLimits(std::size_t capBytes, std::size_t maxStates) {
  capBytes_ = capBytes;
  maxStates_ = std::max<std::size_t>(1, maxStates);
  while (!states_.empty() && (bytes_ > capBytes_ || states_.size() > maxStates_)) dropOldest();
}

void StateHistory::setInterval(std::uint64_t everySteps, double everySeconds) {
  everySteps_ = std::max<std::uint64_t>(1, everySteps);
  everySeconds_ = std::max(0.0, everySeconds);
}

void StateHistory::afterStep(const World& world) {
  const std::uint64_t step = world.stepCount();
  if (!states_.empty()) {
    const std::uint64_t newest = states_.back().checkpoint.stepCount();
    if (step > newest && step - newest < intervalSteps(world.model().settings.timeStep)) return;
  }
  push(world.checkpoint());
}

void StateHistory::push(WorldCheckpoint checkpoint) {
  // A state at or before the newest one (the world went back) replaces the newer ones.
  while (!states_.empty() && states_.back().checkpoint.stepCount() >= checkpoint.stepCount()) {
    bytes_ -= states_.back().bytes;
    states_.pop_back();
  }
  const std::size_t size = checkpoint.memoryBytes();
  if (size > capBytes_) return;
  states_.push_back({std::move(checkpoint), size});
  bytes_ += size;
  while (bytes_ > capBytes_ || states_.size() > maxStates_) dropOldest();
}

void StateHistory::dropOldest() {
  bytes_ -= states_.front().bytes;
  states_.pop_front();
}

std::optional<WorldCheckpoint> StateHistory::stepBack(std::uint64_t currentStep) {
  while (!states_.empty() && states_.back().checkpoint.stepCount() >= currentStep) {
    bytes_ -= states_.back().bytes;
    states_.pop_back();
  }
  if (states_.empty()) return std::nullopt;
  return states_.back().checkpoint;  // kept: the next step back goes to the one before it
}

void StateHistory::clear() {
  states_.clear();
  bytes_ = 0;
}

HistoryStats StateHistory::stats(std::uint64_t currentStep) const {
  HistoryStats s;
  s.states = states_.size();
  s.bytes = bytes_;
  s.capBytes = capBytes_;
  if (!states_.empty()) {
    s.seconds = states_.back().checkpoint.time() - states_.front().checkpoint.time();
    s.canStepBack = states_.front().checkpoint.stepCount() < currentStep;
  }
  return s;
}

}  // namespace clumplab::sim
