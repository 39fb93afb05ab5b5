// World's edits between steps, validated; each takes effect at the next step.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/collision/ContactLaw.hpp"
#include "core/model/ModelParameters.hpp"
#include "core/world/World.hpp"

#include "IntegratorFactory.hpp"
#include "WorldOwnForces.hpp"
#include "WorldValidation.hpp"

namespace clumplab {

EditableModel World::editableModel() const {
  return EditableModel::of(model_.settings, model_.contact);
}

// Everything is checked before anything changes: a refused model leaves the world as it was.
void World::setModel(const EditableModel& next) {
  const EditableModel now = editableModel();
  if (next == now) return;
  WorldSettings settings = model_.settings;
  ContactModel contact = model_.contact;
  next.writeTo(settings, contact);
  checkModel(settings, contact);
  requireOwnForcesSupport(next.integrator, settings, contact, pointProperties_);
  const bool newIntegrator = next.integrator != now.integrator ||
                             next.eulerIterations != now.eulerIterations ||
                             next.rotorSubsteps != now.rotorSubsteps;
  const bool ownForces = evaluatesOwnForces(next.integrator);
  if (newIntegrator) {
    requireMeshWallSupport(ownForces);
    if (ownForces) {
      for (const std::uint8_t blocked : state_.bodies.blocked) {
        require(blocked == 0,
                "blocked degrees of freedom are not supported by the cim and rk4 integrators; use leapfrog, "
                "midpoint or splitting");
      }
    }
  }

  if (next.timeStep != now.timeStep) {  // the clock runs on from here at the new step
    state_.clock.origin = state_.clock.time;
    state_.clock.stepsAtOrigin = state_.clock.steps;
  }
  // Mutze's law with restitution_squared < 1 keeps each contact's largest overlap where the others keep
  // a spring's stiffness: a switch between the two forgets the history. cim and rk4 keep the largest
  // overlaps of their own: World's, from before such a spell, are stale.
  const bool keptBefore = contactKeepsLargestOverlap(now.contact);
  const bool keptAfter = contactKeepsLargestOverlap(next.contact);
  const bool spell = ownForces != evaluatesOwnForces(now.integrator);
  if (keptBefore != keptAfter || ((keptBefore || keptAfter) && spell)) clearContactHistory();
  // A new integrator starts without history (integrator history does not depend on the step).
  if (newIntegrator) {
    setIntegratorObject(makeIntegrator(next.integrator, next.eulerIterations));
    state_.integratorHistory = IntegratorHistory{};
  }
  model_.settings = settings;
  model_.contact = contact;
  if (!(next.fields == now.fields))
    state_.softening = resolveSoftening(next.fields.softening, minPebbleRadius());
  // The gyroscopic term lives in the integrators' rotation update, not in the forces: nothing cached
  // changes with it alone. Any other edit changes the forces (or, for the midpoint method, the state
  // they belong to): they are evaluated again and the energy watch starts again.
  EditableModel otherThanGyroscopic = next;
  otherThanGyroscopic.gyroscopic = now.gyroscopic;
  if (!(otherThanGyroscopic == now)) forcesChanged();
}

void World::clearContactHistory() {
  state_.contactHistory.forget();
  state_.meshContacts.clearHistory();
}

void World::setPointProperties(std::uint32_t body, const PointProperties& point) {
  if (body >= state_.bodies.size()) throw std::out_of_range("no body " + std::to_string(body));
  checkPointProperties(point);
  requireOwnForcesSupport(model_.settings.integrator, point);
  state_.bodies.point[body] = point;
  notePointProperties(0);
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
