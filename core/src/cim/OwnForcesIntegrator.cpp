#include "OwnForcesIntegrator.hpp"

#include "core/clump/BodyState.hpp"
#include "core/model/WorldModel.hpp"

namespace clumplab::cim {

namespace {
bool contactDissipates(const ContactModel& c) {
  if (c.kind == ContactModel::Kind::Hertz) return c.hertz.restitutionSquared < 1.0 || c.hertz.friction > 0.0;
  if (c.kind == ContactModel::Kind::HertzMindlin)
    return c.hertzMindlin.restitution < 1.0;  // friction: history
  const LinearContactParameters& p = c.linear;
  const bool dashpot = p.dampingFromRestitution ? p.restitution < 1.0 : p.damping > 0.0;
  return dashpot || (p.friction > 0.0 && p.tangentialDamping > 0.0);
}
}  // namespace

bool needsTally(const WorldParticles& w) {
  return contactDissipates(w.contact) || w.linearDamping > 0.0 || w.angularDamping > 0.0 ||
         !w.loadForce.empty() || !w.walls.empty();
}

bool OwnForcesIntegrator::matches(const BodyState& b) const {
  const std::size_t n = state_.size();
  if (b.size() != n || writtenAngularVelocity_.size() != n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (b.position[i] != state_.position[i] || b.velocity[i] != state_.velocity[i] ||
        b.orientation[i].coeffs() != state_.orientation[i].coeffs() ||
        b.angularVelocity[i] != writtenAngularVelocity_[i]) {
      return false;
    }
  }
  return true;
}

bool OwnForcesIntegrator::synchronize(const WorldView& world, bool edited) {
  bool rebuilt = false;
  const BodyState& bodies = world.bodies;
  if (stale_ || edited || !particles_ || particles_->templateOf.size() != bodies.size() ||
      !(world.model.settings.cim == settings_)) {
    particles_ = describeWorld(world);
    model_ = makeParticleModel(particles_);
    settings_ = world.model.settings.cim;
    buffer_ = resolveBuffer(settings_.buffer, particles_->templates);
    tally_ = needsTally(*particles_);
    rebuilt = true;
  }
  if (stale_ || !matches(bodies)) {
    state_ = bodySetOf(bodies);
    rebuilt = true;
  }
  // Bodies added since (an inlet, a spawn) start without contacts; the others keep theirs. A law without
  // memory forgets it (a law with memory chosen again later starts afresh).
  if (!model_.keepsMemory()) memory_.of.clear();
  memory_.of.resize(bodies.size());
  stale_ = false;
  return rebuilt;
}

void OwnForcesIntegrator::publish(BodyState& b, const NeighborCsr* neighbors, OwnForcesStep& out) {
  b.position = state_.position;
  b.velocity = state_.velocity;
  b.orientation = state_.orientation;
  for (std::size_t i = 0; i < state_.size(); ++i) b.angularVelocity[i] = state_.angularVelocity(i);
  writtenAngularVelocity_ = b.angularVelocity;
  if (neighbors == nullptr) return;
  ContactSummary summary = summarizeContacts(*particles_, *neighbors, state_, &memory_);
  out.pebbleContacts = summary.pebbleContacts;
  out.wallContacts = summary.wallContacts;
  out.worstOverlapRatio = summary.worstOverlapRatio;
  out.worstBody = summary.worstBody;
  out.contactPoints = std::move(summary.points);
}

double OwnForcesIntegrator::elasticEnergy(const WorldView& world) const {
  const std::shared_ptr<const WorldParticles> particles = describeWorld(world);
  return summarizeContacts(*particles, makeParticleModel(particles), bodySetOf(world.bodies), &memory_)
      .elasticEnergy;
}

}  // namespace clumplab::cim
