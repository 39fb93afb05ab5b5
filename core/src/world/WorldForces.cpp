// A force evaluation of World: pebbles placed, the broad phase, the contact stage, then body
// forces, the contact sums, fields, the 2D plane and blocked degrees of freedom.
#include <algorithm>
#include <atomic>
#include <type_traits>

#include "core/integrate/BlockedDofs.hpp"
#include "core/world/World.hpp"

#include "PebblePlacement.hpp"
#include "base/BodyLoop.hpp"
#include "base/StageClock.hpp"

namespace clumplab {

void World::updatePebblePositions() {
  const std::size_t n = state_.bodies.size();
  forEachBodyChunk(pool_, n, [&](std::size_t, std::size_t begin, std::size_t end) {
    placePebbles(
        state_.bodies, {state_.bodyFirstPebble, state_.pebbleLocal, state_.pebbleAxisLocal, state_.pebbles},
        begin, end, [](std::size_t) { return false; }, [](std::uint32_t) {});
  });
}

BroadPhaseInput World::broadPhaseInput() const {
  return broadPhaseInputFor(state_.pebbles);
}

BroadPhaseInput World::broadPhaseInputFor(const PebbleArrays& pebbles) const {
  return {pebbles.position,
          pebbles.radius,
          pebbles.halfLength,
          state_.bodies.position,
          state_.bodies.orientation,
          state_.bodyFirstPebble,
          state_.bodies.templateIndex,
          model_.templates,
          model_.walls,
          model_.settings.periodic};
}

void World::syncPebbles() {
  updatePebblePositions();
  if (neighbors_.needsRebuild(state_.pebbles.position))
    neighbors_.rebuild(broadPhaseInput(), state_.contactHistory, &pool_);
}

void World::evaluate(const DriftVelocities& drift) {
  evaluateForces(true, drift);
}

void World::refreshIfStale() {
  if (!state_.forcesCurrent) refreshForces();
}

void World::refreshForces() {
  evaluateForces(false, {});
}

void World::appendContactPoints(std::vector<Vec3>& out) const {
  if (selfForced_) {
    out.insert(out.end(), state_.ownContactPoints.begin(), state_.ownContactPoints.end());
    return;
  }
  const auto append = [&](const std::vector<ContactChunk>& chunks, std::size_t count) {
    for (std::size_t c = 0; c < count; ++c) {
      for (const ContactRecord& r : chunks[c].records) out.push_back(r.point);
    }
  };
  append(state_.contacts.chunks(), state_.contacts.chunkCount());
  append(state_.meshContacts.chunks(), state_.meshContacts.chunkCount());
}

void World::evaluateForces(bool advance, const DriftVelocities& drift) {
  // Contact history advances from the last evaluation to this one: dt for evaluations a step apart,
  // dt / 2 for a midpoint evaluation after a refresh (or the start), 0 for a refresh.
  const double f = forceStage_ != nullptr ? forceStage_->forceTimeFraction() : 1.0;
  const double historyStep = advance ? f * model_.settings.timeStep + state_.historyLag : 0.0;
  state_.historyLag = advance ? (1.0 - f) * model_.settings.timeStep : 0.0;
  lastPowersCurrent_ = false;
  // Pebble world positions from the body poses (Mutze, Polyspherical grains, §4), and whether the Verlet list
  // holds.
  bool moved = false;
  {
    const StageTimer timer(stageTotal(Stage::Pebbles));
    moved = placePebblesAndCheckList();
  }
  if (moved) {  // broad phase
    const StageTimer timer(stageTotal(Stage::BroadPhase));
    neighbors_.rebuild(broadPhaseInput(), state_.contactHistory, &pool_);
  }
  // Narrow phase and contact laws; tangential springs advance by historyStep.
  {
    const StageTimer timer(stageTotal(Stage::Contacts));
    state_.contacts.compute(model_.contact, state_.contactHistory, state_.pebbles, state_.bodies,
                            model_.walls, historyStep, pool_, model_.settings.periodic, drift);
    // Mesh walls, posed where they are at the evaluation (a refresh evaluates the current state).
    const double evaluationTime =
        advance ? state_.clock.time + f * model_.settings.timeStep : state_.clock.time;
    state_.meshContacts.compute(model_.contact, state_.pebbles, state_.bodies, model_.walls, evaluationTime,
                                historyStep, pool_, drift);
  }
  // Fields (gravity, global damping, external loads), then the contact sums; energy bookkeeping.
  const StageTimer timer(stageTotal(Stage::Reduce));
  applyBodyForces();
  state_.ledger.dissipated += addContactForces();  // springs' losses (slip, release), Mutze's hysteresis
  applyFieldForces();
  projectForcesOnPlane();
  applyBlockedForces();
  state_.forcesCurrent = true;
}

bool World::placePebblesAndCheckList() {
  // Pebble positions, fused with the broad phase's check of how far each pebble moved.
  const std::size_t bodyCount = state_.bodies.size();
  if (!neighbors_.builtFor(state_.pebbles.position.size())) {  // no list for these pebbles yet: build one
    updatePebblePositions();
    return true;
  }
  std::atomic<bool> moved{false};
  forEachBodyChunk(pool_, bodyCount, [&](std::size_t, std::size_t begin, std::size_t end) {
    bool movedHere = false;
    // Pebble by pebble only when the body's own motion cannot vouch for them all, and no pebble of
    // this chunk has already asked for a rebuild.
    const auto testPebbles = [&](std::size_t b) {
      return !movedHere &&
             !neighbors_.bodyWithinLimits(b, state_.bodyFirstPebble[b], state_.bodies.position[b],
                                          state_.bodies.orientation[b]);
    };
    placePebbles(
        state_.bodies, {state_.bodyFirstPebble, state_.pebbleLocal, state_.pebbleAxisLocal, state_.pebbles},
        begin, end, testPebbles,
        [&](std::uint32_t p) { movedHere |= neighbors_.movedTooFar(p, state_.pebbles.position[p]); });
    if (movedHere) moved.store(true, std::memory_order_relaxed);
  });
  return moved.load(std::memory_order_relaxed);
}

void World::applyBodyForces() {
  // Woo, Clumps: gravity acts on the clump node (centre of mass) only.
  const std::size_t n = state_.bodies.size();
  state_.dissipativeForce.resize(n);
  state_.dissipativeTorque.resize(n);
  for (std::size_t b = 0; b < n; ++b) {
    state_.bodies.force[b] = state_.bodies.mass[b] * model_.settings.gravity;
    state_.bodies.torque[b].setZero();
    state_.dissipativeForce[b].setZero();
    state_.dissipativeTorque[b].setZero();
  }
  // Global damping: F = -gamma m v and T = -gamma_rot I omega (I omega is the spin angular
  // momentum), at the velocities the integrator evaluates forces with; step() books their work.
  const double gamma = model_.settings.linearDamping, gammaRot = model_.settings.angularDamping;
  if (gamma > 0.0 || gammaRot > 0.0) {
    for (std::size_t b = 0; b < n; ++b) {
      const Vec3 momentum = state_.bodies.mass[b] * state_.bodies.velocity[b];
      state_.dissipativeForce[b] = -(gamma * momentum);
      state_.dissipativeTorque[b] = -(gammaRot * state_.bodies.spinAngularMomentum(b));
      state_.bodies.force[b] += state_.dissipativeForce[b];
      state_.bodies.torque[b] += state_.dissipativeTorque[b];
    }
  }
  // External loads (user input: their work is not dissipation; step() books it as external work).
  state_.loadTorque.resize(state_.loads.size());
  for (std::size_t i = 0; i < state_.loads.size(); ++i) {
    const ExternalLoad& load = state_.loads[i];
    state_.loadTorque[i] = (load.point - state_.bodies.position[load.body]).cross(load.force);
    state_.bodies.force[load.body] += load.force;
    state_.bodies.torque[load.body] += state_.loadTorque[i];
  }
}

double World::addContactForces() {
  // Woo, Clumps, (forceTorqueFromMembers): F = sum F_i, T = sum (x_i - x_c) x F_i, in chunk order; the
  // same sums of the dissipative parts. Across a periodic face B's lever arm starts at its image
  // nearest A (ContactSolver.hpp), which the same shift as the contact stage's finds.
  state_.pebbleContacts = state_.wallContacts = 0;
  state_.worstOverlapRatio = 0.0;
  double lost = 0.0;  // [J], the energy the evaluation took from springs and lost to Mutze's hysteresis
  state_.wallForce.assign(model_.walls.size(), Vec3::Zero());
  const PeriodicBox& periodic = model_.settings.periodic;
  const auto addRecords = [&](const ContactChunk& chunk, auto withPeriodic) {
    for (const ContactRecord& r : chunk.records) {
      const Vec3 armA = r.point - state_.bodies.position[r.bodyA];
      state_.bodies.force[r.bodyA] += r.force;
      state_.bodies.torque[r.bodyA] += armA.cross(r.force);
      state_.dissipativeForce[r.bodyA] += r.dissipativeForce;
      state_.dissipativeTorque[r.bodyA] += armA.cross(r.dissipativeForce);
      if (r.bodyB != kWallBody) {
        Vec3 armB;
        if constexpr (decltype(withPeriodic)::value) {
          const Vec3& centerB = state_.bodies.position[r.bodyB];
          armB = r.point - (centerB + bodyImageShift(periodic, state_.bodies.position[r.bodyA], centerB));
        } else {
          armB = r.point - state_.bodies.position[r.bodyB];
        }
        state_.bodies.force[r.bodyB] -= r.force;
        state_.bodies.torque[r.bodyB] -= armB.cross(r.force);
        state_.dissipativeForce[r.bodyB] -= r.dissipativeForce;
        state_.dissipativeTorque[r.bodyB] -= armB.cross(r.dissipativeForce);
      } else {
        state_.wallForce[r.wall] -= r.force;  // the reaction on the wall
      }
    }
  };
  const std::size_t meshChunks = state_.meshContacts.chunkCount();
  for (std::size_t c = 0; c < state_.contacts.chunkCount() + meshChunks; ++c) {
    const ContactChunk& chunk = c < state_.contacts.chunkCount()
                                    ? state_.contacts.chunks()[c]
                                    : state_.meshContacts.chunks()[c - state_.contacts.chunkCount()];
    if (periodic.any()) {
      addRecords(chunk, std::true_type{});
    } else {
      addRecords(chunk, std::false_type{});
    }
    lost += chunk.hysteresisLoss - chunk.springEnergyChange;
    state_.pebbleContacts += chunk.pebbleContacts;
    state_.wallContacts += chunk.wallContacts;
    if (chunk.worstOverlapRatio > state_.worstOverlapRatio) {
      state_.worstOverlapRatio = chunk.worstOverlapRatio;
      state_.worstBody = chunk.worstBody;
    }
  }
  return lost;
}

void World::applyFieldForces() {
  // Mutze, Polyspherical grains, §1 (v), (vi): fields and point interactions at the centres of mass
  // (FieldForces.cpp).
  if (!hasPointProperties(state_.bodies)) return;
  addFieldForces(model_.settings.fields, state_.softening, state_.bodies, state_.bodies.force,
                 state_.bodies.torque, model_.settings.periodic);
  // Integrators that take forces at a mid-step state (Mutze's midpoint, Mutze, Polyspherical grains, §7) get
  // q v x B from the evaluation; kick-drift-kick ones rotate the velocities in their kicks instead.
  if (forceStage_ == nullptr || !forceStage_->kicksLorentzForce()) {
    const Vec3 b = actingMagneticField();
    if (b != Vec3::Zero()) addLorentzForces(b, state_.bodies, state_.bodies.force);
  }
}

void World::projectForcesOnPlane() {
  // 2D mode: the plane's reaction cancels the out-of-plane force and the torque across n.
  const PlaneConstraint& plane = model_.settings.plane;
  if (!plane.enabled) return;
  for (std::size_t b = 0; b < state_.bodies.size(); ++b) {
    state_.bodies.force[b] = plane.inPlane(state_.bodies.force[b]);
    state_.bodies.torque[b] = plane.alongNormal(state_.bodies.torque[b]);
    state_.dissipativeForce[b] = plane.inPlane(state_.dissipativeForce[b]);
    state_.dissipativeTorque[b] = plane.alongNormal(state_.dissipativeTorque[b]);
  }
}

void World::projectStateOnPlane() {
  const PlaneConstraint& plane = model_.settings.plane;
  if (!plane.enabled) return;
  for (std::size_t b = 0; b < state_.bodies.size(); ++b)
    plane.confine(state_.bodies.position[b], state_.bodies.velocity[b], state_.bodies.angularVelocity[b]);
}

void World::applyBlockedForces() {
  // The constraint takes the blocked force components; a body with blocked rotations keeps only the
  // torque about its free axes (BlockedDofs.hpp). The dissipative parts alike, for the bookkeeping.
  for (std::size_t b = 0; b < state_.bodies.size(); ++b) {
    const std::uint8_t mask = state_.bodies.blocked[b];
    if (mask == 0) continue;
    for (int a = 0; a < 3; ++a) {
      if (mask & (1u << a)) state_.bodies.force[b][a] = state_.dissipativeForce[b][a] = 0.0;
    }
    if ((mask & blocked_dofs::kRotations) == 0) continue;
    const unsigned free = freeRotationAxes(mask);
    for (int a = 0; a < 3; ++a) {
      if ((free & (1u << a)) == 0) state_.bodies.torque[b][a] = state_.dissipativeTorque[b][a] = 0.0;
    }
  }
}

void World::confineBlockedState() {
  for (std::size_t b = 0; b < state_.bodies.size(); ++b) {
    const std::uint8_t mask = state_.bodies.blocked[b];
    if (mask == 0) continue;
    for (int a = 0; a < 3; ++a) {
      if (mask & (1u << a)) state_.bodies.velocity[b][a] = 0.0;
    }
    if ((mask & blocked_dofs::kRotations) == 0) continue;
    const unsigned free = freeRotationAxes(mask);
    for (int a = 0; a < 3; ++a) {
      if ((free & (1u << a)) == 0) state_.bodies.angularVelocity[b][a] = 0.0;
    }
  }
}

Vec3 World::lorentzRotation(std::size_t b, double h) const {
  const double q = state_.bodies.point[b].charge;
  if (q == 0.0) return Vec3::Zero();
  return (q * h / (2.0 * state_.bodies.mass[b])) * actingMagneticField();
}

bool World::hasLorentzKicks() const {
  return actingMagneticField() != Vec3::Zero() && hasPointProperties(state_.bodies);
}

Vec3 World::actingMagneticField() const {
  // In 2D, v x B with B in the plane points along n and the plane takes it: only B's normal part acts.
  const Vec3& field = model_.settings.fields.magnetic;
  return model_.settings.plane.enabled ? model_.settings.plane.alongNormal(field) : field;
}

}  // namespace clumplab
