#include "core/World.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/BlockedDofs.hpp"
#include "core/PeriodicChecks.hpp"

#include "WorldOwnForces.hpp"

namespace clumplab {

namespace {
using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

void checkDamping(double linear, double angular) {
  require(std::isfinite(linear) && linear >= 0.0, "linear damping must be finite and >= 0 [1/s]");
  require(std::isfinite(angular) && angular >= 0.0, "angular damping must be finite and >= 0 [1/s]");
}

// The ranges the scene loader enforces, for models set from code (the GUI).
void checkContactModel(const ContactModel& c) {
  const auto inRange = [](double v, double lo, double hi) { return std::isfinite(v) && v >= lo && v <= hi; };
  const double inf = std::numeric_limits<double>::infinity();
  if (c.kind == ContactModel::Kind::Linear) {
    const LinearContactParameters& p = c.linear;
    require(std::isfinite(p.stiffness) && p.stiffness > 0.0, "contact stiffness must be positive");
    require(inRange(p.restitution, 0.0, 1.0), "restitution must lie in [0, 1]");
    require(inRange(p.damping, 0.0, inf), "normal damping must be >= 0");
    require(inRange(p.friction, 0.0, inf), "friction must be >= 0");
    require(inRange(p.tangentialStiffnessRatio, 0.0, inf), "tangential stiffness ratio must be >= 0");
    require(inRange(p.tangentialDamping, 0.0, inf), "tangential damping must be >= 0");
  } else if (c.kind == ContactModel::Kind::HertzMindlin) {
    const HertzMindlinContactParameters& p = c.hertzMindlin;
    require(std::isfinite(p.youngsModulus) && p.youngsModulus > 0.0, "Young's modulus must be positive");
    // nu = 0.5 leaves E* finite but is no solid a DEM code models; below -1 the shear modulus flips.
    require(std::isfinite(p.poisson) && p.poisson >= 0.0 && p.poisson < 0.5,
            "Poisson's ratio must lie in [0, 0.5)");
    require(inRange(p.restitution, 0.0, 1.0), "restitution must lie in [0, 1]");
    require(inRange(p.friction, 0.0, inf), "friction must be >= 0");
  } else {
    const HertzContactParameters& p = c.hertz;
    require(std::isfinite(p.young) && p.young > 0.0, "Young's modulus must be positive");
    require(inRange(p.poisson, 0.0, 0.5), "Poisson's ratio must lie in [0, 0.5]");
    require(inRange(p.restitutionSquared, 0.0, 1.0), "restitution_squared must lie in [0, 1]");
    require(inRange(p.friction, 0.0, inf), "friction must be >= 0");
    require(std::isfinite(p.regularizingVelocity) && p.regularizingVelocity > 0.0,
            "regularizing velocity must be positive");
  }
}

void checkFields(const FieldSettings& f) {
  require(f.electric.allFinite() && f.magnetic.allFinite(), "electric and magnetic fields must be finite");
  require(std::isfinite(f.gravitationalConstant) && f.gravitationalConstant >= 0.0,
          "the gravitational constant must be finite and >= 0");
  require(std::isfinite(f.softening) && f.softening >= 0.0, "the softening length must be finite and >= 0");
}

void checkPointProperties(const PointProperties& p) {
  require(std::isfinite(p.charge) && p.electricDipole.allFinite() && p.magneticDipole.allFinite(),
          "charge and dipoles must be finite");
}

// The automatic softening: a tenth of the smallest pebble radius (centres of mass closer than that
// belong to pebbles overlapping far beyond any contact's range).
double resolveSoftening(double softening, double minPebbleRadius) {
  if (softening > 0.0) return softening;
  return std::isfinite(minPebbleRadius) ? 0.1 * minPebbleRadius : 1e-4;
}
}  // namespace

World::World(const WorldSettings& settings, const ContactModel& contact, std::vector<Wall> walls,
             std::vector<TemplatePtr> templates)
    : settings_(settings),
      contact_(contact),
      walls_(std::move(walls)),
      templates_(std::move(templates)),
      pool_(std::max(1, settings.threads)),
      integrator_(makeIntegrator(settings.integrator, settings.eulerIterations)) {
  if (!(settings_.timeStep > 0.0)) throw std::invalid_argument("time step must be positive");
  checkDamping(settings_.linearDamping, settings_.angularDamping);
  checkContactModel(contact_);
  checkFields(settings_.fields);
  if (settings_.plane.enabled) {
    const Vec3 n = settings_.plane.normal;
    require(n.allFinite() && n.norm() > 1e-12 && std::isfinite(settings_.plane.offset),
            "the 2D plane needs a non-zero normal and a finite offset");
    if (std::abs(n.squaredNorm() - 1.0) > 1e-15) settings_.plane.normal = n.normalized();
  }
  requireOwnForcesSupport(settings_.integrator, settings_, contact_);
  requireMeshWallSupport(evaluatesOwnForces(settings_.integrator));
  wallForce_.assign(walls_.size(), Vec3::Zero());
  wallImpulse_.assign(walls_.size(), Vec3::Zero());
  const double minRadius = minPebbleRadius();
  softening_ = resolveSoftening(settings_.fields.softening, minRadius);
  neighbors_.setSkin(resolvedSkin(settings_.skin, templates_));
  // Periodic boundaries (seed 004): long enough for one image per body pair, walls and the 2D plane
  // uniform along the periodic axes (PeriodicChecks.hpp).
  const std::string problem =
      periodicProblem(settings_.periodic, templates_, walls_, settings_.plane, neighbors_.skin());
  require(problem.empty(), problem);
}

World::~World() = default;

void World::requireMeshWallSupport(bool ownForces) const {
  const bool capsules = std::any_of(templates_.begin(), templates_.end(), [](const TemplatePtr& t) {
    return std::any_of(t->pebbles.begin(), t->pebbles.end(), [](const Pebble& p) { return !p.isSphere(); });
  });
  const std::string problem = meshWallProblem(walls_, capsules, ownForces);
  require(problem.empty(), problem);
}

double World::minPebbleRadius() const {
  double r = std::numeric_limits<double>::infinity();
  for (const TemplatePtr& t : templates_) r = std::min(r, t->minPebbleRadius);
  return r;
}

std::uint32_t World::addTemplate(TemplatePtr t) {
  if (!t) throw std::invalid_argument("no template to add");
  for (std::size_t i = 0; i < templates_.size(); ++i) {
    if (templates_[i] == t) return static_cast<std::uint32_t>(i);
  }
  if (t->pebbles.empty() || !(t->mass > 0.0)) {
    throw std::invalid_argument("template '" + t->name + "' has no pebbles or no mass");
  }
  const std::string tooLarge = periodicLengthProblem(settings_.periodic, {t}, neighbors_.skin());
  require(tooLarge.empty(), tooLarge);
  templates_.push_back(std::move(t));
  try {
    requireMeshWallSupport(evaluatesOwnForces(settings_.integrator));
  } catch (const std::invalid_argument&) {
    templates_.pop_back();
    throw;
  }
  return static_cast<std::uint32_t>(templates_.size() - 1);
}

std::uint32_t World::addBody(const BodyInit& init, const std::optional<PointProperties>& given) {
  if (init.templateIndex >= templates_.size()) throw std::out_of_range("unknown template index");
  const ClumpTemplate& t = *templates_[init.templateIndex];
  const PointProperties point = given.value_or(t.point);
  checkPointProperties(point);
  requireOwnForcesSupport(settings_.integrator, point);
  requireBlockedSupport(init.blocked);
  const auto index = static_cast<std::uint32_t>(bodies_.size());
  bodies_.templateIndex.push_back(init.templateIndex);
  bodies_.mass.push_back(t.mass);
  bodies_.moments.push_back(t.principalMoments);
  bodies_.position.push_back(init.position);
  bodies_.orientation.push_back(unitQuaternion(init.orientation));
  bodies_.velocity.push_back(init.velocity);
  bodies_.angularVelocity.push_back(init.angularVelocity);
  bodies_.force.push_back(Vec3::Zero());
  bodies_.torque.push_back(Vec3::Zero());
  bodies_.point.push_back(point);
  bodies_.blocked.push_back(init.blocked);
  dissipativeForce_.push_back(Vec3::Zero());
  dissipativeTorque_.push_back(Vec3::Zero());
  wrapDisplacement_.push_back(Vec3::Zero());
  bodyFirstPebble_.push_back(static_cast<std::uint32_t>(pebbleLocal_.size()));
  const bool capsules =
      std::any_of(t.pebbles.begin(), t.pebbles.end(), [](const Pebble& p) { return !p.isSphere(); });
  const bool withCapsules = capsules || pebbles_.hasCapsules();
  if (capsules && !pebbles_.hasCapsules()) {
    // The first spherocylinder: from now on every pebble carries an axis and a half length.
    pebbleAxisLocal_.assign(pebbleLocal_.size(), Vec3::UnitZ());
    pebbles_.axis.assign(pebbleLocal_.size(), Vec3::UnitZ());
    pebbles_.halfLength.assign(pebbleLocal_.size(), 0.0);
  }
  for (const Pebble& p : t.pebbles) {
    pebbleLocal_.push_back(p.center);
    pebbles_.radius.push_back(p.radius);
    pebbles_.body.push_back(index);
    pebbles_.position.push_back(Vec3::Zero());
    if (withCapsules) {
      pebbleAxisLocal_.push_back(p.axis);
      pebbles_.axis.push_back(p.axis);
      pebbles_.halfLength.push_back(p.halfLength);
    }
  }
  bodiesChanged();
  integrator_->addBody(bodies_);  // the others keep their history
  return index;
}

void World::requireBlockedSupport(std::uint8_t blocked) const {
  if (blocked == 0) return;
  require(
      !evaluatesOwnForces(settings_.integrator),
      "blocked degrees of freedom are not supported by the cim and rk4 integrators; use leapfrog, midpoint "
      "or splitting");
  require(!settings_.plane.enabled || (blocked & blocked_dofs::kRotations) == 0,
          "blocked rotations cannot be combined with the 2D mode (which already turns bodies about its "
          "normal only); block translations only");
}

void World::stateChanged() {
  bodiesChanged();
  integrator_->reset();
}

void World::bodiesChanged() {
  energyWatch_.reset();  // an edit of the state changes the energy without booking it
  projectStateOnPlane();
  confineBlockedState();
  wrapIntoBox();
  forcesCurrent_ = false;
  lastPowersCurrent_ = false;
}

namespace {
constexpr std::size_t kBodyChunk = 128;  // bodies per parallel work item

// Body-frame pebble data and the world arrays placePebbles fills.
struct PebblePlacement {
  const std::vector<std::uint32_t>& bodyFirstPebble;
  const std::vector<Vec3>& local;      // centres, body frame
  const std::vector<Vec3>& axisLocal;  // shaft axes, body frame (empty without spherocylinders)
  PebbleArrays& world;
};

// World positions (and, with kCapsules, shaft axes) of the pebbles of bodies [begin, end). For a
// body b with `visitBody(b)` true, `visit(p)` runs after each of its pebbles p is placed.
template <bool kCapsules, class VisitBody, class Visit>
void placePebbles(const BodyState& bodies, const PebblePlacement& pebbles, std::size_t begin, std::size_t end,
                  VisitBody&& visitBody, Visit&& visit) {
  const std::size_t n = bodies.size();
  for (std::size_t b = begin; b < end; ++b) {
    const Mat3 r = bodies.orientation[b].toRotationMatrix();
    const Vec3 x = bodies.position[b];
    const std::uint32_t first = pebbles.bodyFirstPebble[b];
    const std::uint32_t last =
        b + 1 < n ? pebbles.bodyFirstPebble[b + 1] : static_cast<std::uint32_t>(pebbles.local.size());
    for (std::uint32_t p = first; p < last; ++p) {
      pebbles.world.position[p] = x + r * pebbles.local[p];
      if constexpr (kCapsules) pebbles.world.axis[p] = r * pebbles.axisLocal[p];
    }
    if (visitBody(b)) {
      for (std::uint32_t p = first; p < last; ++p) visit(p);
    }
  }
}

template <class VisitBody, class Visit>
void placePebbles(const BodyState& bodies, const PebblePlacement& pebbles, std::size_t begin, std::size_t end,
                  VisitBody&& visitBody, Visit&& visit) {
  if (pebbles.world.hasCapsules()) {
    placePebbles<true>(bodies, pebbles, begin, end, visitBody, visit);
  } else {
    placePebbles<false>(bodies, pebbles, begin, end, visitBody, visit);
  }
}
}  // namespace

void World::updatePebblePositions() {
  const std::size_t n = bodies_.size();
  pool_.run((n + kBodyChunk - 1) / kBodyChunk, [&](std::size_t chunk) {
    placePebbles(
        bodies_, {bodyFirstPebble_, pebbleLocal_, pebbleAxisLocal_, pebbles_}, chunk * kBodyChunk,
        std::min(n, (chunk + 1) * kBodyChunk), [](std::size_t) { return false; }, [](std::uint32_t) {});
  });
}

BroadPhaseInput World::broadPhaseInput() const {
  return {
      pebbles_.position, pebbles_.radius,       pebbles_.halfLength, bodies_.position, bodies_.orientation,
      bodyFirstPebble_,  bodies_.templateIndex, templates_,          walls_,           settings_.periodic};
}

void World::computeForces(const DriftVelocities& drift) {
  evaluateForces(true, drift);
}

void World::refreshForces() {
  evaluateForces(false, {});
}

void World::appendContactPoints(std::vector<Vec3>& out) const {
  if (integrator_->ownsForces()) {
    out.insert(out.end(), ownContactPoints_.begin(), ownContactPoints_.end());
    return;
  }
  const auto append = [&](const std::vector<ContactChunk>& chunks, std::size_t count) {
    for (std::size_t c = 0; c < count; ++c) {
      for (const ContactRecord& r : chunks[c].records) out.push_back(r.point);
    }
  };
  append(contacts_.chunks(), contacts_.chunkCount());
  append(meshContacts_.chunks(), meshContacts_.chunkCount());
}

void World::evaluateForces(bool advance, const DriftVelocities& drift) {
  // Contact history advances from the last evaluation to this one: dt for evaluations a step apart,
  // dt / 2 for a midpoint evaluation after a refresh (or the start), 0 for a refresh.
  const double f = integrator_->forceTimeFraction();
  const double historyStep = advance ? f * settings_.timeStep + historyLag_ : 0.0;
  historyLag_ = advance ? (1.0 - f) * settings_.timeStep : 0.0;
  lastPowersCurrent_ = false;
  // Pebble world positions from the body poses (seed 001 §4), and whether the Verlet list holds.
  auto t0 = Clock::now();
  const bool moved = placePebblesAndCheckList();
  addStageTime(Stage::Pebbles, secondsSince(t0));

  // Broad phase.
  t0 = Clock::now();
  if (moved) neighbors_.rebuild(broadPhaseInput(), &pool_);
  addStageTime(Stage::BroadPhase, secondsSince(t0));

  // Narrow phase and contact laws; tangential springs advance by historyStep.
  t0 = Clock::now();
  contacts_.compute(contact_, neighbors_, pebbles_, bodies_, walls_, historyStep, pool_, settings_.periodic,
                    drift);
  // Mesh walls, posed where they are at the evaluation (a refresh evaluates the current state).
  const double evaluationTime = advance ? time_ + f * settings_.timeStep : time_;
  meshContacts_.compute(contact_, pebbles_, bodies_, walls_, evaluationTime, historyStep, pool_, drift);
  addStageTime(Stage::Contacts, secondsSince(t0));

  // Fields (gravity, global damping, external loads), then the contact sums; energy bookkeeping.
  t0 = Clock::now();
  applyBodyForces();
  dissipated_ -= addContactForces();  // energy the tangential springs lost (slip, release)
  applyFieldForces();
  projectForcesOnPlane();
  applyBlockedForces();
  forcesCurrent_ = true;
  addStageTime(Stage::Reduce, secondsSince(t0));
}

bool World::placePebblesAndCheckList() {
  // Pebble positions, fused with the broad phase's check of how far each pebble moved.
  const std::size_t bodyCount = bodies_.size();
  if (!neighbors_.builtFor(pebbles_.position.size())) {  // no list for these pebbles yet: build one
    updatePebblePositions();
    return true;
  }
  std::atomic<bool> moved{false};
  pool_.run((bodyCount + kBodyChunk - 1) / kBodyChunk, [&](std::size_t chunk) {
    bool movedHere = false;
    // Pebble by pebble only when the body's own motion cannot vouch for them all, and no pebble of
    // this chunk has already asked for a rebuild.
    const auto testPebbles = [&](std::size_t b) {
      return !movedHere && !neighbors_.bodyWithinLimits(b, bodyFirstPebble_[b], bodies_.position[b],
                                                        bodies_.orientation[b]);
    };
    placePebbles(bodies_, {bodyFirstPebble_, pebbleLocal_, pebbleAxisLocal_, pebbles_}, chunk * kBodyChunk,
                 std::min(bodyCount, (chunk + 1) * kBodyChunk), testPebbles,
                 [&](std::uint32_t p) { movedHere |= neighbors_.movedTooFar(p, pebbles_.position[p]); });
    if (movedHere) moved.store(true, std::memory_order_relaxed);
  });
  return moved.load(std::memory_order_relaxed);
}

void World::applyBodyForces() {
  // Seed 002: gravity acts on the clump node (centre of mass) only.
  const std::size_t n = bodies_.size();
  dissipativeForce_.resize(n);
  dissipativeTorque_.resize(n);
  for (std::size_t b = 0; b < n; ++b) {
    bodies_.force[b] = bodies_.mass[b] * settings_.gravity;
    bodies_.torque[b].setZero();
    dissipativeForce_[b].setZero();
    dissipativeTorque_[b].setZero();
  }
  // Global damping: F = -gamma m v and T = -gamma_rot I omega (I omega is the spin angular
  // momentum), at the velocities the integrator evaluates forces with; step() books their work.
  const double gamma = settings_.linearDamping, gammaRot = settings_.angularDamping;
  if (gamma > 0.0 || gammaRot > 0.0) {
    for (std::size_t b = 0; b < n; ++b) {
      const Vec3 momentum = bodies_.mass[b] * bodies_.velocity[b];
      dissipativeForce_[b] = -(gamma * momentum);
      dissipativeTorque_[b] = -(gammaRot * bodies_.spinAngularMomentum(b));
      bodies_.force[b] += dissipativeForce_[b];
      bodies_.torque[b] += dissipativeTorque_[b];
    }
  }
  // External loads (user input: their work is not dissipation; step() books it as external work).
  loadTorque_.resize(externalLoads_.size());
  for (std::size_t i = 0; i < externalLoads_.size(); ++i) {
    const ExternalLoad& load = externalLoads_[i];
    loadTorque_[i] = (load.point - bodies_.position[load.body]).cross(load.force);
    bodies_.force[load.body] += load.force;
    bodies_.torque[load.body] += loadTorque_[i];
  }
}

double World::addContactForces() {
  // Seed 002 (forceTorqueFromMembers): F = sum F_i, T = sum (x_i - x_c) x F_i, in chunk order; the
  // same sums of the dissipative parts. Across a periodic face B's lever arm starts at its image
  // nearest A (ContactForces.hpp), which the same shift as the contact stage's finds.
  pebbleContacts_ = wallContacts_ = 0;
  worstOverlapRatio_ = 0.0;
  double springEnergyChange = 0.0;
  wallForce_.assign(walls_.size(), Vec3::Zero());
  const PeriodicBox& periodic = settings_.periodic;
  const auto addRecords = [&](const ContactChunk& chunk, auto withPeriodic) {
    for (const ContactRecord& r : chunk.records) {
      const Vec3 armA = r.point - bodies_.position[r.bodyA];
      bodies_.force[r.bodyA] += r.force;
      bodies_.torque[r.bodyA] += armA.cross(r.force);
      dissipativeForce_[r.bodyA] += r.dissipativeForce;
      dissipativeTorque_[r.bodyA] += armA.cross(r.dissipativeForce);
      if (r.bodyB != kWallBody) {
        Vec3 armB;
        if constexpr (decltype(withPeriodic)::value) {
          const Vec3& centerB = bodies_.position[r.bodyB];
          armB = r.point - (centerB + bodyImageShift(periodic, bodies_.position[r.bodyA], centerB));
        } else {
          armB = r.point - bodies_.position[r.bodyB];
        }
        bodies_.force[r.bodyB] -= r.force;
        bodies_.torque[r.bodyB] -= armB.cross(r.force);
        dissipativeForce_[r.bodyB] -= r.dissipativeForce;
        dissipativeTorque_[r.bodyB] -= armB.cross(r.dissipativeForce);
      } else {
        wallForce_[r.wall] -= r.force;  // the reaction on the wall
      }
    }
  };
  const std::size_t meshChunks = meshContacts_.chunkCount();
  for (std::size_t c = 0; c < contacts_.chunkCount() + meshChunks; ++c) {
    const ContactChunk& chunk = c < contacts_.chunkCount()
                                    ? contacts_.chunks()[c]
                                    : meshContacts_.chunks()[c - contacts_.chunkCount()];
    if (periodic.any()) {
      addRecords(chunk, std::true_type{});
    } else {
      addRecords(chunk, std::false_type{});
    }
    springEnergyChange += chunk.springEnergyChange;
    pebbleContacts_ += chunk.pebbleContacts;
    wallContacts_ += chunk.wallContacts;
    if (chunk.worstOverlapRatio > worstOverlapRatio_) {
      worstOverlapRatio_ = chunk.worstOverlapRatio;
      worstBody_ = chunk.worstBody;
    }
  }
  return springEnergyChange;
}

void World::applyFieldForces() {
  // Seed 001 §1 (v), (vi): fields and point interactions at the centres of mass (FieldForces.cpp).
  if (!hasPointProperties(bodies_)) return;
  addFieldForces(settings_.fields, softening_, bodies_, bodies_.force, bodies_.torque, settings_.periodic);
  // Integrators that take forces at a mid-step state (Mutze's midpoint, seed 001 §7) get q v x B
  // from the evaluation; kick-drift-kick ones rotate the velocities in their kicks instead.
  if (!integrator_->kicksLorentzForce()) {
    const Vec3 b = actingMagneticField();
    if (b != Vec3::Zero()) addLorentzForces(b, bodies_, bodies_.force);
  }
}

void World::projectForcesOnPlane() {
  // 2D mode: the plane's reaction cancels the out-of-plane force and the torque across n.
  const PlaneConstraint& plane = settings_.plane;
  if (!plane.enabled) return;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    bodies_.force[b] = plane.inPlane(bodies_.force[b]);
    bodies_.torque[b] = plane.alongNormal(bodies_.torque[b]);
    dissipativeForce_[b] = plane.inPlane(dissipativeForce_[b]);
    dissipativeTorque_[b] = plane.alongNormal(dissipativeTorque_[b]);
  }
}

