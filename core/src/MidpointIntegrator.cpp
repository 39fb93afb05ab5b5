#include "MidpointIntegrator.hpp"

#include "core/World.hpp"

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
  const Quat q = s.orientation[b];
  const Vec3 omega = s.angularVelocity[b];
  s.position[b] += tau * s.velocity[b];  // x_ = x + dt v, v_ = v
  Vec3 omegaNew = omega;
  if (gyroscopic) {
    const Quat qHalf = rotationFromVector(0.5 * tau * omega) * q;  // delta r o r
    // Delta w = dt I_r^-1 (I_{dr o r}(w) x w)
    const Vec3 dOmega = tau * applyInverseInertia(q, s.moments[b],
                                                  applyInertia(qHalf, s.moments[b], omega).cross(omega));
    omegaNew = omega + dOmega;
  }
  s.angularVelocity[b] = omegaNew;
  // r_ = exp(dt (w + w_)/2) o r
  s.orientation[b] = (rotationFromVector(0.5 * tau * (omega + omegaNew)) * q).normalized();
}

void MidpointIntegrator::step(World& world) {
  BodyState& s = world.bodies();
  const double tau = 0.5 * world.settings().timeStep;
  const bool gyro = world.settings().gyroscopic;
  const std::size_t n = s.size();
  if (acceleration_.size() != n) {  // alpha = beta = 0 in the initial state (§7)
    acceleration_.assign(n, Vec3::Zero());
    angularAcceleration_.assign(n, Vec3::Zero());
  }
  for (std::size_t b = 0; b < n; ++b) {
    freeMotion(s, b, tau, gyro);                             // eq. 65
    s.velocity[b] += tau * acceleration_[b];                 // eq. 66
    s.angularVelocity[b] += tau * angularAcceleration_[b];
  }
  world.computeForces();                                     // eq. 67
  for (std::size_t b = 0; b < n; ++b) {
    const Vec3 alpha = s.force[b] / s.mass[b];               // eq. 61
    const Vec3 beta = applyInverseInertia(s.orientation[b], s.moments[b], s.torque[b]);  // eq. 62
    s.velocity[b] += tau * (2.0 * alpha - acceleration_[b]); // eq. 68
    s.angularVelocity[b] += tau * (2.0 * beta - angularAcceleration_[b]);
    acceleration_[b] = alpha;
    angularAcceleration_[b] = beta;
    freeMotion(s, b, tau, gyro);                             // eq. 69
  }
}

}  // namespace clumplab
