#pragma once
// Basic linear-algebra types of the engine. All quantities are SI (m, kg, s, rad).
#include <cmath>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace clumplab {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
// Unit quaternion rotating body (principal-frame) coordinates into world coordinates.
using Quat = Eigen::Quaterniond;

// sin and cos of x; for |x| < 0.05 (every step's rotation angle in practice) by Taylor series,
// exact to round-off (the first omitted terms are below 1e-19 x) and several times faster.
inline void sinCos(double x, double& s, double& c) {
  if (std::abs(x) < 0.05) {
    const double x2 = x * x;
    s = x * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0))));
    c = 1.0 - x2 / 2.0 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0 * (1.0 - x2 / 56.0 * (1.0 - x2 / 90.0))));
    return;
  }
  s = std::sin(x);
  c = std::cos(x);
}

// Rotation by the rotation vector `a` (angle |a| about a/|a|): the exponential map of so(3).
// Exact, with a Taylor branch for tiny angles (seed 001 eq. 14 gives its rotation-vector form).
inline Quat rotationFromVector(const Vec3& a) {
  const double angle = a.norm();
  if (angle < 1e-8) {
    Quat q(1.0, 0.5 * a.x(), 0.5 * a.y(), 0.5 * a.z());
    q.normalize();
    return q;
  }
  double sinHalf = 0.0, cosHalf = 0.0;
  sinCos(0.5 * angle, sinHalf, cosHalf);
  const double s = sinHalf / angle;
  return Quat(cosHalf, s * a.x(), s * a.y(), s * a.z());
}

inline bool allFinite(const Vec3& v) { return v.allFinite(); }

}  // namespace clumplab
