#include "core/SceneOverlap.hpp"

#include <algorithm>
#include <vector>

namespace clumplab {

namespace {
struct PlacedPebble {
  Vec3 center;  // world [m]
  double radius;
  std::size_t body;
};
}  // namespace

double worstInitialOverlap(const Scene& scene) {
  std::vector<PlacedPebble> pebbles;
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    const BodyInit& body = scene.bodies[b];
    for (const Pebble& p : scene.templates[body.templateIndex]->pebbles)
      pebbles.push_back({body.position + body.orientation * p.center, p.radius, b});
  }
  // Sort and sweep along x: only pebbles whose x extents meet are compared.
  std::sort(pebbles.begin(), pebbles.end(), [](const PlacedPebble& a, const PlacedPebble& b) {
    return a.center.x() - a.radius < b.center.x() - b.radius;
  });
  double worst = 0.0;
  for (std::size_t a = 0; a < pebbles.size(); ++a) {
    const PlacedPebble& p = pebbles[a];
    for (const Wall& w : scene.walls) {
      const double overlap = p.radius - w.clearance(p.center);
      if (overlap > 0.0) worst = std::max(worst, overlap / p.radius);
    }
    for (std::size_t b = a + 1; b < pebbles.size(); ++b) {
      const PlacedPebble& q = pebbles[b];
      if (q.center.x() - q.radius > p.center.x() + p.radius) break;  // no pebble further on meets p
      if (q.body == p.body) continue;
      const double overlap = p.radius + q.radius - (p.center - q.center).norm();
      if (overlap > 0.0) worst = std::max(worst, overlap / std::min(p.radius, q.radius));
    }
  }
  return worst;
}

}  // namespace clumplab
