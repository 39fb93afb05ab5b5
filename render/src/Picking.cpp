#include "render/Picking.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clumplab::render {

namespace {

// Distance along the unit ray to where it enters the sphere, or leaves it when the origin is inside;
// negative if the sphere is missed or behind.
double raySphere(const Ray& ray, const Vec3& center, double radius) {
  const Vec3 oc = center - ray.origin;
  const double b = oc.dot(ray.direction);
  const double c = oc.squaredNorm() - radius * radius;
  const double h = b * b - c;
  if (h < 0.0) return -1.0;
  const double s = std::sqrt(h);
  return b - s >= 0.0 ? b - s : b + s;
}

// The same for a spherocylinder: radius r about the segment center +- shaft. It is convex and the
// union of two spheres and a cylinder, so the ray enters it at the first entry into a part and
// leaves it at the last exit from one.
double rayCapsule(const Ray& ray, const Vec3& center, const Vec3& shaft, double radius) {
  const Vec3 p0 = center - shaft, e = 2.0 * shaft;
  const double inf = std::numeric_limits<double>::infinity();
  double entry = inf, exit = -inf;
  for (const Vec3& p : {p0, Vec3(p0 + e)}) {  // the caps' spheres
    const Vec3 oc = p - ray.origin;
    const double b = oc.dot(ray.direction), h = b * b - oc.squaredNorm() + radius * radius;
    if (h < 0.0) continue;
    entry = std::min(entry, b - std::sqrt(h));
    exit = std::max(exit, b + std::sqrt(h));
  }
  const Vec3 o = ray.origin - p0;
  const double ee = e.squaredNorm(), de = ray.direction.dot(e), oe = o.dot(e);
  const double a = ee - de * de;  // 0 when the shaft points along the ray: the caps decide
  if (a > 1e-12 * ee) {
    const double b = ee * ray.direction.dot(o) - oe * de;
    const double c = ee * o.squaredNorm() - oe * oe - radius * radius * ee;
    const double h = b * b - a * c;
    if (h >= 0.0) {
      const double s = std::sqrt(h);
      const auto onShaft = [&](double t) {
        const double y = oe + t * de;
        return y > 0.0 && y < ee;
      };
      if (onShaft((-b - s) / a)) entry = std::min(entry, (-b - s) / a);
      if (onShaft((-b + s) / a)) exit = std::max(exit, (-b + s) / a);
    }
  }
  if (!(exit >= 0.0)) return -1.0;  // missed, or behind
  return entry >= 0.0 ? entry : exit;
}

}  // namespace

std::optional<PickHit> pickBody(const Snapshot& snapshot, const Ray& ray) {
  const SnapshotBodies& bodies = snapshot.bodies;
  double best = std::numeric_limits<double>::infinity();
  std::optional<PickHit> hit;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const std::uint32_t ti = bodies.templateIndex[b];
    if (ti >= snapshot.templates.size() || !snapshot.templates[ti]) continue;
    const ClumpTemplate& t = *snapshot.templates[ti];
    const Vec3& x = bodies.position[b];
    // The bounding sphere first: most bodies are nowhere near the ray.
    const double bound = t.boundingRadius * (1.0 + 1e-9);
    if (bound > 0.0 && (x - ray.origin).norm() > bound) {
      const double tb = raySphere(ray, x, bound);
      if (tb < 0.0 || tb > best) continue;
    }
    const Mat3 rotation = bodies.orientation[b].toRotationMatrix();
    for (const Pebble& p : t.pebbles) {
      const Vec3 c = x + rotation * p.center;
      const double s = p.isSphere() ? raySphere(ray, c, p.radius)
                                    : rayCapsule(ray, c, p.halfLength * (rotation * p.axis), p.radius);
      if (s >= 0.0 && s < best) {
        best = s;
        hit = PickHit{static_cast<std::uint32_t>(b), ray.origin + s * ray.direction, s};
      }
    }
  }
  return hit;
}

}  // namespace clumplab::render
