#include "core/scene/SceneOverlap.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/clump/ShaftDistance.hpp"

namespace clumplab {

namespace {
struct PlacedPebble {
  Vec3 center;  // world [m]
  double radius;
  std::size_t body;
  Vec3 shaft;  // a spherocylinder's half shaft, world [m] (zero for a sphere)
  double reach() const { return radius + shaft.norm(); }
};

double pebbleOverlapRatio(const PlacedPebble& p, const PlacedPebble& q, const Vec3& shiftOfQ) {
  const double pl = p.shaft.norm(), ql = q.shaft.norm();
  const Vec3 qc = q.center + shiftOfQ;
  const double distance =
      pl == 0.0 && ql == 0.0
          ? (p.center - qc).norm()
          : std::sqrt(closestShaftPoints(qc - p.center, pl > 0.0 ? Vec3(p.shaft / pl) : Vec3::UnitZ(), pl,
                                         ql > 0.0 ? Vec3(q.shaft / ql) : Vec3::UnitZ(), ql)
                          .distance2);
  const double overlap = p.radius + q.radius - distance;
  return overlap > 0.0 ? overlap / std::min(p.radius, q.radius) : 0.0;
}

void keepWorst(InitialOverlap& worst, double ratio, std::size_t body, std::size_t other, int wall) {
  if (ratio > worst.ratio) worst = {ratio, body, other, wall};
}

// A spherocylinder by its shaft's ends.
void wallOverlap(const PlacedPebble& p, const std::vector<Wall>& walls, InitialOverlap& worst) {
  for (std::size_t w = 0; w < walls.size(); ++w) {
    const double overlap =
        p.radius - std::min(walls[w].clearance(p.center - p.shaft), walls[w].clearance(p.center + p.shaft));
    if (overlap > 0.0) keepWorst(worst, overlap / p.radius, p.body, p.body, static_cast<int>(w));
  }
}

// With periodic axes: every two bodies through their nearest images (as contacts see them), after a
// test of their bounding spheres; O(N^2) in bodies, fine for the scenes a switch reports on.
void worstPeriodicOverlap(const Scene& scene, const std::vector<PlacedPebble>& pebbles,
                          InitialOverlap& worst) {
  const PeriodicBox& box = scene.settings.periodic;
  std::vector<std::size_t> first(scene.bodies.size() + 1, 0);
  for (const PlacedPebble& p : pebbles) ++first[p.body + 1];
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) first[b + 1] += first[b];
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const BodyInit& a = scene.bodies[i];
    const double ra = scene.templates[a.templateIndex]->boundingRadius;
    for (std::size_t j = i + 1; j < scene.bodies.size(); ++j) {
      const BodyInit& b = scene.bodies[j];
      const Vec3 shift = box.imageShift(b.position - a.position);
      const double reach = ra + scene.templates[b.templateIndex]->boundingRadius;
      if ((b.position + shift - a.position).squaredNorm() >= reach * reach) continue;
      for (std::size_t p = first[i]; p < first[i + 1]; ++p) {
        for (std::size_t q = first[j]; q < first[j + 1]; ++q) {
          keepWorst(worst, pebbleOverlapRatio(pebbles[p], pebbles[q], shift), i, j, -1);
        }
      }
    }
  }
}
}  // namespace

double worstInitialOverlap(const Scene& scene) {
  return worstInitialOverlapOf(scene).ratio;
}

InitialOverlap worstInitialOverlapOf(const Scene& scene) {
  std::vector<PlacedPebble> pebbles;
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    const BodyInit& body = scene.bodies[b];
    for (const Pebble& p : scene.templates[body.templateIndex]->pebbles)
      pebbles.push_back({body.position + body.orientation * p.center, p.radius, b,
                         p.halfLength * (body.orientation * p.axis)});
  }
  InitialOverlap worst;
  if (scene.settings.periodic.any()) {
    worstPeriodicOverlap(scene, pebbles, worst);
    for (const PlacedPebble& p : pebbles) wallOverlap(p, scene.walls, worst);
    return worst;
  }
  // Sort and sweep along x: only pebbles whose x extents meet are compared.
  std::sort(pebbles.begin(), pebbles.end(), [](const PlacedPebble& a, const PlacedPebble& b) {
    return a.center.x() - a.reach() < b.center.x() - b.reach();
  });
  for (std::size_t a = 0; a < pebbles.size(); ++a) {
    const PlacedPebble& p = pebbles[a];
    wallOverlap(p, scene.walls, worst);
    for (std::size_t b = a + 1; b < pebbles.size(); ++b) {
      const PlacedPebble& q = pebbles[b];
      if (q.center.x() - q.reach() > p.center.x() + p.reach()) break;  // no pebble further on meets p
      if (q.body == p.body) continue;
      keepWorst(worst, pebbleOverlapRatio(p, q, Vec3::Zero()), std::min(p.body, q.body),
                std::max(p.body, q.body), -1);
    }
  }
  return worst;
}

}  // namespace clumplab
