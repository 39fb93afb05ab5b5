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
