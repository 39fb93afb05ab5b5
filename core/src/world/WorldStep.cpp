// World::step and what it books after the integrator has moved the bodies: the periodic wrap,
// the work of dissipative forces and loads, the wall impulses, the clock and the divergence checks.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/base/Assert.hpp"
#include "core/world/World.hpp"

#include "PebblePlacement.hpp"
#include "base/BodyLoop.hpp"
#include "base/StageClock.hpp"

namespace clumplab {

// One time step, as a table of contents. Each stage is timed into stageSeconds(): the force stages
// (pebbles, broad phase, contacts, reduce) time themselves inside the integrator's force
// evaluation, the booking below counts as "reduce", and "integrate" is the rest of the step.
bool World::step() {
  if (state_.divergence.happened) return false;
  if (!state_.inlets.empty()) insertFromInlets();      // bodies due by now join (Inlet.hpp)
  if (selfForced_ != nullptr) return stepOwnForces();  // cim, rk4: forces of their own (WorldOwnForces.cpp)
  const double forceSecondsBefore = forceStageSeconds();
  {
    const StageTimer wholeStep(stageTotal(Stage::Integrate));
    const double f = forceStage_->forceTimeFraction();  // where in the step the forces are evaluated
    bookCarriedWork(f);          // the last evaluation's forces over their share of this step
    keepStepStartVelocities(f);  // for integrators that evaluate forces before the step's end
    forceStage_->step(stepContext(), state_.integratorHistory.forceStage,
                      *this);  // kicks and drifts around one force evaluation (evaluate)
    {
      const StageTimer reduce(stageTotal(Stage::Reduce));
      wrapIntoBox();   // periodic axes: centres of mass back into the primary box
      bookNewWork(f);  // the new evaluation's forces over the rest of the step
    }
    advanceClock();
  }
  stageTotal(Stage::Integrate) -= forceStageSeconds() - forceSecondsBefore;  // timed inside the step
  if constexpr (kAssertions) checkInvariants();
  return checkDivergence();  // NaN, overlaps, the energy watch
}

// Dissipated work (Mutze, Polyspherical grains, §8: total + dissipated is conserved). A contact law
// sees velocities that are not the synchronous ones (the leapfrog's predicted v*, the midpoint's
// mid-step ones); power x dt at those would not telescope with the kicks. Book instead the work that
// the kicks do with the dissipative forces: the forces of an evaluation at t + f dt
// (ForceStageIntegrator::forceTimeFraction) act over the interval of length dt centred there, on
// velocities that are the synchronous ones at t + f dt to second order. For f = 1 (leapfrog,
// splitting) the last evaluation's forces act over the first half of this step at v_n and the new
// ones over the second half at v_{n+1}; for f = 1/2 (midpoint) the new ones act over the whole step
// at (v_n + v_{n+1}) / 2. For the translational kicks this is their work exactly (up to terms that
// telescope, for f = 1); for the rotational ones to second order. Forces refreshed at the start of a
// step (first step, edits) are booked for the half they act.
void World::bookCarriedWork(double f) {
  const double carried = f - 0.5;  // share of the step driven by the last evaluation's forces
  if (carried <= 0.0) return;
  if (!state_.forcesCurrent) refreshForces();  // what the integrator would do first
  const StageTimer timer(stageTotal(Stage::Reduce));
  const double dt = model_.settings.timeStep;
  // The last step ended with these powers unless forces or velocities changed since.
  if (!lastPowersCurrent_) lastPowers_ = powers(0.0);
  state_.ledger.dissipated -= carried * dt * lastPowers_.dissipative;
  state_.ledger.externalWork += carried * dt * lastPowers_.external;
  addWallImpulses(carried * dt);  // the kick the last evaluation's wall forces give this step
}

void World::keepStepStartVelocities(double f) {
  if (f >= 1.0) return;
  stepStartVelocity_ = state_.bodies.velocity;
  stepStartAngularVelocity_ = state_.bodies.angularVelocity;
}

void World::bookNewWork(double f) {
  const double carried = f - 0.5;
  const double dt = model_.settings.timeStep;
  lastPowers_ = powers(1.0 - f);
  lastPowersCurrent_ = f == 1.0;  // then they are the powers at the synchronous end-of-step state
  state_.ledger.dissipated -= (1.0 - carried) * dt * lastPowers_.dissipative;
  state_.ledger.externalWork += (1.0 - carried) * dt * lastPowers_.external;
  addWallImpulses((1.0 - carried) * dt);
}

double World::forceStageSeconds() const {
  double sum = 0.0;
  for (int s = 0; s < static_cast<int>(Stage::Integrate); ++s) sum += stageSeconds_[s];
  return sum;
}

void World::wrapIntoBox() {
  // Periodic axes: each centre of mass back into the primary box by whole box lengths. Everything
  // derived from the position moves with it by the same shift, so nothing needs recomputing and
  // the last forces stay current: the pebbles, the neighbour list's reference positions (a wrap
  // neither triggers nor hides a rebuild), external load points, and the contact points of the
  // body's contacts as body A (they lie next to A; as B the shift is found again from the centres).
  const PeriodicBox& box = model_.settings.periodic;
  if (!box.any()) return;
  std::vector<Vec3> shifts;  // per body, allocated once something wraps
  for (std::size_t b = 0; b < state_.bodies.size(); ++b) {
    const Vec3 x = state_.bodies.position[b];
    const Vec3 inside = box.wrap(x);
    if (inside == x) continue;
    const Vec3 shift = inside - x;
    state_.bodies.position[b] = inside;
    state_.wrapDisplacement[b] += shift;
    const std::uint32_t first = state_.bodyFirstPebble[b];
    const std::uint32_t end = b + 1 < state_.bodies.size()
                                  ? state_.bodyFirstPebble[b + 1]
                                  : static_cast<std::uint32_t>(state_.pebbleLocal.size());
    for (std::uint32_t p = first; p < end; ++p) state_.pebbles.position[p] += shift;
    neighbors_.translatePebbles(first, end - first, shift);
    for (ExternalLoad& load : state_.loads) {
      if (load.body == b) load.point += shift;
    }
    if (shifts.empty()) shifts.assign(state_.bodies.size(), Vec3::Zero());
    shifts[b] = shift;
  }
  if (!shifts.empty()) state_.contacts.translatePoints(shifts);
}

void World::advanceClock() {
  ++state_.clock.steps;
  state_.clock.time =
      state_.clock.origin +
      static_cast<double>(state_.clock.steps - state_.clock.stepsAtOrigin) * model_.settings.timeStep;
}

void World::addWallImpulses(double weight) {
  for (std::size_t w = 0; w < state_.wallImpulse.size(); ++w)
    state_.wallImpulse[w] += weight * state_.wallForce[w];
  // Moving mesh walls: the work of the contact forces at the surface velocity u, and the dissipation
  // at the relative velocity (the bodies' share, F_diss . v, is booked by powers()).
  state_.ledger.wallWork += weight * state_.meshContacts.wallPower();
  state_.ledger.dissipated += weight * state_.meshContacts.wallDissipativePower();
}

World::Powers World::powers(double startWeight) {
  // Sum over contacts of F_diss . w (w at the contact point, lever arms at the force time) is the
  // sum over bodies of F_diss . v + T_diss . omega: one pass over bodies, in fixed chunks summed in
  // chunk order (independent of the thread count).
  const bool interpolate = startWeight != 0.0;  // only then are the step-start velocities kept
  const auto velocity = [&](std::size_t b) -> Vec3 {
    const Vec3& v = state_.bodies.velocity[b];
    return interpolate ? Vec3(v + startWeight * (stepStartVelocity_[b] - v)) : v;
  };
  const auto angularVelocity = [&](std::size_t b) -> Vec3 {
    const Vec3& w = state_.bodies.angularVelocity[b];
    return interpolate ? Vec3(w + startWeight * (stepStartAngularVelocity_[b] - w)) : w;
  };
  const std::size_t n = state_.bodies.size();
  powerChunks_.assign(bodyChunkCount(n), 0.0);
  forEachBodyChunk(pool_, n, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
    double power = 0.0;
    if (interpolate) {
      for (std::size_t b = begin; b < end; ++b) {
        power +=
            state_.dissipativeForce[b].dot(velocity(b)) + state_.dissipativeTorque[b].dot(angularVelocity(b));
      }
    } else {  // the same sums without the interpolation in the loop
      for (std::size_t b = begin; b < end; ++b) {
        power += state_.dissipativeForce[b].dot(state_.bodies.velocity[b]) +
                 state_.dissipativeTorque[b].dot(state_.bodies.angularVelocity[b]);
      }
    }
    powerChunks_[chunk] = power;
  });
  Powers p;
  for (const double chunkPower : powerChunks_) p.dissipative += chunkPower;
  for (std::size_t i = 0; i < state_.loads.size(); ++i) {
    const std::uint32_t b = state_.loads[i].body;
    p.external += state_.loads[i].force.dot(velocity(b)) + state_.loadTorque[i].dot(angularVelocity(b));
  }
  return p;
}