void World::projectStateOnPlane() {
  const PlaneConstraint& plane = settings_.plane;
  if (!plane.enabled) return;
  for (std::size_t b = 0; b < bodies_.size(); ++b)
    plane.confine(bodies_.position[b], bodies_.velocity[b], bodies_.angularVelocity[b]);
}

void World::applyBlockedForces() {
  // The constraint takes the blocked force components; a body with blocked rotations keeps only the
  // torque about its free axes (BlockedDofs.hpp). The dissipative parts alike, for the bookkeeping.
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const std::uint8_t mask = bodies_.blocked[b];
    if (mask == 0) continue;
    for (int a = 0; a < 3; ++a) {
      if (mask & (1u << a)) bodies_.force[b][a] = dissipativeForce_[b][a] = 0.0;
    }
    if ((mask & blocked_dofs::kRotations) == 0) continue;
    const unsigned free = freeRotationAxes(mask);
    for (int a = 0; a < 3; ++a) {
      if ((free & (1u << a)) == 0) bodies_.torque[b][a] = dissipativeTorque_[b][a] = 0.0;
    }
  }
}

void World::confineBlockedState() {
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const std::uint8_t mask = bodies_.blocked[b];
    if (mask == 0) continue;
    for (int a = 0; a < 3; ++a) {
      if (mask & (1u << a)) bodies_.velocity[b][a] = 0.0;
    }
    if ((mask & blocked_dofs::kRotations) == 0) continue;
    const unsigned free = freeRotationAxes(mask);
    for (int a = 0; a < 3; ++a) {
      if ((free & (1u << a)) == 0) bodies_.angularVelocity[b][a] = 0.0;
    }
  }
}

