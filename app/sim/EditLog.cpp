#include "sim/EditLog.hpp"

#include <algorithm>

namespace clumplab::sim {

void EditLog::spawned(std::uint64_t serial, std::size_t first, std::size_t count, double time) {
  if (count == 0) return;
  spawns_.push_back({serial, first, count});
  lastKind_ = Kind::Spawn;
  lastTime_ = time;
  lastSerial_ = serial;
}

void EditLog::parametersChanged(double time) {
  lastKind_ = Kind::Parameters;
  lastTime_ = time;
}

void EditLog::bodyRemoved(std::size_t index) {
  for (SpawnRange& s : spawns_) {
    if (index < s.first) {
      --s.first;
    } else if (index < s.first + s.count) {
      --s.count;  // the range stays contiguous: the bodies after it shift down
    }
  }
  std::erase_if(spawns_, [](const SpawnRange& s) { return s.count == 0; });
}

void EditLog::restored(std::size_t bodies) {
  for (SpawnRange& s : spawns_) s.count = s.first >= bodies ? 0 : std::min(s.count, bodies - s.first);
  std::erase_if(spawns_, [](const SpawnRange& s) { return s.count == 0; });
}

void EditLog::clear() {
  spawns_.clear();
  lastKind_ = Kind::None;
}

std::optional<SpawnRange> EditLog::spawn(std::uint64_t serial) const {
  const auto it =
      std::find_if(spawns_.begin(), spawns_.end(), [&](const SpawnRange& s) { return s.serial == serial; });
  if (it == spawns_.end()) return std::nullopt;
  return *it;
}

void EditLog::forget(std::uint64_t serial) {
  std::erase_if(spawns_, [&](const SpawnRange& s) { return s.serial == serial; });
  if (lastKind_ == Kind::Spawn && lastSerial_ == serial) lastKind_ = Kind::None;
}

DivergenceCause EditLog::cause(double time, bool stepAboveSafe, std::uint64_t& spawnSerial) const {
  const bool recent = time - lastTime_ <= kCauseWindowSeconds;
  if (recent && lastKind_ == Kind::Spawn && spawn(lastSerial_)) {
    spawnSerial = lastSerial_;
    return DivergenceCause::SpawnedBodies;
  }
  if (recent && lastKind_ == Kind::Parameters) return DivergenceCause::ParameterEdit;
  return stepAboveSafe ? DivergenceCause::TimeStep : DivergenceCause::Unknown;
}

}  // namespace clumplab::sim
