#include "core/integrate/ForceStageHistory.hpp"

#include "core/clump/BodyState.hpp"

namespace clumplab {

namespace {
void eraseAt(std::vector<Vec3>& v, std::size_t index) {
  if (index < v.size()) v.erase(v.begin() + static_cast<std::ptrdiff_t>(index));
}
}  // namespace

void ForceStageHistory::forget() {
  omegaBody.clear();
  acceleration.clear();
  angularAcceleration.clear();
}

void ForceStageHistory::removeBody(std::size_t index) {
  eraseAt(omegaBody, index);
  eraseAt(acceleration, index);
  eraseAt(angularAcceleration, index);
}

void ForceStageHistory::addBody(const BodyState& bodies) {
  const std::size_t n = bodies.size();
  const std::size_t b = n - 1;
  // Leapfrog: the new body's body-frame angular velocity, as its first step would compute it, when
  // the others have a history (before the first step there is none: the bodies may still be edited).
  if (!omegaBody.empty() && omegaBody.size() + 1 == n) {
    omegaBody.push_back(bodies.orientation[b].conjugate() * bodies.angularVelocity[b]);
  } else {
    omegaBody.clear();
  }
  // Midpoint: a new body starts with alpha = beta = 0, as every body does in the initial state (an
  // empty history is that state for all of them).
  if (!acceleration.empty() && acceleration.size() + 1 == n && angularAcceleration.size() + 1 == n) {
    acceleration.push_back(Vec3::Zero());
    angularAcceleration.push_back(Vec3::Zero());
  } else {
    acceleration.clear();
    angularAcceleration.clear();
  }
}

std::size_t ForceStageHistory::memoryBytes() const {
  return (omegaBody.size() + acceleration.size() + angularAcceleration.size()) * sizeof(Vec3);
}

}  // namespace clumplab
