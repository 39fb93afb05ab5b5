#include "core/cim/Rk4Baseline.hpp"

#include <stdexcept>
#include <utility>
#include "core/base/MemoryBytes.hpp"

namespace clumplab::cim {

Rk4Baseline::Rk4Baseline(ParticleModel model, double buffer, bool tally)
    : model_(std::move(model)), buffer_(buffer), integrateTally_(tally) {
  if (!(buffer_ > 0.0)) throw std::invalid_argument("Rk4Baseline: the buffer must be positive");
  identity_.reserve(model_.size());
  for (std::size_t i = 0; i < model_.size(); ++i) identity_.push_back(static_cast<std::uint32_t>(i));
}

std::size_t Rk4Baseline::memoryBytes() const {
  return model_.memoryBytes() + neighbors_.memoryBytes() + elementBytes(positionAtBuild_) +
         elementBytes(orientationAtBuild_) + elementBytes(identity_) + elementBytes(tally_.wallImpulse);
}

bool Rk4Baseline::needsRebuild(const RigidBodySet& state, double dt) const {
  if (!built_) return true;
  const std::vector<double> speeds = pointSpeeds(model_, state);
  for (std::size_t i = 0; i < state.size(); ++i) {
    const double moved = model_.box.minimumImage(state.position[i] - positionAtBuild_[i]).norm() +
                         model_.reach[i] * orientationAtBuild_[i].angularDistance(state.orientation[i]);
    if (moved + speeds[i] * dt >= 0.5 * buffer_) return true;
  }
  return false;
}

void Rk4Baseline::step(RigidBodySet& state, double dt, std::vector<Vec3>* wrapShifts, ContactMemory* memory) {
  if (state.size() != model_.size()) throw std::invalid_argument("Rk4Baseline::step: state size mismatch");
  if (memory != nullptr && !model_.keepsMemory()) memory = nullptr;
  if (memory != nullptr) memory->of.resize(model_.size());
  if (needsRebuild(state, dt)) {
    neighbors_ = neighborsOf(model_, state, buffer_);
    positionAtBuild_ = state.position;
    orientationAtBuild_ = state.orientation;
    built_ = true;
    ++stats_.rebuilds;
  }
  // The force callback is bound for this step only (so copies of this object stay independent).
  StepWork& work = *work_;
  if (integrateTally_) {
    const std::size_t walls = model_.wallCount;
    work.ode.reset(
        model_.inertia, model_.gravity,
        [this, walls, memory](const RigidBodySet& s, std::vector<Vec3>& forces, std::vector<Vec3>& torques,
                              std::span<double> rates) {
          std::vector<Vec3>& wallForces = work_->wallForces;
          wallForces.assign(walls, Vec3::Zero());
          ForceTally tally;
          tally.wallForces = wallForces;
          stats_.forceCalls.add(
              listForces(model_, neighbors_, identity_, identity_, s, forces, torques, &tally, memory));
          writeTallyRates(tally, wallForces, rates);
        },
        tallyComponentCount(walls));
  } else {
    work.ode.reset(
        model_.inertia, model_.gravity,
        [this, memory](const RigidBodySet& s, std::vector<Vec3>& forces, std::vector<Vec3>& torques) {
          stats_.forceCalls.add(
              listForces(model_, neighbors_, identity_, identity_, s, forces, torques, nullptr, memory));
        });
  }
  OdeState& y = work.y;
  packAll(state, y);
  const Eigen::Index bodiesSize = y.size();
  y.conservativeResize(work.ode.stateSize());
  y.tail(y.size() - bodiesSize).setZero();
  rk4Step(work.ode, 0.0, dt, y, work.rk);
  work.ode.project(y);
  unpackBodies(y, identity_, state);
  // The step's forces read the memory as it was at its start; its end takes the contacts' overlaps in.
  const double lost =
      memory != nullptr ? commitContacts(model_, neighbors_, identity_, identity_, state, *memory) : 0.0;
  if (integrateTally_) {
    tally_ = TallyIntegral{};
    readTallyIntegral(std::span<const double>(y.data() + bodiesSize, y.size() - bodiesSize), model_.wallCount,
                      tally_);
    tally_.dissipated += lost;
  }
  wrapPositions(model_.box, state, wrapShifts);
  ++stats_.steps;
  stats_.evaluations += 4;
}

}  // namespace clumplab::cim