Vec3 World::lorentzRotation(std::size_t b, double h) const {
  const double q = bodies_.point[b].charge;
  if (q == 0.0) return Vec3::Zero();
  return (q * h / (2.0 * bodies_.mass[b])) * actingMagneticField();
}

Vec3 World::actingMagneticField() const {
  // In 2D, v x B with B in the plane points along n and the plane takes it: only B's normal part acts.
  const Vec3& field = settings_.fields.magnetic;
  return settings_.plane.enabled ? settings_.plane.alongNormal(field) : field;
}

void World::addWallImpulses(double weight) {
  for (std::size_t w = 0; w < wallImpulse_.size(); ++w) wallImpulse_[w] += weight * wallForce_[w];
  // Moving mesh walls: the work of the contact forces at the surface velocity u, and the dissipation
  // at the relative velocity (the bodies' share, F_diss . v, is booked by powers()).
  wallWork_ += weight * meshContacts_.wallPower();
  dissipated_ += weight * meshContacts_.wallDissipativePower();
}

World::Powers World::powers(double startWeight) {
  // Sum over contacts of F_diss . w (w at the contact point, lever arms at the force time) is the
  // sum over bodies of F_diss . v + T_diss . omega: one pass over bodies, in fixed chunks summed in
  // chunk order (independent of the thread count).
  const bool interpolate = startWeight != 0.0;  // only then are the step-start velocities kept
  const auto velocity = [&](std::size_t b) -> Vec3 {
    const Vec3& v = bodies_.velocity[b];
    return interpolate ? Vec3(v + startWeight * (stepStartVelocity_[b] - v)) : v;
  };
  const auto angularVelocity = [&](std::size_t b) -> Vec3 {
    const Vec3& w = bodies_.angularVelocity[b];
    return interpolate ? Vec3(w + startWeight * (stepStartAngularVelocity_[b] - w)) : w;
  };
  const std::size_t n = bodies_.size();
  const std::size_t chunks = (n + kBodyChunk - 1) / kBodyChunk;
  powerChunks_.assign(chunks, 0.0);
  pool_.run(chunks, [&](std::size_t chunk) {
    double power = 0.0;
    const std::size_t end = std::min(n, (chunk + 1) * kBodyChunk);
    const std::size_t begin = chunk * kBodyChunk;
    if (interpolate) {
      for (std::size_t b = begin; b < end; ++b) {
        power += dissipativeForce_[b].dot(velocity(b)) + dissipativeTorque_[b].dot(angularVelocity(b));
      }
    } else {  // the same sums without the interpolation in the loop
      for (std::size_t b = begin; b < end; ++b) {
        power += dissipativeForce_[b].dot(bodies_.velocity[b]) +
                 dissipativeTorque_[b].dot(bodies_.angularVelocity[b]);
      }
    }
    powerChunks_[chunk] = power;
  });
  Powers p;
  for (const double chunkPower : powerChunks_) p.dissipative += chunkPower;
  for (std::size_t i = 0; i < externalLoads_.size(); ++i) {
    const std::uint32_t b = externalLoads_[i].body;
    p.external += externalLoads_[i].force.dot(velocity(b)) + loadTorque_[i].dot(angularVelocity(b));
  }
  return p;
}

