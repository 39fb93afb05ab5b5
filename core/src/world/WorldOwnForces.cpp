// World's glue for the integrators with forces of their own (SelfForcedIntegrator: cim and rk4,
// Meland et al., Cluster integration method): the step that books what they report, their settings, and what
// they refuse.
#include "WorldOwnForces.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/base/Assert.hpp"
#include "core/cim/SelfForcedIntegrator.hpp"
#include "core/collision/ContactLaw.hpp"
#include "core/step/PebbleStage.hpp"
#include "core/world/World.hpp"

#include "base/StageClock.hpp"

namespace clumplab {

namespace {
void refuse(IntegratorKind kind, const std::string& what) {
  throw std::invalid_argument("the " + std::string(integratorName(kind)) + " integrator " + what);
}
}  // namespace

void requireOwnForcesSupport(IntegratorKind kind, const WorldSettings& s, const ContactModel& contact,
                             bool anyPointProperties) {
  if (!evaluatesOwnForces(kind)) return;
  const std::string problem = contactHistoryProblem(contact, std::string(integratorName(kind)));
  if (!problem.empty()) throw std::invalid_argument(problem);
  const FieldSettings& f = s.fields;
  if (f.electric != Vec3::Zero() || f.magnetic != Vec3::Zero()) {  // (G acts on point masses only)
    refuse(kind,
           "has no electric or magnetic fields: remove \"fields\" or use leapfrog, midpoint or splitting");
  }
  if (anyPointProperties) {
    refuse(kind,
           "has no charges, dipoles or point masses: remove them or use leapfrog, midpoint or splitting");
  }
  if (s.localDamping > 0.0) {
    refuse(kind,
           "has no local damping (a force that flips with the sign of each velocity component stalls its "
           "adaptive steps): remove \"damping\": {\"local\"} or use leapfrog, midpoint or splitting");
  }
  if (s.plane.enabled)
    refuse(kind, "runs in 3D only: remove \"plane\" (the 2D mode) or use another integrator");
  if (!s.gyroscopic) {
    refuse(kind,
           "always integrates Euler's full equations: \"gyroscopic\": false needs leapfrog, midpoint or "
           "splitting");
  }
}

void requireOwnForcesSupport(IntegratorKind kind, const PointProperties& point) {
  if (evaluatesOwnForces(kind) && point.any()) {
    refuse(kind,
           "has no charges, dipoles or point masses: remove them or use leapfrog, midpoint or splitting");
  }
}

bool World::stepOwnForces() {
  std::optional<StageTimer> timer(std::in_place, stageTotal(Stage::Integrate));
  // World's contact stage is idle: no stale contacts or forces from an earlier integrator.
  if (state_.contacts.chunkCount() > 0) {
    state_.contacts = ContactSolver{};
    for (std::size_t b = 0; b < state_.bodies.size(); ++b)
      state_.bodies.force[b] = state_.bodies.torque[b] = Vec3::Zero();
  }
  cim::OwnForcesStep r = selfForced_->advance(stepContext(), state_.integratorHistory.ownForces,
                                              model_.settings.timeStep, !state_.forcesCurrent);
  state_.forcesCurrent = true;    // until an edit: the integrator's model of the world is current
  if (r.cancelled) return false;  // the step cancel flag: the world is as before the step, no divergence
  workBooking_.forget();
  state_.ledger.dissipated += r.dissipated;
  state_.ledger.externalWork += r.externalWork;
  for (std::size_t w = 0; w < state_.wallImpulse.size() && w < r.wallImpulse.size(); ++w) {
    state_.wallImpulse[w] += r.wallImpulse[w];
  }
  // Wraps into the periodic box, as wrapIntoBox (PeriodicWrap.hpp) books them: the continuous positions
  // (energy of gravity, angular momentum) and the loads' points move with their bodies.
  for (std::size_t b = 0; b < r.wrapShift.size() && b < state_.wrapDisplacement.size(); ++b) {
    if (r.wrapShift[b] == Vec3::Zero()) continue;
    state_.wrapDisplacement[b] += r.wrapShift[b];
    for (ExternalLoad& load : state_.loads) {
      if (load.body == b) load.point += r.wrapShift[b];
    }
  }
  state_.pebbleContacts = r.pebbleContacts;
  state_.wallContacts = r.wallContacts;
  state_.ownContactPoints = std::move(r.contactPoints);
  state_.worstOverlapRatio = r.worstOverlapRatio;
  state_.worstBody = r.worstBody;
  placeAllPebbles(pool_, state_.bodies, pebblePlacement());
  state_.clock.advance(model_.settings.timeStep);
  timer.reset();  // the divergence checks below are not the integrator's
  if (!r.ok) {
    const std::size_t blownUp = firstNonFiniteBody();  // if any, the one to blame
    state_.divergence = {
        true, blownUp < state_.bodies.size() ? static_cast<std::uint32_t>(blownUp) : 0u, state_.clock.time,
        "simulation stopped at t = " + std::to_string(state_.clock.time) + " s: " + r.problem};
    return false;
  }
  if constexpr (kAssertions) checkInvariants();
  if (checkDivergence()) return true;
  if (model_.settings.integrator == IntegratorKind::Cim) {
    state_.divergence.message +=
        " (cim: the step is the cluster lifetime; a run that overlaps too far needs a smaller "
        "cim.min_step or rtol)";
  }
  return false;
}

}  // namespace clumplab
