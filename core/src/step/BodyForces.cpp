#include "core/step/BodyForces.hpp"

#include "base/BodyLoop.hpp"

#include "core/base/PlaneConstraint.hpp"
#include "core/clump/BodyState.hpp"
#include "core/forces/ExternalLoad.hpp"
#include "core/forces/Fields.hpp"
#include "core/integrate/BlockedDofs.hpp"
#include "core/model/WorldModel.hpp"
#include "integrate/BlockedMotion.hpp"

namespace clumplab {

void setGravityDampingAndLoads(const WorldSettings& settings, const std::vector<ExternalLoad>& loads,
                               BodyState& bodies, DissipativeParts& dissipative,
                               std::vector<Vec3>& loadTorque, ThreadPool* pool) {
  const std::size_t n = bodies.size();
  dissipative.force.resize(n);
  dissipative.torque.resize(n);
  // Global damping: F = -gamma m v and T = -gamma_rot I omega (I omega is the spin angular
  // momentum), at the velocities the integrator evaluates forces with; the step books their work.
  const double gamma = settings.linearDamping, gammaRot = settings.angularDamping;
  const bool damped = gamma > 0.0 || gammaRot > 0.0;
  const auto bodyRange = [&](std::size_t begin, std::size_t end) {
    for (std::size_t b = begin; b < end; ++b) {
      bodies.force[b] = bodies.mass[b] * settings.gravity;  // Woo, Clumps: at the clump node only
      bodies.torque[b].setZero();
      dissipative.force[b].setZero();
      dissipative.torque[b].setZero();
    }
    if (!damped) return;
    for (std::size_t b = begin; b < end; ++b) {
      const Vec3 momentum = bodies.mass[b] * bodies.velocity[b];
      dissipative.force[b] = -(gamma * momentum);
      dissipative.torque[b] = -(gammaRot * bodies.spinAngularMomentum(b));
      bodies.force[b] += dissipative.force[b];
      bodies.torque[b] += dissipative.torque[b];
    }
  };
  if (pool != nullptr) {
    forEachBodyChunk(*pool, n,
                     [&](std::size_t, std::size_t begin, std::size_t end) { bodyRange(begin, end); });
  } else {
    bodyRange(0, n);
  }
  // External loads (user input: their work is not dissipation; the step books it as external work).
  loadTorque.resize(loads.size());
  for (std::size_t i = 0; i < loads.size(); ++i) {
    const ExternalLoad& load = loads[i];
    loadTorque[i] = (load.point - bodies.position[load.body]).cross(load.force);
    bodies.force[load.body] += load.force;
    bodies.torque[load.body] += loadTorque[i];
  }
}

Vec3 actingMagneticField(const WorldSettings& settings) {
  const Vec3& field = settings.fields.magnetic;
  return settings.plane.enabled ? settings.plane.alongNormal(field) : field;
}

void applyFields(const WorldSettings& settings, double softening, bool lorentzInKicks, BodyState& bodies) {
  // Mutze, Polyspherical grains, §1 (v), (vi): fields and point interactions at the centres of mass
  // (FieldForces.cpp).
  addFieldForces(settings.fields, softening, bodies, bodies.force, bodies.torque, settings.periodic);
  // Integrators that take forces at a mid-step state (Mutze's midpoint, Mutze, Polyspherical grains,
  // §7) get q v x B from the evaluation; kick-drift-kick ones rotate the velocities in their kicks.
  if (lorentzInKicks) return;
  const Vec3 b = actingMagneticField(settings);
  if (b != Vec3::Zero()) addLorentzForces(b, bodies, bodies.force);
}

void projectForcesOnPlane(const PlaneConstraint& plane, BodyState& bodies, DissipativeParts& dissipative) {
  if (!plane.enabled) return;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    bodies.force[b] = plane.inPlane(bodies.force[b]);
    bodies.torque[b] = plane.alongNormal(bodies.torque[b]);
    dissipative.force[b] = plane.inPlane(dissipative.force[b]);
    dissipative.torque[b] = plane.alongNormal(dissipative.torque[b]);
  }
}

void projectStateOnPlane(const PlaneConstraint& plane, BodyState& bodies, std::size_t first) {
  if (!plane.enabled) return;
  for (std::size_t b = first; b < bodies.size(); ++b)
    plane.confine(bodies.position[b], bodies.velocity[b], bodies.angularVelocity[b]);
}

void removeBlockedForces(BodyState& bodies, DissipativeParts& dissipative) {
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const std::uint8_t mask = bodies.blocked[b];
    if (mask == 0) continue;
    for (int a = 0; a < 3; ++a) {
      if (mask & (1u << a)) bodies.force[b][a] = dissipative.force[b][a] = 0.0;
    }
    if ((mask & blocked_dofs::kRotations) == 0) continue;
    const unsigned free = freeRotationAxes(mask);
    for (int a = 0; a < 3; ++a) {
      if ((free & (1u << a)) == 0) bodies.torque[b][a] = dissipative.torque[b][a] = 0.0;
    }
  }
}

namespace {
// sign(x): -1, 0 or 1 (0 at rest: a component that does not move is not damped).
double sign(double x) {
  return static_cast<double>((x > 0.0) - (x < 0.0));
}
}  // namespace

void applyLocalDamping(double lambda, BodyState& bodies, DissipativeParts& dissipative) {
  if (lambda == 0.0) return;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    for (int a = 0; a < 3; ++a) {
      const double force = bodies.force[b][a], torque = bodies.torque[b][a];
      const double forcePart = -lambda * force * sign(force * bodies.velocity[b][a]);
      const double torquePart = -lambda * torque * sign(torque * bodies.angularVelocity[b][a]);
      bodies.force[b][a] += forcePart;
      bodies.torque[b][a] += torquePart;
      dissipative.force[b][a] += forcePart;
      dissipative.torque[b][a] += torquePart;
    }
  }
}

void confineBlockedState(BodyState& bodies, std::size_t first) {
  for (std::size_t b = first; b < bodies.size(); ++b) {
    const std::uint8_t mask = bodies.blocked[b];
    if (mask == 0) continue;
    confineBlockedVelocity(bodies, b);
    if ((mask & blocked_dofs::kRotations) == 0) continue;
    const unsigned free = freeRotationAxes(mask);
    for (int a = 0; a < 3; ++a) {
      if ((free & (1u << a)) == 0) bodies.angularVelocity[b][a] = 0.0;
    }
  }
}

}  // namespace clumplab
