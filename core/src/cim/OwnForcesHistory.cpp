#include "core/cim/OwnForcesHistory.hpp"

#include "OwnForcesWork.hpp"

namespace clumplab::cim {

OwnForcesHistory::OwnForcesHistory() = default;
OwnForcesHistory::~OwnForcesHistory() = default;
OwnForcesHistory::OwnForcesHistory(OwnForcesHistory&&) noexcept = default;
OwnForcesHistory& OwnForcesHistory::operator=(OwnForcesHistory&&) noexcept = default;

OwnForcesHistory::OwnForcesHistory(const OwnForcesHistory& other)
    : work_(other.work_ ? std::make_unique<OwnForcesWork>(*other.work_) : nullptr) {}

OwnForcesHistory& OwnForcesHistory::operator=(const OwnForcesHistory& other) {
  if (this != &other) *this = OwnForcesHistory(other);
  return *this;
}

void OwnForcesHistory::forget() {
  if (work_) work_->stale = true;
}

void OwnForcesHistory::removeBody(std::size_t index) {
  if (!work_) return;
  work_->stale = true;
  work_->memory.removeParticle(index);
}

std::size_t OwnForcesHistory::memoryBytes(std::size_t bodies) const {
  constexpr std::size_t kObjectBytes = 1024;
  return work_ ? kObjectBytes + 4 * bodies * sizeof(Vec3) : 0;
}

OwnForcesWork& OwnForcesHistory::work() {
  if (!work_) work_ = std::make_unique<OwnForcesWork>();
  return *work_;
}

}  // namespace clumplab::cim
