#include "core/cim/OwnForcesHistory.hpp"

#include "OwnForcesWork.hpp"
#include "core/base/MemoryBytes.hpp"

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

std::size_t OwnForcesHistory::memoryBytes() const {
  if (!work_) return 0;
  const OwnForcesWork& w = *work_;
  // The world's description is shared by the copies made since it was taken: each counts it all.
  return sizeof(OwnForcesWork) + (w.particles ? w.particles->memoryBytes() : 0) + w.model.memoryBytes() +
         w.state.memoryBytes() + w.memory.memoryBytes() + elementBytes(w.writtenAngularVelocity) +
         (w.integration ? w.integration->memoryBytes() : 0) + (w.baseline ? w.baseline->memoryBytes() : 0);
}

OwnForcesWork& OwnForcesHistory::work() {
  if (!work_) work_ = std::make_unique<OwnForcesWork>();
  return *work_;
}

}  // namespace clumplab::cim
