#pragma once
// Basic linear-algebra types of the engine. All quantities are SI (m, kg, s, rad).
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace clumplab {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
// Unit quaternion rotating body (principal-frame) coordinates into world coordinates.
using Quat = Eigen::Quaterniond;

// The Taylor series of sin(x)/x and of cos(x) in x2 = x^2, exact to round-off for x2 < 0.0025
// (|x| < 0.05, every step's rotation angle in practice: the first omitted terms are below 1e-19),
// with no library call, square root or division by x. One expression for every caller, so that a
// rotation gets the same bits whichever of them computed it.
inline double sinOverXSeries(double x2) {
  return 1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0)));
}
inline double cosSeries(double x2) {
  return 1.0 - x2 / 2.0 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0 * (1.0 - x2 / 56.0 * (1.0 - x2 / 90.0))));
}
constexpr double kSeriesAngle2 = 0.0025;  // (0.05 rad)^2, below which the series serve

// sin and cos of x; for |x| < 0.05 by their series, several times faster than the library.
inline void sinCos(double x, double& s, double& c) {
  if (std::abs(x) < 0.05) {
    const double x2 = x * x;
    s = x * sinOverXSeries(x2);
    c = cosSeries(x2);
    return;
  }
  s = std::sin(x);
  c = std::cos(x);
}

// Rotation by the rotation vector `a` (angle |a| about a/|a|): the exponential map of so(3).
// Exact; for |a| < 0.05 (a time step's rotation in practice) sin and cos of |a|/2 come from their
// series in |a|^2, with no square root or division by |a|.
inline Quat rotationFromVector(const Vec3& a) {
  const double angle2 = a.squaredNorm();
  if (angle2 < kSeriesAngle2) {
    const double x2 = 0.25 * angle2;            // (|a| / 2)^2
    const double s = 0.5 * sinOverXSeries(x2);  // sin(|a|/2) / |a|
    return Quat(cosSeries(x2), s * a.x(), s * a.y(), s * a.z());
  }
  const double angle = std::sqrt(angle2);
  double sinHalf = 0.0, cosHalf = 0.0;
  sinCos(0.5 * angle, sinHalf, cosHalf);
  const double s = sinHalf / angle;
  return Quat(cosHalf, s * a.x(), s * a.y(), s * a.z());
}

// rotationFromVector of `count` <= kMax rotation vectors (x[j], y[j], z[j]), bit for bit, with the
// series of all of them in one loop of its own: it vectorises (two divisions per instruction, the
// series' nine per rotation), where one rotation at a time waits on its own chain of divisions. For
// a batch of bodies' drift rotations in a step.
template <std::size_t kMax>
void rotationsFromVectors(const std::array<double, kMax>& x, const std::array<double, kMax>& y,
                          const std::array<double, kMax>& z, std::size_t count, Quat* out) {
  std::array<double, kMax> angle2, cosHalf, sinHalfOverAngle;
  for (std::size_t j = 0; j < count; ++j) angle2[j] = x[j] * x[j] + y[j] * y[j] + z[j] * z[j];  // squaredNorm
  for (std::size_t j = 0; j < count; ++j) {
    const double x2 = 0.25 * angle2[j];
    cosHalf[j] = cosSeries(x2);
    sinHalfOverAngle[j] = 0.5 * sinOverXSeries(x2);
  }
  for (std::size_t j = 0; j < count; ++j) {
    const double s = sinHalfOverAngle[j];
    out[j] = angle2[j] < kSeriesAngle2 ? Quat(cosHalf[j], s * x[j], s * y[j], s * z[j])
                                       : rotationFromVector(Vec3(x[j], y[j], z[j]));
  }
}

// std::nearbyint(x) in the default rounding mode (to nearest, ties to even), without the library call
// that Debian's baseline x86-64 build makes of it (no SSE4.1 round instruction): below 2^51, adding
// and subtracting 1.5 * 2^52 rounds x to an integer exactly as nearbyint does, and the sign is x's
// (nearbyint(-0.3) is -0). Larger values, infinities and NaN go to the library.
inline double nearestInteger(double x) {
  constexpr double kShifter = 6755399441055744.0;  // 1.5 * 2^52
  constexpr double kExact = 2251799813685248.0;    // 2^51
  if (!(std::abs(x) < kExact)) return std::nearbyint(x);
  return std::copysign((x + kShifter) - kShifter, x);
}

// An orthonormal pair (u, v) perpendicular to the unit vector `axis`, with v = axis x u.
inline void perpendicularPair(const Vec3& axis, Vec3& u, Vec3& v) {
  const Vec3 helper = std::abs(axis.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  u = axis.cross(helper).normalized();
  v = axis.cross(u);
}

// The radical inverse of `index` in `base` (the van der Corput sequence; bases 2, 3, 5 give Halton).
inline double radicalInverse(std::int64_t index, int base) {
  double result = 0.0;
  double f = 1.0 / base;
  while (index > 0) {
    result += f * static_cast<double>(index % base);
    index /= base;
    f /= base;
  }
  return result;
}

// q itself when it is unit to round-off (|q|^2 within 8 ulp of 1), else q normalised: quaternions
// that were unit when written keep their bits when read back (a saved scene reloads exactly).
inline Quat unitQuaternion(const Quat& q) {
  return std::abs(q.squaredNorm() - 1.0) <= 8.0 * std::numeric_limits<double>::epsilon() ? q : q.normalized();
}

// Brings a quaternion that is unit to within round-off back to unit length with one Newton step
// for 1/sqrt (its error is the square of the input's, ~1e-32), falling back to a full division.
inline Quat renormalized(const Quat& q) {
  const double n2 = q.squaredNorm();
  if (std::abs(n2 - 1.0) < 1e-8) {
    const double f = 1.5 - 0.5 * n2;
    return Quat(f * q.w(), f * q.x(), f * q.y(), f * q.z());
  }
  return q.normalized();
}

}  // namespace clumplab