bool World::step() {
  if (divergence_.happened) return false;
  if (!inlets_.empty()) insertFromInlets();  // stage "inlets": bodies due by now join (Inlet.hpp)
  if (integrator_->ownsForces()) return stepOwnForces();  // cim, rk4 (seed 004)
  // The integrate stage is the step's time less the force stages timed inside it.
  const auto forceSeconds = [this] {
    double sum = 0.0;
    for (int s = 0; s < static_cast<int>(Stage::Integrate); ++s) sum += stageSeconds_[s];
    return sum;
  };
  const double forcesBefore = forceSeconds();
  const auto t0 = Clock::now();
  // Dissipated work (seed 001 §8: total + dissipated is conserved). A contact law sees velocities
  // that are not the synchronous ones (the leapfrog's predicted v*, the midpoint's mid-step ones);
  // power x dt at those would not telescope with the kicks. Book instead the work that the kicks do with the
  // dissipative forces: the forces of an evaluation at t + f dt (Integrator::forceTimeFraction) act over the
  // interval of length dt centred there, on velocities that are the synchronous ones at t + f dt to second
  // order. For f = 1 (leapfrog, splitting) the last evaluation's forces act over the first half of this step
  // at v_n and the new ones over the second half at v_{n+1}; for f = 1/2 (midpoint) the new ones
  // act over the whole step at (v_n + v_{n+1}) / 2. For the translational kicks this is their work
  // exactly (up to terms that telescope, for f = 1); for the rotational ones to second order.
  // Forces refreshed at the start of a step (first step, edits) are booked for the half they act.
  const double dt = settings_.timeStep;
  const double f = integrator_->forceTimeFraction();
  const double carried = f - 0.5;  // share of this step driven by the last evaluation's forces
  if (carried > 0.0) {
    if (!forcesCurrent_) refreshForces();  // what the integrator would do first
    const auto tp = Clock::now();
    // The last step ended with these powers unless forces or velocities changed since.
    if (!lastPowersCurrent_) lastPowers_ = powers(0.0);
    dissipated_ -= carried * dt * lastPowers_.dissipative;
    externalWork_ += carried * dt * lastPowers_.external;
    addWallImpulses(carried * dt);  // the kick the last evaluation's wall forces give this step
    addStageTime(Stage::Reduce, secondsSince(tp));
  }
  if (f < 1.0) {
    stepStartVelocity_ = bodies_.velocity;
    stepStartAngularVelocity_ = bodies_.angularVelocity;
  }
  integrator_->step(*this);  // kicks and drifts around the force evaluation (evaluateForces)
  const auto tp = Clock::now();
  wrapIntoBox();  // periodic axes: centres of mass back into the primary box
  lastPowers_ = powers(1.0 - f);
  lastPowersCurrent_ = f == 1.0;  // then they are the powers at the synchronous end-of-step state
  dissipated_ -= (1.0 - carried) * dt * lastPowers_.dissipative;
  externalWork_ += (1.0 - carried) * dt * lastPowers_.external;
  addWallImpulses((1.0 - carried) * dt);
  addStageTime(Stage::Reduce, secondsSince(tp));
  advanceClock();
  addStageTime(Stage::Integrate, secondsSince(t0) - (forceSeconds() - forcesBefore));
  return checkDivergence();
}

