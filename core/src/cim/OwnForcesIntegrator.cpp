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

namespace {
// Whether `b` is what `work` last wrote into the world (nothing edited it since).
bool matches(const OwnForcesWork& work, const BodyState& b) {
  const RigidBodySet& state = work.state;
  const std::size_t n = state.size();
  if (b.size() != n || work.writtenAngularVelocity.size() != n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (b.position[i] != state.position[i] || b.velocity[i] != state.velocity[i] ||
        b.orientation[i].coeffs() != state.orientation[i].coeffs() ||
        b.angularVelocity[i] != work.writtenAngularVelocity[i]) {
      return false;
    }
  }
  return true;
}
}  // namespace

bool OwnForcesIntegrator::synchronize(OwnForcesWork& w, const WorldView& world, bool edited) {
  bool rebuilt = false;
  const BodyState& bodies = world.bodies;
  if (w.stale || edited || !w.particles || w.particles->templateOf.size() != bodies.size() ||
      !(world.model.settings.cim == w.settings)) {
    w.particles = describeWorld(world);
    w.model = makeParticleModel(w.particles);
    w.settings = world.model.settings.cim;
    w.buffer = resolveBuffer(w.settings.buffer, w.particles->templates);
    w.tally = needsTally(*w.particles);
    rebuilt = true;
  }
  if (w.stale || !matches(w, bodies)) {
    w.state = bodySetOf(bodies);
    rebuilt = true;
  }
  // Bodies added since (an inlet, a spawn) start without contacts; the others keep theirs. A law without
  // memory forgets it (a law with memory chosen again later starts afresh).
  if (!w.model.keepsMemory()) w.memory.of.clear();
  w.memory.of.resize(bodies.size());
  w.stale = false;
  return rebuilt;
}

void OwnForcesIntegrator::publish(OwnForcesWork& w, BodyState& b, const NeighborCsr* neighbors,
                                  OwnForcesStep& out) {
  b.position = w.state.position;
  b.velocity = w.state.velocity;
  b.orientation = w.state.orientation;
  for (std::size_t i = 0; i < w.state.size(); ++i) b.angularVelocity[i] = w.state.angularVelocity(i);
  w.writtenAngularVelocity = b.angularVelocity;
  if (neighbors == nullptr) return;
  ContactSummary summary = summarizeContacts(*w.particles, *neighbors, w.state, &w.memory);
  out.pebbleContacts = summary.pebbleContacts;
  out.wallContacts = summary.wallContacts;
  out.worstOverlapRatio = summary.worstOverlapRatio;
  out.worstBody = summary.worstBody;
  out.contactPoints = std::move(summary.points);
}

double OwnForcesIntegrator::elasticEnergy(const WorldView& world, const OwnForcesHistory& history) const {
  const std::shared_ptr<const WorldParticles> particles = describeWorld(world);
  const OwnForcesWork* w = history.work();
  const ContactMemory none;
  return summarizeContacts(*particles, makeParticleModel(particles), bodySetOf(world.bodies),
                           w != nullptr ? &w->memory : &none)
      .elasticEnergy;
}

}  // namespace clumplab::cim