bool World::energyBlewUp() {
  if (state_.clock.steps % EnergyWatch::kEveryWorldSteps != 0) return false;
  const std::optional<EnergyReport> e = stepEnergy();
  if (!e) return false;  // the list needs a rebuild: the next step's sample
  // The rest scale: every body lifted by its smallest pebble radius against gravity (its part in the
  // plane in the 2D mode, where the plane takes the rest).
  const WorldSettings& s = model_.settings;
  const double g = (s.plane.enabled ? s.plane.inPlane(s.gravity) : s.gravity).norm();
  double restScale = 0.0;
  for (std::size_t b = 0; b < state_.bodies.size(); ++b) {
    restScale +=
        state_.bodies.mass[b] * g * model_.templates[state_.bodies.templateIndex[b]]->minPebbleRadius;
  }
  blowUp_ = energyWatch_.observe(*e, restScale);
  if (!blowUp_) return false;
  std::uint32_t fastest = 0;  // the body with the most kinetic energy
  double most = -1.0;
  for (std::size_t b = 0; b < state_.bodies.size(); ++b) {
    const Vec3 wb = state_.bodies.bodyAngularVelocity(b);
    const double k = state_.bodies.mass[b] * state_.bodies.velocity[b].squaredNorm() +
                     wb.dot(state_.bodies.moments[b].cwiseProduct(wb));
    if (k > most) {
      most = k;
      fastest = static_cast<std::uint32_t>(b);
    }
  }
  state_.divergence = {true, fastest, state_.clock.time, ""};
  return true;
}

