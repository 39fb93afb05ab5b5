// A force evaluation of World: pebbles placed, the broad phase, the contact stage, then body
// forces, the contact sums, fields, the 2D plane and blocked degrees of freedom.
#include "core/forces/Fields.hpp"
#include "core/step/BodyForces.hpp"
#include "core/step/ContactSums.hpp"
#include "core/step/PebbleStage.hpp"
#include "core/world/World.hpp"

#include "base/StageClock.hpp"

namespace clumplab {

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
  placeAllPebbles(pool_, state_.bodies, pebblePlacement());
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
  workBooking_.forget();
  // Pebble world positions from the body poses, and whether the Verlet list holds.
  bool moved = false;
  {
    const StageTimer timer(stageTotal(Stage::Pebbles));
    moved = placePebblesAndCheckList(pool_, neighbors_, state_.bodies, pebblePlacement());
  }
  if (moved) {  // broad phase
    const StageTimer timer(stageTotal(Stage::BroadPhase));
    // The last evaluation's contact records are rewritten below; their memory goes back first, so
    // that it does not stand beside the rebuild's (a rebuild is a large scene's peak: 7 MB of 160 at
    // a million pebbles, tbar_million.py). Their arrays grow again within the next evaluation.
    state_.contacts = ContactSolver();
    neighbors_.rebuild(broadPhaseInput(), state_.contactHistory, &pool_);
  }
  // Narrow phase and contact laws; tangential springs advance by historyStep.
  {
    const StageTimer timer(stageTotal(Stage::Contacts));
    state_.contacts.compute(model_.contact, state_.contactHistory, state_.pebbles, state_.bodies,
                            model_.walls, historyStep, pool_, model_.settings.periodic, drift,
                            pebblesAreBodies(model_.templates, state_.pebbles));
    // Mesh walls, posed where they are at the evaluation (a refresh evaluates the current state).
    const double evaluationTime =
        advance ? state_.clock.time + f * model_.settings.timeStep : state_.clock.time;
    state_.meshContacts.compute(model_.contact, state_.pebbles, state_.bodies, model_.walls, evaluationTime,
                                historyStep, pool_, drift, &meshNear_);
  }
  // Fields (gravity, global damping, external loads), then the contact sums; energy bookkeeping.
  const StageTimer timer(stageTotal(Stage::Reduce));
  const WorldSettings& settings = model_.settings;
  setGravityDampingAndLoads(settings, state_.loads, state_.bodies, state_.dissipative, state_.loadTorque,
                            &pool_);
  state_.wallForce.resize(model_.walls.size());
  const ContactSums sums = addContactForces(state_.contacts, state_.meshContacts, settings.periodic,
                                            state_.bodies, state_.dissipative, state_.wallForce);
  state_.ledger.dissipated += sums.lostEnergy;  // springs' losses (slip, release), Mutze's hysteresis
  state_.pebbleContacts = sums.pebbleContacts;
  state_.wallContacts = sums.wallContacts;
  state_.worstOverlapRatio = sums.worstOverlapRatio;
  state_.worstBody = sums.worstBody;
  if (pointProperties_) {
    applyFields(settings, state_.softening, forceStage_ != nullptr && forceStage_->kicksLorentzForce(),
                state_.bodies);
  }
  projectForcesOnPlane(settings.plane, state_.bodies, state_.dissipative);
  removeBlockedForces(state_.bodies, state_.dissipative);
  // Local damping on the force that acts, scaled by world component: a plane across the coordinate axes
  // takes the out-of-plane part that scaling made again.
  applyLocalDamping(settings.localDamping, state_.bodies, state_.dissipative);
  if (settings.localDamping > 0.0) projectForcesOnPlane(settings.plane, state_.bodies, state_.dissipative);
  state_.forcesCurrent = true;
}

Vec3 World::lorentzRotation(std::size_t b, double h) const {
  const double q = state_.bodies.point[b].charge;
  if (q == 0.0) return Vec3::Zero();
  return (q * h / (2.0 * state_.bodies.mass[b])) * actingMagneticField(model_.settings);
}

bool World::hasLorentzKicks() const {
  return pointProperties_ && actingMagneticField(model_.settings) != Vec3::Zero();
}

}  // namespace clumplab
