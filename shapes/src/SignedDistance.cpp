#include "shapes/SignedDistance.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace clumplab::shapes {

namespace sdf {

double sphere(const Vec3& p, const Vec3& center, double radius) {
  return (p - center).norm() - radius;
}

double capsule(const Vec3& p, const Vec3& a, const Vec3& b, double radius) {
  const Vec3 ab = b - a;
  const double length2 = ab.squaredNorm();
  const double t = length2 > 0.0 ? std::clamp((p - a).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (p - (a + t * ab)).norm() - radius;
}

double box(const Vec3& p, const Vec3& center, const Vec3& halfExtents, double rounding,
           const Quat& rotation) {
  // In the box frame, q > 0 along an axis means beyond the inner (unrounded) box on that side.
  const Vec3 local = rotation.conjugate() * (p - center);
  const Vec3 q = local.cwiseAbs() - (halfExtents - Vec3::Constant(rounding));
  const double outside = q.cwiseMax(0.0).norm();
  const double inside = std::min(q.maxCoeff(), 0.0);
  return outside + inside - rounding;
}

double torus(const Vec3& p, const Vec3& center, const Vec3& axis, double ringRadius, double tubeRadius) {
  const Vec3 d = p - center;
  const double along = d.dot(axis);
  const double across = (d - along * axis).norm();
  return std::hypot(across - ringRadius, along) - tubeRadius;
}

double cylinder(const Vec3& p, const Vec3& a, const Vec3& b, double radius, double rounding) {
  // In (distance from the axis, distance from the mid-plane) the inner cylinder is a rectangle.
  const Vec3 axis = (b - a).normalized();
  const Vec3 d = p - 0.5 * (a + b);
  const double along = d.dot(axis);
  const double across = (d - along * axis).norm();
  const double qr = across - (radius - rounding);
  const double qz = std::abs(along) - (0.5 * (b - a).norm() - rounding);
  const double outside = std::hypot(std::max(qr, 0.0), std::max(qz, 0.0));
  const double inside = std::min(std::max(qr, qz), 0.0);
  return outside + inside - rounding;
}

}  // namespace sdf

SignedDistance unionOf(std::vector<SignedDistance> parts) {
  if (parts.empty()) throw std::invalid_argument("a union of solids needs at least one part");
  return [parts = std::move(parts)](const Vec3& p) {
    double d = std::numeric_limits<double>::infinity();
    for (const SignedDistance& part : parts) d = std::min(d, part(p));
    return d;
  };
}

}  // namespace clumplab::shapes