void World::wrapIntoBox() {
  // Periodic axes: each centre of mass back into the primary box by whole box lengths. Everything
  // derived from the position moves with it by the same shift, so nothing needs recomputing and
  // the last forces stay current: the pebbles, the neighbour list's reference positions (a wrap
  // neither triggers nor hides a rebuild), external load points, and the contact points of the
  // body's contacts as body A (they lie next to A; as B the shift is found again from the centres).
  const PeriodicBox& box = settings_.periodic;
  if (!box.any()) return;
  std::vector<Vec3> shifts;  // per body, allocated once something wraps
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const Vec3 x = bodies_.position[b];
    const Vec3 inside = box.wrap(x);
    if (inside == x) continue;
    const Vec3 shift = inside - x;
    bodies_.position[b] = inside;
    wrapDisplacement_[b] += shift;
    const std::uint32_t first = bodyFirstPebble_[b];
    const std::uint32_t end =
        b + 1 < bodies_.size() ? bodyFirstPebble_[b + 1] : static_cast<std::uint32_t>(pebbleLocal_.size());
    for (std::uint32_t p = first; p < end; ++p) pebbles_.position[p] += shift;
    neighbors_.translatePebbles(first, end - first, shift);
    for (ExternalLoad& load : externalLoads_) {
      if (load.body == b) load.point += shift;
    }
    if (shifts.empty()) shifts.assign(bodies_.size(), Vec3::Zero());
    shifts[b] = shift;
  }
  if (!shifts.empty()) contacts_.translatePoints(shifts);
}

void World::advanceClock() {
  ++steps_;
  time_ = timeOrigin_ + static_cast<double>(steps_ - stepsAtOrigin_) * settings_.timeStep;
}

bool World::energyBlewUp() {
  if (steps_ % EnergyWatch::kEveryWorldSteps != 0) return false;
  const std::optional<EnergyReport> e = energyReport(false);
  if (!e) return false;  // the list needs a rebuild: the next step's sample
  blowUp_ = energyWatch_.observe(*e);
  if (!blowUp_) return false;
  std::uint32_t fastest = 0;  // the body with the most kinetic energy
  double most = -1.0;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const Vec3 wb = bodies_.bodyAngularVelocity(b);
    const double k =
        bodies_.mass[b] * bodies_.velocity[b].squaredNorm() + wb.dot(bodies_.moments[b].cwiseProduct(wb));
    if (k > most) {
      most = k;
      fastest = static_cast<std::uint32_t>(b);
    }
  }
  divergence_ = {true, fastest, time_, ""};
  return true;
}

