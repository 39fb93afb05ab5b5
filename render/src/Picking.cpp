#include "render/Picking.hpp"

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
      const double s = raySphere(ray, x + rotation * p.center, p.radius);
      if (s >= 0.0 && s < best) {
        best = s;
        hit = PickHit{static_cast<std::uint32_t>(b), ray.origin + s * ray.direction, s};
      }
    }
  }
  return hit;
}

}  // namespace clumplab::render