bool World::checkDivergence() {
  // One running sum over the state is finite unless some entry is NaN or Inf; only then look for
  // the body (a finite overflow of the sum finds none and is not reported).
  double sum = 0.0;
  for (std::size_t b = 0; b < state_.bodies.size(); ++b) {
    sum += state_.bodies.position[b].sum() + state_.bodies.velocity[b].sum() +
           state_.bodies.angularVelocity[b].sum() + state_.bodies.orientation[b].coeffs().sum();
  }
  for (std::size_t b = 0; !std::isfinite(sum) && b < state_.bodies.size(); ++b) {
    if (!state_.bodies.position[b].allFinite() || !state_.bodies.velocity[b].allFinite() ||
        !state_.bodies.angularVelocity[b].allFinite() || !state_.bodies.orientation[b].coeffs().allFinite()) {
      state_.divergence = {true, static_cast<std::uint32_t>(b), state_.clock.time, ""};
      break;
    }
  }
  const bool overlap = !state_.divergence.happened && state_.worstOverlapRatio > 0.5;
  if (overlap) state_.divergence = {true, state_.worstBody, state_.clock.time, ""};
  const bool blowUp = !state_.divergence.happened && energyBlewUp();
  if (!state_.divergence.happened) return true;
  char what[300];
  if (blowUp) {
    std::snprintf(what, sizeof what,
                  "the energy (total + dissipated) grew by %.3g J since t = %.6g s, %.0f%% of the energy in "
                  "motion, which a stable run never does (body %u has the most kinetic energy)",
                  blowUp_->growth, blowUp_->since, 100.0 * blowUp_->share, state_.divergence.body);
  } else {
    std::snprintf(what, sizeof what, "body %u %s", state_.divergence.body,
                  overlap ? "overlaps a neighbour by more than half a pebble radius"
                          : "has a non-finite position or velocity");
  }
  // The step is blamed only when it is above the safe one: below it the cause is elsewhere (a body
  // placed overlapping, a stiffer contact switched on), which the app names from what it changed.
  const double dt = model_.settings.timeStep;
  const double safe = recommendedTimeStep();
  char why[320];
  if (dt > safe) {
    std::snprintf(why, sizeof why,
                  "The time step %.3g s is above the safe step %.3g s for this contact stiffness (the "
                  "critical step is about %.3g s).",
                  dt, safe, criticalTimeStep());
  } else if (!std::isfinite(safe)) {
    std::snprintf(why, sizeof why,
                  "No contact can happen here (one body, no walls), so the time step %.3g s does not explain "
                  "it: a sudden change of the model does.",
                  dt);
  } else {
    std::snprintf(why, sizeof why,
                  "The time step %.3g s is within the safe step %.3g s, so the step alone does not explain "
                  "it: a body that started overlapping another, or a sudden change of the model, does.",
                  dt, safe);
  }
  char text[768];
  std::snprintf(text, sizeof text, "simulation diverged at t = %.6g s (step %llu): %s. %s", state_.clock.time,
                static_cast<unsigned long long>(state_.clock.steps), what, why);
  state_.divergence.message = text;
  return false;
}

}  // namespace clumplab