bool World::checkDivergence() {
  // One running sum over the state is finite unless some entry is NaN or Inf; only then look for
  // the body (a finite overflow of the sum finds none and is not reported).
  double sum = 0.0;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    sum += bodies_.position[b].sum() + bodies_.velocity[b].sum() + bodies_.angularVelocity[b].sum() +
           bodies_.orientation[b].coeffs().sum();
  }
  for (std::size_t b = 0; !std::isfinite(sum) && b < bodies_.size(); ++b) {
    if (!bodies_.position[b].allFinite() || !bodies_.velocity[b].allFinite() ||
        !bodies_.angularVelocity[b].allFinite() || !bodies_.orientation[b].coeffs().allFinite()) {
      divergence_ = {true, static_cast<std::uint32_t>(b), time_, ""};
      break;
    }
  }
  const bool overlap = !divergence_.happened && worstOverlapRatio_ > 0.5;
  if (overlap) divergence_ = {true, worstBody_, time_, ""};
  const bool blowUp = !divergence_.happened && energyBlewUp();
  if (!divergence_.happened) return true;
  char what[300];
  if (blowUp) {
    std::snprintf(what, sizeof what,
                  "the energy (total + dissipated) grew by %.3g J since t = %.6g s, %.0f%% of the energy in "
                  "motion, which a stable run never does (body %u has the most kinetic energy)",
                  blowUp_->growth, blowUp_->since, 100.0 * blowUp_->share, divergence_.body);
  } else {
    std::snprintf(what, sizeof what, "body %u %s", divergence_.body,
                  overlap ? "overlaps a neighbour by more than half a pebble radius"
                          : "has a non-finite position or velocity");
  }
  char text[768];
  std::snprintf(text, sizeof text,
                "simulation diverged at t = %.6g s (step %llu): %s. The time step %.3g s is "
                "probably too large for the contact stiffness: the critical step is about %.3g s, "
                "a safe step about %.3g s.",
                time_, static_cast<unsigned long long>(steps_), what, settings_.timeStep, criticalTimeStep(),
                recommendedTimeStep());
  divergence_.message = text;
  return false;
}

void World::setTimeStep(double dt) {
  if (!(dt > 0.0) || !std::isfinite(dt)) throw std::invalid_argument("time step must be positive");
  timeOrigin_ = time_;
  stepsAtOrigin_ = steps_;
  settings_.timeStep = dt;
  // Integrator history (accelerations, body-frame angular velocity) does not depend on dt.
  forcesChanged();
}

void World::setGravity(const Vec3& gravity) {
  require(gravity.allFinite(), "gravity must be finite");
  settings_.gravity = gravity;
  forcesChanged();
}

void World::setContactModel(const ContactModel& contact) {
  checkContactModel(contact);
  requireOwnForcesSupport(settings_.integrator, settings_, contact);
  contact_ = contact;
  forcesChanged();
}

void World::setIntegrator(IntegratorKind kind, int eulerIterations) {
  setIntegrator(kind, eulerIterations, settings_.rotorSubsteps);
}

void World::setIntegrator(IntegratorKind kind, int eulerIterations, int rotorSubsteps) {
  require(eulerIterations >= 1 && eulerIterations <= 100, "Euler iterations must lie in [1, 100]");
  require(rotorSubsteps >= 1 && rotorSubsteps <= 64, "rotor sub-steps must lie in [1, 64]");
  requireOwnForcesSupport(kind, settings_, contact_, hasPointProperties(bodies_));
  requireMeshWallSupport(evaluatesOwnForces(kind));
  if (evaluatesOwnForces(kind)) {
    for (const std::uint8_t blocked : bodies_.blocked) {
      require(blocked == 0,
              "blocked degrees of freedom are not supported by the cim and rk4 integrators; use leapfrog, "
              "midpoint or splitting");
    }
  }
  integrator_ = makeIntegrator(kind, eulerIterations);
  settings_.integrator = kind;
  settings_.eulerIterations = eulerIterations;
  settings_.rotorSubsteps = rotorSubsteps;
  // The midpoint method's last forces belong to the mid-step state; re-evaluate at the current one.
  forcesChanged();
}

void World::setDamping(double linear, double angular) {
  checkDamping(linear, angular);
  settings_.linearDamping = linear;
  settings_.angularDamping = angular;
  forcesChanged();
}

void World::setGyroscopic(bool on) {
  WorldSettings changed = settings_;
  changed.gyroscopic = on;
  requireOwnForcesSupport(settings_.integrator, changed, contact_);
  // The term lives in the integrators' rotation update, not in the forces: nothing cached changes.
  settings_.gyroscopic = on;
}

void World::setFields(const FieldSettings& fields) {
  checkFields(fields);
  WorldSettings changed = settings_;
  changed.fields = fields;
  requireOwnForcesSupport(settings_.integrator, changed, contact_);
  settings_.fields = fields;
  softening_ = resolveSoftening(fields.softening, minPebbleRadius());
  forcesChanged();
}

void World::setPointProperties(std::uint32_t body, const PointProperties& point) {
  if (body >= bodies_.size()) throw std::out_of_range("no body " + std::to_string(body));
  checkPointProperties(point);
  requireOwnForcesSupport(settings_.integrator, point);
  bodies_.point[body] = point;
  forcesChanged();
}

void World::setTime(double time) {
  require(std::isfinite(time), "time must be finite");
  time_ = timeOrigin_ = time;
  stepsAtOrigin_ = steps_;
  energyWatch_.reset();
}

void World::setExternalForce(std::uint32_t body, const Vec3& force, const Vec3& applicationPointWorld) {
  if (body >= bodies_.size()) throw std::out_of_range("no body " + std::to_string(body));
  require(force.allFinite() && applicationPointWorld.allFinite(), "external force and point must be finite");
  const auto at = std::lower_bound(externalLoads_.begin(), externalLoads_.end(), body,
                                   [](const ExternalLoad& l, std::uint32_t b) { return l.body < b; });
  const ExternalLoad load{body, force, applicationPointWorld};
  if (at != externalLoads_.end() && at->body == body) {
    *at = load;
  } else {
    externalLoads_.insert(at, load);
  }
  loadsChanged();
}

void World::clearExternalForce(std::uint32_t body) {
  if (std::erase_if(externalLoads_, [body](const ExternalLoad& l) { return l.body == body; }) > 0) {
    loadsChanged();
  }
}

void World::clearExternalForces() {
  if (externalLoads_.empty()) return;
  externalLoads_.clear();
  loadsChanged();
}

