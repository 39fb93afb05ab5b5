// World::step, its stages in order (core/step: the work booking, the periodic wrap; the clock), and
// the divergence checks after it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/base/Assert.hpp"
#include "core/step/PeriodicWrap.hpp"
#include "core/world/World.hpp"

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
    const double dt = model_.settings.timeStep;
    if (f > 0.5 && !state_.forcesCurrent)
      refreshForces();  // the forces the step starts with (edits, first step)
    {
      const StageTimer book(stageTotal(Stage::Reduce));
      workBooking_.bookCarried(f, dt, workForces(), workBooks());  // the last evaluation's share
    }
    forceStage_->step(stepContext(), state_.integratorHistory.forceStage,
                      *this);  // kicks and drifts around one force evaluation (evaluate)
    {
      const StageTimer reduce(stageTotal(Stage::Reduce));
      wrapIntoBox();                                           // periodic axes (PeriodicWrap.hpp)
      workBooking_.bookNew(f, dt, workForces(), workBooks());  // the new evaluation's share
    }
    state_.clock.advance(dt);
  }
  stageTotal(Stage::Integrate) -= forceStageSeconds() - forceSecondsBefore;  // timed inside the step
  if constexpr (kAssertions) checkInvariants();
  return checkDivergence();  // NaN, overlaps, the energy watch
}

WorkBooking::Forces World::workForces() {
  return {pool_,
          state_.bodies,
          state_.dissipative,
          state_.loads,
          state_.loadTorque,
          state_.wallForce,
          state_.meshContacts};
}

void World::wrapIntoBox(std::size_t first) {
  clumplab::wrapIntoBox(
      model_.settings.periodic, state_.bodies, state_.wrapDisplacement,
      {state_.bodyFirstPebble, state_.pebbles.position, state_.loads, state_.contacts, neighbors_}, first);
}

double World::forceStageSeconds() const {
  double sum = 0.0;
  for (int s = 0; s < static_cast<int>(Stage::Integrate); ++s) sum += stageSeconds_[s];
  return sum;
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

namespace {
// Whether count doubles from `x` are all finite: x * 0 is 0 for a finite x and NaN for NaN or Inf, so
// four independent sums of them (no chain of dependent additions; they vectorise) are NaN exactly when
// an entry is not finite, and never overflow.
bool allFinite(const double* x, std::size_t count) {
  double lane[4] = {0.0, 0.0, 0.0, 0.0};
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    for (int k = 0; k < 4; ++k) lane[k] += x[i + k] * 0.0;
  }
  for (; i < count; ++i) lane[0] += x[i] * 0.0;
  return !std::isnan(lane[0] + lane[1] + lane[2] + lane[3]);
}

bool allFinite(const std::vector<Vec3>& v) {
  static_assert(sizeof(Vec3) == 3 * sizeof(double));
  return allFinite(v.empty() ? nullptr : v.front().data(), 3 * v.size());
}
}  // namespace

std::size_t World::firstNonFiniteBody() const {
  // A pass over the state finds whether some entry is NaN or Inf; only then look for the body.
  const BodyState& s = state_.bodies;
  static_assert(sizeof(Quat) == 4 * sizeof(double));
  const bool finite = allFinite(s.position) && allFinite(s.velocity) && allFinite(s.angularVelocity) &&
                      allFinite(s.orientation.empty() ? nullptr : s.orientation.front().coeffs().data(),
                                4 * s.orientation.size());
  if (finite) return s.size();
  for (std::size_t b = 0; b < s.size(); ++b) {
    if (!s.position[b].allFinite() || !s.velocity[b].allFinite() || !s.angularVelocity[b].allFinite() ||
        !s.orientation[b].coeffs().allFinite())
      return b;
  }
  return s.size();
}

bool World::checkDivergence() {
  const std::size_t blownUp = firstNonFiniteBody();
  if (blownUp < state_.bodies.size())
    state_.divergence = {true, static_cast<std::uint32_t>(blownUp), state_.clock.time, ""};
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
  const TemplateSteps steps = timeSteps();
  const double safe = steps.recommended;
  char why[320];
  if (dt > safe) {
    std::snprintf(why, sizeof why,
                  "The time step %.3g s is above the safe step %.3g s for this contact stiffness (the "
                  "critical step is about %.3g s).",
                  dt, safe, steps.critical);
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
