#pragma once
// What the user changed in the running world, for undo and for naming the cause of a divergence: the
// bodies each spawn added (by index, kept in step with deletions and restored states) and the last
// edit with its time. Lives on the simulation thread.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace clumplab::sim {

// After a divergence: what most likely caused it, and so the fix the app offers first.
enum class DivergenceCause {
  Unknown,        // nothing changed just before, and the step is within the safe one
  TimeStep,       // the step is above the safe one for the stiffest contact
  SpawnedBodies,  // bodies added by hand just before (undo the spawn)
  ParameterEdit,  // a parameter changed just before (undo the change)
};

// The bodies one spawn added: indices [first, first + count) of the world's bodies now.
struct SpawnRange {
  std::uint64_t serial = 0;
  std::size_t first = 0;
  std::size_t count = 0;
};

class EditLog {
 public:
  // An edit this long before a divergence [s, simulated] is taken as its likely cause: a body
  // dropped from a metre lands within half a second, a stiffer law shows within a few collisions.
  static constexpr double kCauseWindowSeconds = 1.0;

  void spawned(std::uint64_t serial, std::size_t first, std::size_t count, double time);
  void parametersChanged(double time);
  // Body `index` was deleted: later indices shift down by one.
  void bodyRemoved(std::size_t index);
  // A state with `bodies` bodies came back that was taken after every edit in the log (the last
  // good state): bodies inserted since it (inlets) are gone.
  void restored(std::size_t bodies);
  // A new world, or a state from before some edits (a step back): no record names bodies any more.
  void clear();

  // The bodies of spawn `serial` now (none if they are gone).
  std::optional<SpawnRange> spawn(std::uint64_t serial) const;
  void forget(std::uint64_t serial);

  // The likely cause of a divergence at `time` [s], given whether the step is above the safe one;
  // for SpawnedBodies, the spawn's serial in `spawnSerial`.
  DivergenceCause cause(double time, bool stepAboveSafe, std::uint64_t& spawnSerial) const;

 private:
  enum class Kind { None, Spawn, Parameters };
  std::vector<SpawnRange> spawns_;
  Kind lastKind_ = Kind::None;
  double lastTime_ = 0.0;  // [s]
  std::uint64_t lastSerial_ = 0;
};

}  // namespace clumplab::sim