void World::removeBody(std::uint32_t body) {
  if (body >= bodies_.size()) throw std::out_of_range("no body " + std::to_string(body));
  const std::uint32_t first = bodyFirstPebble_[body];
  const std::uint32_t end = body + 1 < bodies_.size() ? bodyFirstPebble_[body + 1]
                                                      : static_cast<std::uint32_t>(pebbleLocal_.size());
  const std::uint32_t count = end - first;
  // The forces stay current: the partners of the removed body lose exactly its contacts' share.
  if (forcesCurrent_) withdrawContactsOf(body);
  contacts_.removeBody(body);
  meshContacts_.removeBody(body, first, count);
  // cim / rk4 contacts carry no bodies: the next step finds them again.
  ownContactPoints_.clear();
  if (integrator_->ownsForces()) pebbleContacts_ = wallContacts_ = 0;
  neighbors_.removePebbles(first, count);
  integrator_->removeBody(body);
  bodies_.erase(body);
  lastPowersCurrent_ = false;
  energyWatch_.reset();  // its energy leaves without being booked
  dissipativeForce_.erase(dissipativeForce_.begin() + body);
  dissipativeTorque_.erase(dissipativeTorque_.begin() + body);
  wrapDisplacement_.erase(wrapDisplacement_.begin() + body);

  const auto pebbleRange = [&](auto& v) {
    v.erase(v.begin() + static_cast<std::ptrdiff_t>(first), v.begin() + static_cast<std::ptrdiff_t>(end));
  };
  pebbleRange(pebbleLocal_);
  pebbleRange(pebbles_.position);
  pebbleRange(pebbles_.radius);
  pebbleRange(pebbles_.body);
  if (pebbles_.hasCapsules()) {
    pebbleRange(pebbleAxisLocal_);
    pebbleRange(pebbles_.axis);
    pebbleRange(pebbles_.halfLength);
  }
  for (std::uint32_t& owner : pebbles_.body) owner -= owner > body ? 1 : 0;
  bodyFirstPebble_.erase(bodyFirstPebble_.begin() + body);
  for (std::size_t b = body; b < bodyFirstPebble_.size(); ++b) bodyFirstPebble_[b] -= count;

  const auto removed = std::lower_bound(externalLoads_.begin(), externalLoads_.end(), body,
                                        [](const ExternalLoad& l, std::uint32_t b) { return l.body < b; });
  if (removed != externalLoads_.end() && removed->body == body) {
    if (loadTorque_.size() == externalLoads_.size()) {  // else the next evaluation rebuilds it
      loadTorque_.erase(loadTorque_.begin() + (removed - externalLoads_.begin()));
    }
    externalLoads_.erase(removed);
  }
  for (ExternalLoad& load : externalLoads_) load.body -= load.body > body ? 1 : 0;

  pebbleContacts_ = wallContacts_ = 0;
  for (std::size_t c = 0; c < contacts_.chunkCount(); ++c) {
    pebbleContacts_ += contacts_.chunks()[c].pebbleContacts;
    wallContacts_ += contacts_.chunks()[c].wallContacts;
  }
  for (std::size_t c = 0; c < meshContacts_.chunkCount(); ++c)
    wallContacts_ += meshContacts_.chunks()[c].wallContacts;
  if (worstBody_ == body) worstOverlapRatio_ = 0.0;
  worstBody_ -= worstBody_ > body ? 1 : 0;
}

void World::withdrawContactsOf(std::uint32_t body) {
  // The reverse of addContactForces for the contacts between `body` and other bodies (positions
  // have not moved since the evaluation: integrators evaluate forces after their last drift).
  for (std::size_t c = 0; c < contacts_.chunkCount(); ++c) {
    for (const ContactRecord& r : contacts_.chunks()[c].records) {
      if (r.bodyB == kWallBody || (r.bodyA != body && r.bodyB != body)) continue;
      const std::uint32_t partner = r.bodyA == body ? r.bodyB : r.bodyA;
      const double sign = r.bodyA == body ? -1.0 : 1.0;  // the partner gets -force if it is B
      // B's arm from its image nearest A (addContactForces).
      const Vec3 shift = partner == r.bodyB ? bodyImageShift(settings_.periodic, bodies_.position[r.bodyA],
                                                             bodies_.position[r.bodyB])
                                            : Vec3::Zero();
      const Vec3 arm = r.point - (bodies_.position[partner] + shift);
      bodies_.force[partner] -= sign * r.force;
      bodies_.torque[partner] -= arm.cross(sign * r.force);
      dissipativeForce_[partner] -= sign * r.dissipativeForce;
      dissipativeTorque_[partner] -= arm.cross(sign * r.dissipativeForce);
    }
  }
}

void World::clearDivergence() {
  divergence_ = Divergence{};
  energyWatch_.reset();
}

WorldCheckpoint World::checkpoint() const {
  WorldCheckpoint c;
  c.templates_ = templates_;
  c.settings_ = settings_;
  c.contact_ = contact_;
  c.bodies_ = bodies_;
  c.pebbleLocal_ = pebbleLocal_;
  c.pebbleAxisLocal_ = pebbleAxisLocal_;
  c.bodyFirstPebble_ = bodyFirstPebble_;
  c.pebbles_ = pebbles_;
  c.neighbors_ = neighbors_.save();
  c.contacts_ = contacts_;
  c.meshContacts_ = meshContacts_;
  c.integrator_ = integrator_->clone();
  c.externalLoads_ = externalLoads_;
  c.dissipativeForce_ = dissipativeForce_;
  c.dissipativeTorque_ = dissipativeTorque_;
  c.wrapDisplacement_ = wrapDisplacement_;
  c.loadTorque_ = loadTorque_;
  c.wallForce_ = wallForce_;
  c.wallImpulse_ = wallImpulse_;
  c.softening_ = softening_;
  c.time_ = time_;
  c.steps_ = steps_;
  c.timeOrigin_ = timeOrigin_;
  c.stepsAtOrigin_ = stepsAtOrigin_;
  c.dissipated_ = dissipated_;
  c.externalWork_ = externalWork_;
  c.wallWork_ = wallWork_;
  c.inlets_ = inlets_;
  c.insertedEnergy_ = insertedEnergy_;
  c.forcesCurrent_ = forcesCurrent_;
  c.historyLag_ = historyLag_;
  c.ownContactPoints_ = ownContactPoints_;
  c.pebbleContacts_ = pebbleContacts_;
  c.wallContacts_ = wallContacts_;
  c.worstOverlapRatio_ = worstOverlapRatio_;
  c.worstBody_ = worstBody_;
  c.divergence_ = divergence_;
  return c;
}

std::size_t WorldCheckpoint::memoryBytes() const {
  const auto bytes = [](const auto& v) { return v.size() * sizeof(v[0]); };
  const BodyState& b = bodies_;
  std::size_t n = sizeof(*this) + bytes(templates_) + bytes(b.templateIndex) + bytes(b.mass) +
                  bytes(b.moments) + bytes(b.position) + bytes(b.orientation) + bytes(b.velocity) +
                  bytes(b.angularVelocity) + bytes(b.force) + bytes(b.torque) + bytes(b.point);
  n += bytes(pebbleLocal_) + bytes(bodyFirstPebble_) + bytes(pebbles_.position) + bytes(pebbles_.radius) +
       bytes(pebbles_.body) + bytes(pebbleAxisLocal_) + bytes(pebbles_.axis) + bytes(pebbles_.halfLength);
  n += bytes(neighbors_.pairs) + bytes(neighbors_.wallPairs) + bytes(neighbors_.pairHistory) +
       bytes(neighbors_.wallHistory) + bytes(neighbors_.pairSpringStiffness) +
       bytes(neighbors_.wallSpringStiffness) + bytes(neighbors_.positionsAtBuild) + bytes(neighbors_.limit2);
  for (const ContactChunk& chunk : contacts_.chunks()) n += sizeof(chunk) + bytes(chunk.records);
  n += bytes(wallForce_) + bytes(wallImpulse_);
  n += bytes(externalLoads_) + bytes(dissipativeForce_) + bytes(dissipativeTorque_) + bytes(loadTorque_) +
       bytes(wrapDisplacement_);
  n += 4 * b.position.size() * sizeof(Vec3);  // the integrator's history
  return n;
}

