#include "LeapfrogIntegrator.hpp"

#include "core/World.hpp"

namespace clumplab {

Vec3 LeapfrogIntegrator::eulerKick(const Vec3& omega0, const Vec3& torqueBody, const Vec3& moments,
                                   double h, int iterations, bool gyroscopic) {
  // Seed 000 §2.6: w[0] = w0; (*) solve (28) for w'; w_new = w0 + w' h; w[n+1] = (w0 + w_new)/2.
  Vec3 omega = omega0;
  Vec3 rate = Vec3::Zero();
  for (int n = 0; n <= iterations; ++n) {
    const Vec3 gyro = gyroscopic ? Vec3(omega.cross(moments.cwiseProduct(omega))) : Vec3::Zero();
    rate = (torqueBody - gyro).cwiseQuotient(moments);  // eq. 28: I w' = M - W
    omega = 0.5 * (omega0 + (omega0 + rate * h));
  }
  return omega0 + rate * h;
}

void LeapfrogIntegrator::step(World& world) {
  BodyState& s = world.bodies();
  const double dt = world.settings().timeStep;
  const double h = 0.5 * dt;
  const bool gyro = world.settings().gyroscopic;
  const std::size_t n = s.size();
  if (!world.forcesCurrent()) world.computeForces();
  omegaBody_.resize(n);
  // Kick (half) and drift.
  for (std::size_t b = 0; b < n; ++b) {
    s.velocity[b] += h / s.mass[b] * s.force[b];
    const Quat& q = s.orientation[b];
    const Vec3 wb = eulerKick(q.conjugate() * s.angularVelocity[b], q.conjugate() * s.torque[b],
                              s.moments[b], h, iterations_, gyro);
    omegaBody_[b] = wb;
    s.position[b] += dt * s.velocity[b];
    // Rotation by the body-frame rotation vector w dt (exact exponential), then renormalised.
    s.orientation[b] = (q * rotationFromVector(dt * wb)).normalized();
    s.angularVelocity[b] = s.orientation[b] * wb;
  }
  world.computeForces();
  // Kick (half) with the forces at t + dt.
  for (std::size_t b = 0; b < n; ++b) {
    s.velocity[b] += h / s.mass[b] * s.force[b];
    const Quat& q = s.orientation[b];
    const Vec3 wb = eulerKick(omegaBody_[b], q.conjugate() * s.torque[b], s.moments[b], h,
                              iterations_, gyro);
    s.angularVelocity[b] = q * wb;
  }
}

}  // namespace clumplab
