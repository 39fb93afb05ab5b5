// World's setters: edits between steps, validated; each takes effect at the next step.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/collision/ContactLaw.hpp"
#include "core/world/ModelParameters.hpp"
#include "core/world/World.hpp"

#include "WorldOwnForces.hpp"
#include "WorldValidation.hpp"

namespace clumplab {

void World::setTimeStep(double dt) {
  checkParameter("time_step", dt);
  state_.clock.origin = state_.clock.time;
  state_.clock.stepsAtOrigin = state_.clock.steps;
  model_.settings.timeStep = dt;
  // Integrator history (accelerations, body-frame angular velocity) does not depend on dt.
  forcesChanged();
}

void World::setGravity(const Vec3& gravity) {
  require(gravity.allFinite(), "gravity must be finite");
  model_.settings.gravity = gravity;
  forcesChanged();
}

void World::setContactModel(const ContactModel& contact) {
  validateModelParameters(model_.settings, contact);
  requireOwnForcesSupport(model_.settings.integrator, model_.settings, contact);
  // Mutze's law with restitution_squared < 1 keeps each contact's largest overlap where the others keep
  // a spring's stiffness: a switch between the two forgets the history.
  const bool switched = contactKeepsLargestOverlap(contact) != contactKeepsLargestOverlap(model_.contact);
  model_.contact = contact;
  if (switched) clearContactHistory();
  forcesChanged();
}

void World::clearContactHistory() {
  neighbors_.clearHistory();
  state_.meshContacts.clearHistory();
}

void World::setIntegrator(IntegratorKind kind, int eulerIterations) {
  setIntegrator(kind, eulerIterations, model_.settings.rotorSubsteps);
}

void World::setIntegrator(IntegratorKind kind, int eulerIterations, int rotorSubsteps) {
  checkParameter("euler_iterations", eulerIterations);
  checkParameter("rotor_substeps", rotorSubsteps);
  requireOwnForcesSupport(kind, model_.settings, model_.contact, hasPointProperties(state_.bodies));
  requireMeshWallSupport(evaluatesOwnForces(kind));
  if (evaluatesOwnForces(kind)) {
    for (const std::uint8_t blocked : state_.bodies.blocked) {
      require(blocked == 0,
              "blocked degrees of freedom are not supported by the cim and rk4 integrators; use leapfrog, "
              "midpoint or splitting");
    }
  }
  // cim and rk4 keep Mutze's largest overlaps of their own: World's, from before such a spell, are stale.
  if (contactKeepsLargestOverlap(model_.contact) &&
      evaluatesOwnForces(kind) != evaluatesOwnForces(model_.settings.integrator)) {
    clearContactHistory();
  }
  setIntegratorObject(makeIntegrator(kind, eulerIterations));
  model_.settings.integrator = kind;
  model_.settings.eulerIterations = eulerIterations;
  model_.settings.rotorSubsteps = rotorSubsteps;
  // The midpoint method's last forces belong to the mid-step state; re-evaluate at the current one.
  forcesChanged();
}

void World::setDamping(double linear, double angular) {
  checkParameter("damping.linear", linear);
  checkParameter("damping.angular", angular);
  model_.settings.linearDamping = linear;
  model_.settings.angularDamping = angular;
  forcesChanged();
}

void World::setGyroscopic(bool on) {
  WorldSettings changed = model_.settings;
  changed.gyroscopic = on;
  requireOwnForcesSupport(model_.settings.integrator, changed, model_.contact);
  // The term lives in the integrators' rotation update, not in the forces: nothing cached changes.
  model_.settings.gyroscopic = on;
}

void World::setFields(const FieldSettings& fields) {
  checkFields(fields);
  WorldSettings changed = model_.settings;
  changed.fields = fields;
  requireOwnForcesSupport(model_.settings.integrator, changed, model_.contact);
  model_.settings.fields = fields;
  state_.softening = resolveSoftening(fields.softening, minPebbleRadius());
  forcesChanged();
}

void World::setPointProperties(std::uint32_t body, const PointProperties& point) {
  if (body >= state_.bodies.size()) throw std::out_of_range("no body " + std::to_string(body));
  checkPointProperties(point);
  requireOwnForcesSupport(model_.settings.integrator, point);
  state_.bodies.point[body] = point;
  forcesChanged();
}

void World::setTime(double time) {
  require(std::isfinite(time), "time must be finite");
  state_.clock.time = state_.clock.origin = time;
  state_.clock.stepsAtOrigin = state_.clock.steps;
  energyWatch_.reset();
}

void World::setExternalForce(std::uint32_t body, const Vec3& force, const Vec3& applicationPointWorld) {
  if (body >= state_.bodies.size()) throw std::out_of_range("no body " + std::to_string(body));
  require(force.allFinite() && applicationPointWorld.allFinite(), "external force and point must be finite");
  const auto at = std::lower_bound(state_.loads.begin(), state_.loads.end(), body,
                                   [](const ExternalLoad& l, std::uint32_t b) { return l.body < b; });
  const ExternalLoad load{body, force, applicationPointWorld};
  if (at != state_.loads.end() && at->body == body) {
    *at = load;
  } else {
    state_.loads.insert(at, load);
  }
  loadsChanged();
}

void World::clearExternalForce(std::uint32_t body) {
  if (std::erase_if(state_.loads, [body](const ExternalLoad& l) { return l.body == body; }) > 0) {
    loadsChanged();
  }
}

void World::clearExternalForces() {
  if (state_.loads.empty()) return;
  state_.loads.clear();
  loadsChanged();
}

}  // namespace clumplab
