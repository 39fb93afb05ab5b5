#pragma once
// Basic linear-algebra types of the engine. All quantities are SI (m, kg, s, rad).
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace clumplab {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
// Unit quaternion rotating body (principal-frame) coordinates into world coordinates.
using Quat = Eigen::Quaterniond;

// Rotation by the rotation vector `a` (angle |a| about a/|a|): the exponential map of so(3).
// Exact, with a Taylor branch for tiny angles (seed 001 eq. 14 gives its rotation-vector form).
inline Quat rotationFromVector(const Vec3& a) {
  const double angle = a.norm();
  if (angle < 1e-8) {
    Quat q(1.0, 0.5 * a.x(), 0.5 * a.y(), 0.5 * a.z());
    q.normalize();
    return q;
  }
  const double half = 0.5 * angle;
  const double s = std::sin(half) / angle;
  return Quat(std::cos(half), s * a.x(), s * a.y(), s * a.z());
}

inline bool allFinite(const Vec3& v) { return v.allFinite(); }

}  // namespace clumplab
