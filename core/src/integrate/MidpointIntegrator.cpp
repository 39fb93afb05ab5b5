#include "MidpointIntegrator.hpp"

#include "BlockedMotion.hpp"
#include "PlanarMotion.hpp"
#include "base/BodyLoop.hpp"
#include "core/base/ThreadPool.hpp"
#include "core/integrate/StepContext.hpp"
#include "core/model/WorldModel.hpp"

namespace clumplab {

namespace {
// I_r applied to a world vector: R diag(I) R^T v (eq. 16, 34).
Vec3 applyInertia(const Quat& q, const Vec3& moments, const Vec3& v) {
  return q * moments.cwiseProduct(q.conjugate() * v);
}
Vec3 applyInverseInertia(const Quat& q, const Vec3& moments, const Vec3& v) {
  return q * (q.conjugate() * v).cwiseQuotient(moments);  // eq. 35
}
}  // namespace

void MidpointIntegrator::freeMotion(BodyState& s, std::size_t b, double tau, bool gyroscopic) {
  // Eq. 58-59 in three sub-steps: (1) turn to the midpoint with the current angular velocity,
  // (2) take the angular velocity there from the dynamical law, (3) turn through the whole tau
  // with it. As printed, eq. 59 gets (2) from one explicit step of eq. 60, which is only first
  // order for an asymmetric top (we measured an error ratio of 2.0 when tau halves, I = (1, 2, 3),
  // in every placement of dr). Eq. 60 is conservation of angular momentum, so we take the midpoint
  // angular velocity from the conserved L = I_r w instead: w_half = I_{dr o r}^-1 L. That is second
  // order, and L is conserved exactly by the free motion.
  const Quat q = s.orientation[b];
  const Vec3 omega = s.angularVelocity[b];
  s.position[b] += tau * s.velocity[b];  // x_ = x + dt v, v_ = v
  if (!gyroscopic) {
    s.orientation[b] = renormalized(rotationFromVector(tau * omega) * q);
    return;
  }
  const Vec3 angularMomentum = applyInertia(q, s.moments[b], omega);
  const Quat qHalf = rotationFromVector(0.5 * tau * omega) * q;  // dr o r
  const Vec3 omegaHalf = applyInverseInertia(qHalf, s.moments[b], angularMomentum);
  const Quat qNew = renormalized(rotationFromVector(tau * omegaHalf) * q);  // Dr o r
  s.orientation[b] = qNew;
  s.angularVelocity[b] = applyInverseInertia(qNew, s.moments[b], angularMomentum);
}

void MidpointIntegrator::step(const StepContext& step, ForceStageHistory& history, ForceStage& forces) {
  BodyState& s = step.bodies;
  std::vector<Vec3>& acceleration = history.acceleration;                // alpha_k [m/s^2]
  std::vector<Vec3>& angularAcceleration = history.angularAcceleration;  // beta_k [rad/s^2]
  const double tau = 0.5 * step.model.settings.timeStep;
  const bool gyro = step.model.settings.gyroscopic;
  const std::size_t n = s.size();
  const PlaneConstraint& plane = step.model.settings.plane;
  // Free motion (eq. 58-59), in 2D about the fixed normal, where it is exact.
  const auto drift = [&](std::size_t b) {
    if (plane.enabled) {
      planarDrift(plane, s, b, tau);
    } else if (hasBlockedRotation(s, b)) {  // frozen, or about the free world axes (BlockedMotion.hpp)
      s.position[b] += tau * s.velocity[b];
      blockedSpinDrift(s, b, tau, gyro);
    } else {
      freeMotion(s, b, tau, gyro);
    }
  };
  if (acceleration.size() != n) {  // alpha = beta = 0 in the initial state (§7)
    acceleration.assign(n, Vec3::Zero());
    angularAcceleration.assign(n, Vec3::Zero());
  }
  // Between this evaluation and the last the bodies moved with v_n (the second drift of the last
  // step, the first of this): the tangential springs advance with those (DriftVelocities).
  start_.take(s);
  forEachBody(step.pool, n, [&](std::size_t b) {
    drift(b);                                // eq. 65
    s.velocity[b] += tau * acceleration[b];  // eq. 66
    s.angularVelocity[b] += tau * angularAcceleration[b];
  });
  forces.evaluate(start_.drift());  // eq. 67
  forEachBody(step.pool, n, [&](std::size_t b) {
    const Vec3 alpha = s.force[b] / s.mass[b];  // eq. 61
    // Eq. 62; in 2D the torque (along n) over the moment about n.
    Vec3 beta = plane.enabled ? Vec3(s.torque[b] / normalInertia(s, b, plane.normal))
                              : applyInverseInertia(s.orientation[b], s.moments[b], s.torque[b]);
    if (hasBlockedRotation(s, b)) beta = blockedSpinKick(s, b, Vec3::Zero(), 1.0);  // I_F^-1 T_F
    s.velocity[b] += tau * (2.0 * alpha - acceleration[b]);                         // eq. 68
    s.angularVelocity[b] += tau * (2.0 * beta - angularAcceleration[b]);
    acceleration[b] = alpha;
    angularAcceleration[b] = beta;
    drift(b);  // eq. 69
  });
}

}  // namespace clumplab