void World::restore(const WorldCheckpoint& c) {
  // Templates added since the checkpoint are kept (no restored body uses them).
  const bool sameTemplates = c.templates_.size() <= templates_.size() &&
                             std::equal(c.templates_.begin(), c.templates_.end(), templates_.begin());
  require(c.integrator_ != nullptr && sameTemplates,
          "the checkpoint was made by another world (its templates differ)");
  const int threads = settings_.threads;  // the pool stays as it is; results do not depend on it
  settings_ = c.settings_;
  settings_.threads = threads;
  contact_ = c.contact_;
  bodies_ = c.bodies_;
  pebbleLocal_ = c.pebbleLocal_;
  pebbleAxisLocal_ = c.pebbleAxisLocal_;
  bodyFirstPebble_ = c.bodyFirstPebble_;
  pebbles_ = c.pebbles_;
  neighbors_.restore(c.neighbors_);
  contacts_ = c.contacts_;
  meshContacts_ = c.meshContacts_;
  integrator_ = c.integrator_->clone();
  externalLoads_ = c.externalLoads_;
  dissipativeForce_ = c.dissipativeForce_;
  dissipativeTorque_ = c.dissipativeTorque_;
  wrapDisplacement_ = c.wrapDisplacement_;
  loadTorque_ = c.loadTorque_;
  wallForce_ = c.wallForce_;
  wallImpulse_ = c.wallImpulse_;
  softening_ = c.softening_;
  lastPowersCurrent_ = false;  // recomputed from the restored state, to the same bits
  time_ = c.time_;
  steps_ = c.steps_;
  timeOrigin_ = c.timeOrigin_;
  stepsAtOrigin_ = c.stepsAtOrigin_;
  dissipated_ = c.dissipated_;
  externalWork_ = c.externalWork_;
  wallWork_ = c.wallWork_;
  inlets_ = c.inlets_;
  insertedEnergy_ = c.insertedEnergy_;
  forcesCurrent_ = c.forcesCurrent_;
  historyLag_ = c.historyLag_;
  ownContactPoints_ = c.ownContactPoints_;
  pebbleContacts_ = c.pebbleContacts_;
  wallContacts_ = c.wallContacts_;
  worstOverlapRatio_ = c.worstOverlapRatio_;
  worstBody_ = c.worstBody_;
  divergence_ = c.divergence_;
  energyWatch_.reset();
}

double World::criticalTimeStep() const {
  // Smallest effective mass a pebble contact can see: a point at the bounding radius of a clump
  // pushed along its softest rotational direction, m_point = 1 / (1/m + b^2 / I1); two such.
  double massEff = std::numeric_limits<double>::infinity();
  for (const TemplatePtr& t : templates_) {
    const double b = t->boundingRadius;
    massEff = std::min(massEff, 0.5 / (1.0 / t->mass + b * b / t->principalMoments[0]));
  }
  if (!std::isfinite(massEff)) return std::numeric_limits<double>::infinity();
  double stiffness = contact_.linear.stiffness;
  if (contact_.kind != ContactModel::Kind::Linear) {
    // Tangent stiffness dF/dh = 3/2 F/h at an overlap of 1% of the smallest radius (two pebbles of
    // that radius: Mutze's r~ = r, Hertz's R* = r/2).
    double r = std::numeric_limits<double>::infinity();
    for (const TemplatePtr& t : templates_) r = std::min(r, t->minPebbleRadius);
    const double h = 0.01 * r;
    if (contact_.kind == ContactModel::Kind::Hertz) {
      const double e = contact_.hertz.young / (1.0 - contact_.hertz.poisson * contact_.hertz.poisson);
      stiffness = 1.5 * std::sqrt(3.0) / 2.0 * e * std::sqrt(r) * std::sqrt(h);
    } else {
      stiffness = 2.0 * contact_.hertzMindlin.effectiveYoung() * std::sqrt(0.5 * r * h);  // S_n
    }
  }
  return 2.0 * std::sqrt(massEff / stiffness);
}

double World::recommendedTimeStep() const {
  // A contact lasts about pi sqrt(m/k) = (pi/2) x critical; resolve it with ~10 steps... and more.
  return 0.05 * M_PI * criticalTimeStep();
}

EnergyReport World::energy() {
  return *energyReport(true);
}

std::optional<EnergyReport> World::energyReport(bool mayRebuild) {
  EnergyReport e;
  e.time = time_;
  e.dissipated = dissipated_;
  e.externalWork = externalWork_;
  e.wallWork = wallWork_;
  e.inserted = insertedEnergy_;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const double m = bodies_.mass[b];
    const Vec3& v = bodies_.velocity[b];
    const Vec3 wb = bodies_.bodyAngularVelocity(b);
    e.keTranslational += 0.5 * m * v.squaredNorm();
    e.keRotational += 0.5 * wb.dot(bodies_.moments[b].cwiseProduct(wb));
    // The continuous (unwrapped) position: a body that falls through a periodic floor keeps losing
    // potential energy instead of jumping back up.
    const Vec3 x = bodies_.position[b] - wrapDisplacement_[b];
    e.peGravity -= m * settings_.gravity.dot(x);
    e.momentum += m * v;
    e.angularMomentum += m * x.cross(v) + bodies_.spinAngularMomentum(b);
  }
  if (integrator_->ownsForces()) {  // cim, rk4: contacts of their own (no fields with them)
    e.peElastic = integrator_->elasticEnergy(*this);
    return e;
  }
  updatePebblePositions();
  if (neighbors_.needsRebuild(pebbles_.position)) {
    if (!mayRebuild) return std::nullopt;
    neighbors_.rebuild(broadPhaseInput());
  }
  e.peElastic = ContactSolver::elasticEnergy(contact_, neighbors_, pebbles_, walls_, bodies_.position,
                                             settings_.periodic);
  e.peElastic += meshContacts_.elasticEnergy(contact_, pebbles_, walls_, time_);
  if (hasPointProperties(bodies_)) {
    e.peFields = fieldPotentialEnergy(settings_.fields, softening_, bodies_, settings_.periodic);
    // -q E.x at the continuous positions, as gravity above.
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      e.peFields += bodies_.point[b].charge * settings_.fields.electric.dot(wrapDisplacement_[b]);
    }
  }
  return e;
}

}  // namespace clumplab
