#include "core/SceneOverlap.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/ShaftDistance.hpp"

namespace clumplab {

namespace {
struct PlacedPebble {
  Vec3 center;  // world [m]
  double radius;
  std::size_t body;
  Vec3 shaft;  // a spherocylinder's half shaft, world [m] (zero for a sphere)
  double reach() const { return radius + shaft.norm(); }
};
}  // namespace

double worstInitialOverlap(const Scene& scene) {
  std::vector<PlacedPebble> pebbles;
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    const BodyInit& body = scene.bodies[b];
    for (const Pebble& p : scene.templates[body.templateIndex]->pebbles)
      pebbles.push_back({body.position + body.orientation * p.center, p.radius, b,
                         p.halfLength * (body.orientation * p.axis)});
  }
  // Sort and sweep along x: only pebbles whose x extents meet are compared.
  std::sort(pebbles.begin(), pebbles.end(), [](const PlacedPebble& a, const PlacedPebble& b) {
    return a.center.x() - a.reach() < b.center.x() - b.reach();
  });
  double worst = 0.0;
  for (std::size_t a = 0; a < pebbles.size(); ++a) {
    const PlacedPebble& p = pebbles[a];
    for (const Wall& w : scene.walls) {  // a spherocylinder by its shaft's ends
      const double overlap =
          p.radius - std::min(w.clearance(p.center - p.shaft), w.clearance(p.center + p.shaft));
      if (overlap > 0.0) worst = std::max(worst, overlap / p.radius);
    }
    for (std::size_t b = a + 1; b < pebbles.size(); ++b) {
      const PlacedPebble& q = pebbles[b];
      if (q.center.x() - q.reach() > p.center.x() + p.reach()) break;  // no pebble further on meets p
      if (q.body == p.body) continue;
      const double pl = p.shaft.norm(), ql = q.shaft.norm();
      const double distance =
          pl == 0.0 && ql == 0.0
              ? (p.center - q.center).norm()
              : std::sqrt(closestShaftPoints(q.center - p.center,
                                             pl > 0.0 ? Vec3(p.shaft / pl) : Vec3::UnitZ(), pl,
                                             ql > 0.0 ? Vec3(q.shaft / ql) : Vec3::UnitZ(), ql)
                              .distance2);
      const double overlap = p.radius + q.radius - distance;
      if (overlap > 0.0) worst = std::max(worst, overlap / std::min(p.radius, q.radius));
    }
  }
  return worst;
}

}  // namespace clumplab
