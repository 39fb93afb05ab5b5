#include "core/cim/ClusterLifetime.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clumplab::cim {

double displacementTime(double speed, double acceleration, double distance) {
  const double s = std::max(speed, 0.0), a = std::max(acceleration, 0.0);
  const double denominator = s + std::sqrt(s * s + 2.0 * a * distance);
  return denominator > 0.0 ? 2.0 * distance / denominator : std::numeric_limits<double>::infinity();
}

double shaftEndSpeed(const Vec3& velocity, const Vec3& angularVelocity, const Vec3& axis,
                     double shaftLength) {
  const Vec3 tip = (0.5 * shaftLength) * angularVelocity.cross(axis);
  return std::sqrt(std::max((velocity + tip).squaredNorm(), (velocity - tip).squaredNorm()));
}

double boundingSpeed(const Vec3& velocity, const Vec3& angularVelocity, double boundingRadius) {
  return velocity.norm() + boundingRadius * angularVelocity.norm();
}

double shaftEndDisplacement(const Vec3& displacement, const Vec3& axisBefore, const Vec3& axisAfter,
                            double shaftLength) {
  const Vec3 tip = (0.5 * shaftLength) * (axisAfter - axisBefore);
  return std::sqrt(std::max((displacement + tip).squaredNorm(), (displacement - tip).squaredNorm()));
}

double boundingDisplacement(const Vec3& displacement, const Quat& before, const Quat& after,
                            double boundingRadius) {
  // |vec(q1 q0^-1)| = |q1| |q0| sin(theta / 2); the chord of a turn by theta at radius rho is
  // 2 rho sin(theta / 2).
  const Quat turn = after * before.conjugate();
  const double norms = after.norm() * before.norm();
  return displacement.norm() + (norms > 0.0 ? 2.0 * turn.vec().norm() / norms : 0.0) * boundingRadius;
}

double angularSpeedBound(const Vec3& moments, const Vec3& w) {
  const double smallest = moments.minCoeff();
  return smallest > 0.0 ? std::sqrt(w.dot(moments.cwiseProduct(w)) / smallest) : w.norm();
}

double clusterLifetime(std::span<const double> speeds, double buffer, double acceleration) {
  double fastest = 0.0;
  for (const double s : speeds) fastest = std::max(fastest, s);
  return displacementTime(fastest, acceleration, 0.5 * buffer);
}

}  // namespace clumplab::cim
