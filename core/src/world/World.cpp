#include "core/world/World.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/base/Assert.hpp"
#include "core/base/MemoryBytes.hpp"
#include "core/cim/SelfForcedIntegrator.hpp"
#include "core/integrate/BlockedDofs.hpp"
#include "core/model/ModelParameters.hpp"
#include "core/step/BodyForces.hpp"
#include "core/world/PeriodicChecks.hpp"

#include "IntegratorFactory.hpp"
#include "WorldOwnForces.hpp"
#include "WorldValidation.hpp"

namespace clumplab {

World::World(const WorldSettings& settings, const ContactModel& contact, std::vector<Wall> walls,
             std::vector<TemplatePtr> templates)
    : World(WorldModel{settings, contact, std::move(walls), std::move(templates)}) {}

World::World(WorldModel model) : model_(std::move(model)), pool_(std::max(1, model_.settings.threads)) {
  setIntegratorObject(makeIntegrator(model_.settings.integrator, model_.settings.eulerIterations));
  checkModel(model_.settings, model_.contact);
  if (model_.settings.plane.enabled) {
    const Vec3 n = model_.settings.plane.normal;
    require(n.allFinite() && n.norm() > 1e-12 && std::isfinite(model_.settings.plane.offset),
            "the 2D plane needs a non-zero normal and a finite offset");
    if (std::abs(n.squaredNorm() - 1.0) > 1e-15) model_.settings.plane.normal = n.normalized();
  }
  requireOwnForcesSupport(model_.settings.integrator, model_.settings, model_.contact);
  requireMeshWallSupport(evaluatesOwnForces(model_.settings.integrator));
  state_.wallForce.assign(model_.walls.size(), Vec3::Zero());
  state_.wallImpulse.assign(model_.walls.size(), Vec3::Zero());
  const double minRadius = minPebbleRadius();
  state_.softening = resolveSoftening(model_.settings.fields.softening, minRadius);
  neighbors_.setSkin(resolvedSkin(model_.settings.skin, model_.templates));
  // Periodic boundaries (Meland et al., Cluster integration method): long enough for one image per body pair,
  // walls and the 2D plane uniform along the periodic axes (PeriodicChecks.hpp).
  const std::string problem = periodicProblem(model_.settings.periodic, model_.templates, model_.walls,
                                              model_.settings.plane, neighbors_.skin());
  require(problem.empty(), problem);
}

World::~World() = default;

void World::setIntegratorObject(std::unique_ptr<Integrator> integrator) {
  integrator_ = std::move(integrator);
  forceStage_ = dynamic_cast<ForceStageIntegrator*>(integrator_.get());
  selfForced_ = dynamic_cast<cim::SelfForcedIntegrator*>(integrator_.get());
  CLUMPLAB_ASSERT((forceStage_ == nullptr) != (selfForced_ == nullptr),
                  "an integrator is of exactly one kind");
}

void World::requireMeshWallSupport(bool ownForces) const {
  const bool capsules =
      std::any_of(model_.templates.begin(), model_.templates.end(), [](const TemplatePtr& t) {
        return std::any_of(t->pebbles.begin(), t->pebbles.end(),
                           [](const Pebble& p) { return !p.isSphere(); });
      });
  const std::string problem = meshWallProblem(model_.walls, capsules, ownForces);
  require(problem.empty(), problem);
}

double World::minPebbleRadius() const {
  double r = std::numeric_limits<double>::infinity();
  for (const TemplatePtr& t : model_.templates) r = std::min(r, t->minPebbleRadius);
  return r;
}

std::uint32_t World::addTemplate(TemplatePtr t) {
  if (!t) throw std::invalid_argument("no template to add");
  for (std::size_t i = 0; i < model_.templates.size(); ++i) {
    if (model_.templates[i] == t) return static_cast<std::uint32_t>(i);
  }
  if (t->pebbles.empty() || !(t->mass > 0.0)) {
    throw std::invalid_argument("template '" + t->name + "' has no pebbles or no mass");
  }
  const std::string tooLarge = periodicLengthProblem(model_.settings.periodic, {t}, neighbors_.skin());
  require(tooLarge.empty(), tooLarge);
  model_.templates.push_back(std::move(t));
  try {
    requireMeshWallSupport(evaluatesOwnForces(model_.settings.integrator));
  } catch (const std::invalid_argument&) {
    model_.templates.pop_back();
    throw;
  }
  return static_cast<std::uint32_t>(model_.templates.size() - 1);
}

void World::reserve(std::size_t bodies, std::size_t pebbles) {
  const std::size_t b = state_.bodies.size() + bodies, p = state_.pebbles.position.size() + pebbles;
  state_.bodies.reserve(b);
  state_.dissipative.force.reserve(b);
  state_.dissipative.torque.reserve(b);
  state_.wrapDisplacement.reserve(b);
  state_.bodyFirstPebble.reserve(b);
  state_.pebbles.radius.reserve(p);
  state_.pebbles.body.reserve(p);
  state_.pebbles.position.reserve(p);
}

std::uint32_t World::addBody(const BodyInit& init, const std::optional<PointProperties>& given) {
  if (init.templateIndex >= model_.templates.size()) throw std::out_of_range("unknown template index");
  const ClumpTemplate& t = *model_.templates[init.templateIndex];
  const PointProperties point = given.value_or(t.point);
  checkPointProperties(point);
  requireOwnForcesSupport(model_.settings.integrator, point);
  requireBlockedSupport(init.blocked);
  // The automatic skin follows the finest pebbles that join: one resolved from coarse pebbles alone
  // would pair each fine pebble with every pebble of the fine clumps around it (twenty 3 mm wing
  // nuts beside a 1 m cube: 17 million pairs, issue 37). It only shrinks; the new pebbles make the
  // next evaluation rebuild the list.
  if (!(model_.settings.skin > 0.0)) {
    neighbors_.setSkin(
        std::min(neighbors_.skin(), resolvedSkin(0.0, {model_.templates[init.templateIndex]})));
  }
  const auto index = static_cast<std::uint32_t>(state_.bodies.size());
  state_.bodies.templateIndex.push_back(init.templateIndex);
  state_.bodies.mass.push_back(t.mass);
  state_.bodies.moments.push_back(t.principalMoments);
  state_.bodies.position.push_back(init.position);
  state_.bodies.orientation.push_back(unitQuaternion(init.orientation));
  state_.bodies.velocity.push_back(init.velocity);
  state_.bodies.angularVelocity.push_back(init.angularVelocity);
  state_.bodies.force.push_back(Vec3::Zero());
  state_.bodies.torque.push_back(Vec3::Zero());
  state_.bodies.point.push_back(point);
  state_.bodies.blocked.push_back(init.blocked);
  state_.dissipative.force.push_back(Vec3::Zero());
  state_.dissipative.torque.push_back(Vec3::Zero());
  state_.wrapDisplacement.push_back(Vec3::Zero());
  state_.bodyFirstPebble.push_back(static_cast<std::uint32_t>(state_.pebbles.position.size()));
  const bool capsules =
      std::any_of(t.pebbles.begin(), t.pebbles.end(), [](const Pebble& p) { return !p.isSphere(); });
  const bool withCapsules = capsules || state_.pebbles.hasCapsules();
  if (capsules && !state_.pebbles.hasCapsules()) {
    // The first spherocylinder: from now on every pebble carries an axis and a half length.
    state_.pebbles.axis.assign(state_.pebbles.position.size(), Vec3::UnitZ());
    state_.pebbles.halfLength.assign(state_.pebbles.position.size(), 0.0);
  }
  for (const Pebble& p : t.pebbles) {
    state_.pebbles.radius.push_back(p.radius);
    state_.pebbles.body.push_back(index);
    state_.pebbles.position.push_back(Vec3::Zero());
    if (withCapsules) {
      state_.pebbles.axis.push_back(p.axis);
      state_.pebbles.halfLength.push_back(p.halfLength);
    }
  }
  bodiesChanged(index);  // the new body alone: the others are already confined and inside the box
  state_.integratorHistory.addBody(state_.bodies);  // the others keep their history
  return index;
}

void World::requireBlockedSupport(std::uint8_t blocked) const {
  if (blocked == 0) return;
  require(
      !evaluatesOwnForces(model_.settings.integrator),
      "blocked degrees of freedom are not supported by the cim and rk4 integrators; use leapfrog, midpoint "
      "or splitting");
  require(!model_.settings.plane.enabled || (blocked & blocked_dofs::kRotations) == 0,
          "blocked rotations cannot be combined with the 2D mode (which already turns bodies about its "
          "normal only); block translations only");
}

void World::stateChanged() {
  bodiesChanged();
  state_.integratorHistory.forget();
}

void World::notePointProperties(std::size_t first) {
  if (first == 0) pointProperties_ = false;
  const std::vector<PointProperties>& point = state_.bodies.point;
  for (std::size_t b = first; b < point.size() && !pointProperties_; ++b) pointProperties_ = point[b].any();
}

void World::bodiesChanged(std::size_t first) {
  notePointProperties(first);
  energyWatch_.reset();  // an edit of the state changes the energy without booking it
  projectStateOnPlane(model_.settings.plane, state_.bodies, first);
  confineBlockedState(state_.bodies, first);
  wrapIntoBox(first);
  state_.forcesCurrent = false;
  workBooking_.forget();
}

void World::removeBody(std::uint32_t body) {
  if (body >= state_.bodies.size()) throw std::out_of_range("no body " + std::to_string(body));
  const std::uint32_t first = state_.bodyFirstPebble[body];
  const std::uint32_t end = body + 1 < state_.bodies.size()
                                ? state_.bodyFirstPebble[body + 1]
                                : static_cast<std::uint32_t>(state_.pebbles.position.size());
  const std::uint32_t count = end - first;
  // The forces stay current: the partners of the removed body lose exactly its contacts' share.
  if (state_.forcesCurrent) withdrawContactsOf(body);
  state_.contacts.removeBody(body);
  state_.meshContacts.removeBody(body, first, count);
  // cim / rk4 contacts carry no bodies: the next step finds them again.
  state_.ownContactPoints.clear();
  if (selfForced_) state_.pebbleContacts = state_.wallContacts = 0;
  neighbors_.removePebbles(first, count);
  state_.contactHistory.removePebbles(first, count);
  state_.integratorHistory.removeBody(body);
  state_.bodies.erase(body);
  notePointProperties(0);
  workBooking_.forget();
  energyWatch_.reset();  // its energy leaves without being booked
  state_.dissipative.force.erase(state_.dissipative.force.begin() + body);
  state_.dissipative.torque.erase(state_.dissipative.torque.begin() + body);
  state_.wrapDisplacement.erase(state_.wrapDisplacement.begin() + body);

  const auto pebbleRange = [&](auto& v) {
    v.erase(v.begin() + static_cast<std::ptrdiff_t>(first), v.begin() + static_cast<std::ptrdiff_t>(end));
  };
  pebbleRange(state_.pebbles.position);
  pebbleRange(state_.pebbles.radius);
  pebbleRange(state_.pebbles.body);
  if (state_.pebbles.hasCapsules()) {
    pebbleRange(state_.pebbles.axis);
    pebbleRange(state_.pebbles.halfLength);
  }
  for (std::uint32_t& owner : state_.pebbles.body) owner -= owner > body ? 1 : 0;
  state_.bodyFirstPebble.erase(state_.bodyFirstPebble.begin() + body);
  for (std::size_t b = body; b < state_.bodyFirstPebble.size(); ++b) state_.bodyFirstPebble[b] -= count;

  const auto removed = std::lower_bound(state_.loads.begin(), state_.loads.end(), body,
                                        [](const ExternalLoad& l, std::uint32_t b) { return l.body < b; });
  if (removed != state_.loads.end() && removed->body == body) {
    if (state_.loadTorque.size() == state_.loads.size()) {  // else the next evaluation rebuilds it
      state_.loadTorque.erase(state_.loadTorque.begin() + (removed - state_.loads.begin()));
    }
    state_.loads.erase(removed);
  }
  for (ExternalLoad& load : state_.loads) load.body -= load.body > body ? 1 : 0;

  state_.pebbleContacts = state_.wallContacts = 0;
  for (std::size_t c = 0; c < state_.contacts.chunkCount(); ++c) {
    state_.pebbleContacts += state_.contacts.chunks()[c].pebbleContacts;
    state_.wallContacts += state_.contacts.chunks()[c].wallContacts;
  }
  for (std::size_t c = 0; c < state_.meshContacts.chunkCount(); ++c)
    state_.wallContacts += state_.meshContacts.chunks()[c].wallContacts;
  if (state_.worstBody == body) state_.worstOverlapRatio = 0.0;
  state_.worstBody -= state_.worstBody > body ? 1 : 0;
  if constexpr (kAssertions) checkInvariants();
}

void World::withdrawContactsOf(std::uint32_t body) {
  // The reverse of addContactForces for the contacts between `body` and other bodies (positions
  // have not moved since the evaluation: integrators evaluate forces after their last drift).
  for (std::size_t c = 0; c < state_.contacts.chunkCount(); ++c) {
    for (const ContactRecord& r : state_.contacts.chunks()[c].records) {
      if (r.bodyB == kWallBody || (r.bodyA != body && r.bodyB != body)) continue;
      const std::uint32_t partner = r.bodyA == body ? r.bodyB : r.bodyA;
      const double sign = r.bodyA == body ? -1.0 : 1.0;  // the partner gets -force if it is B
      // B's arm from its image nearest A (addContactForces, ContactSums.hpp).
      const Vec3 shift = partner == r.bodyB
                             ? bodyImageShift(model_.settings.periodic, state_.bodies.position[r.bodyA],
                                              state_.bodies.position[r.bodyB])
                             : Vec3::Zero();
      const Vec3 arm = r.point - (state_.bodies.position[partner] + shift);
      state_.bodies.force[partner] -= sign * r.force;
      state_.bodies.torque[partner] -= arm.cross(sign * r.force);
      state_.dissipative.force[partner] -= sign * r.dissipativeForce;
      state_.dissipative.torque[partner] -= arm.cross(sign * r.dissipativeForce);
    }
  }
}

void World::clearDivergence() {
  state_.divergence = Divergence{};
  energyWatch_.reset();
}

WorldCheckpoint World::checkpoint() const {
  return {model_, state_};
}

namespace {
// What a checkpoint of (model, state) holds [bytes], from the sizes alone: no copy is made.
std::size_t checkpointBytes(const WorldModel& model, const WorldState& state) {
  std::size_t n = sizeof(WorldCheckpoint) + elementBytes(model.templates) + elementBytes(model.walls);
  state.bodies.forEachArray([&n](const auto& v) { n += elementBytes(v); });
  const PebbleArrays& p = state.pebbles;
  n += elementBytes(state.bodyFirstPebble) + elementBytes(p.position) + elementBytes(p.radius) +
       elementBytes(p.body) + elementBytes(p.axis) + elementBytes(p.halfLength);
  n += state.contactHistory.heldBytes();  // a copy holds the held entries only
  // Chunks as a copy holds them: records, no scratch (ContactChunk::nearPairs).
  for (const ContactChunk& chunk : state.contacts.chunks()) n += sizeof(chunk) + elementBytes(chunk.records);
  n += state.meshContacts.memoryBytes();
  n += elementBytes(state.wallForce) + elementBytes(state.wallImpulse);
  n += elementBytes(state.loads) + elementBytes(state.dissipative.force) +
       elementBytes(state.dissipative.torque) + elementBytes(state.loadTorque) +
       elementBytes(state.wrapDisplacement) + elementBytes(state.ownContactPoints) +
       elementBytes(state.inlets);
  for (const Inlet& inlet : state.inlets) {
    const InletSettings& s = inlet.settings();
    n += elementBytes(s.templates) + elementBytes(s.weights) + elementBytes(s.massFractions);
  }
  n += state.integratorHistory.memoryBytes();
  return n;
}
}  // namespace

std::size_t WorldCheckpoint::memoryBytes() const {
  return checkpointBytes(model, state);
}

std::size_t World::checkpointBytes() const {
  return clumplab::checkpointBytes(model_, state_);
}

void World::restore(const WorldCheckpoint& c) {
  // Templates added since the checkpoint are kept (no restored body uses them).
  const std::vector<TemplatePtr>& saved = c.model.templates;
  const bool sameTemplates = saved.size() <= model_.templates.size() &&
                             std::equal(saved.begin(), saved.end(), model_.templates.begin());
  require(sameTemplates, "the checkpoint was made by another world (its templates differ)");
  const int threads = model_.settings.threads;  // the pool stays as it is; results do not depend on it
  std::vector<TemplatePtr> templates = std::move(model_.templates);
  model_ = c.model;
  model_.templates = std::move(templates);
  model_.settings.threads = threads;
  state_ = c.state;
  notePointProperties(0);
  // The lists afresh at the restored pebbles, carrying the held history over (with the skin in use:
  // any skin lists every pair that can touch, and results do not depend on which others it lists).
  neighbors_.invalidate();
  neighbors_.rebuild(broadPhaseInput(), state_.contactHistory, &pool_);
  setIntegratorObject(makeIntegrator(model_.settings.integrator, model_.settings.eulerIterations));
  workBooking_.forget();  // recomputed from the restored state, to the same bits
  energyWatch_.reset();
  if constexpr (kAssertions) checkInvariants();
}

}  // namespace clumplab
