#pragma once
// Recent states of the running world, for stepping back while paused: a ring of WorldCheckpoints
// taken every `intervalSteps(dt)` steps, bounded by memory and by count (the oldest go first).
// A checkpoint restored and stepped forward reproduces the run bit for bit (World::checkpoint).
// Plain C++, owned by the simulation thread.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

#include "core/world/World.hpp"

namespace clumplab::sim {

// What the history holds, for the status overlay.
struct HistoryStats {
  std::size_t states = 0;
  double seconds = 0.0;      // simulated time from the oldest state to the newest [s]
  std::size_t bytes = 0;     // memory held (WorldCheckpoint::memoryBytes summed)
  std::size_t capBytes = 0;  // the memory bound
  bool canStepBack = false;  // a state older than the current one is held
};

class StateHistory {
 public:
  static constexpr std::size_t kDefaultCapBytes = 256u << 20;
  static constexpr std::size_t kDefaultMaxStates = 4096;
  static constexpr std::uint64_t kDefaultEverySteps = 16;
  static constexpr double kDefaultEverySeconds = 1.0 / 30.0;  // simulated

  // Steps between states: every `everySteps` steps or every `everySeconds` of simulated time,
  // whichever is coarser.
  std::uint64_t intervalSteps(double timeStep) const;
  void setLimits(std::size_t capBytes, std::size_t maxStates);
  void setInterval(std::uint64_t everySteps, double everySeconds);

  // Called after each step: takes a checkpoint when one is due.
  void afterStep(const World& world);
  // Keeps `checkpoint` (the oldest go while the bounds are exceeded; one larger than the whole
  // cap is not kept).
  void push(WorldCheckpoint checkpoint);
  // The newest state strictly older than `currentStep`, with every newer state dropped (they
  // would follow from it again); nullopt if there is none.
  std::optional<WorldCheckpoint> stepBack(std::uint64_t currentStep);
  void clear();

  HistoryStats stats(std::uint64_t currentStep) const;
  std::size_t bytes() const { return bytes_; }
  std::size_t size() const { return states_.size(); }

 private:
  struct Entry {
    WorldCheckpoint checkpoint;
    std::size_t bytes = 0;
  };
  void dropOldest();
  std::deque<Entry> states_;
  std::size_t bytes_ = 0;
  std::size_t capBytes_ = kDefaultCapBytes;
  std::size_t maxStates_ = kDefaultMaxStates;
  std::uint64_t everySteps_ = kDefaultEverySteps;
  double everySeconds_ = kDefaultEverySeconds;
};

}  // namespace clumplab::sim
