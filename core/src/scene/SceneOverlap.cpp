#include "core/scene/SceneOverlap.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/clump/PlacedPebble.hpp"

namespace clumplab {

namespace {
// A placed pebble and the body it belongs to.
struct ScenePebble {
  PlacedPebble placed;
  std::size_t body;
};

double pebbleOverlapRatio(const PlacedPebble& p, const PlacedPebble& q, const Vec3& shiftOfQ) {
  const double overlap = p.radius + q.radius - std::sqrt(coreDistance2(p, q, shiftOfQ));
  return overlap > 0.0 ? overlap / std::min(p.radius, q.radius) : 0.0;
}

void keepWorst(InitialOverlap& worst, double ratio, std::size_t body, std::size_t other, int wall) {
  if (ratio > worst.ratio) worst = {ratio, body, other, wall};
}

// A spherocylinder by its shaft's ends.
void wallOverlap(const ScenePebble& s, const std::vector<Wall>& walls, InitialOverlap& worst) {
  const PlacedPebble& p = s.placed;
  const Vec3 shaft = p.halfLength * p.axis;
  for (std::size_t w = 0; w < walls.size(); ++w) {
    const double overlap =
        p.radius - std::min(walls[w].clearance(p.center - shaft), walls[w].clearance(p.center + shaft));
    if (overlap > 0.0) keepWorst(worst, overlap / p.radius, s.body, s.body, static_cast<int>(w));
  }
}

// With periodic axes: every two bodies through their nearest images (as contacts see them), after a
// test of their bounding spheres; O(N^2) in bodies, fine for the scenes a switch reports on.
void worstPeriodicOverlap(const Scene& scene, const std::vector<ScenePebble>& pebbles,
                          InitialOverlap& worst) {
  const PeriodicBox& box = scene.model.settings.periodic;
  std::vector<std::size_t> first(scene.bodies.size() + 1, 0);
  for (const ScenePebble& p : pebbles) ++first[p.body + 1];
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) first[b + 1] += first[b];
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const BodyInit& a = scene.bodies[i];
    const double ra = scene.model.templates[a.templateIndex]->boundingRadius;
    for (std::size_t j = i + 1; j < scene.bodies.size(); ++j) {
      const BodyInit& b = scene.bodies[j];
      const Vec3 shift = box.imageShift(b.position - a.position);
      const double reach = ra + scene.model.templates[b.templateIndex]->boundingRadius;
      if ((b.position + shift - a.position).squaredNorm() >= reach * reach) continue;
      for (std::size_t p = first[i]; p < first[i + 1]; ++p) {
        for (std::size_t q = first[j]; q < first[j + 1]; ++q) {
          keepWorst(worst, pebbleOverlapRatio(pebbles[p].placed, pebbles[q].placed, shift), i, j, -1);
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
  std::vector<ScenePebble> pebbles;
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    const BodyInit& body = scene.bodies[b];
    const Mat3 rotation = body.orientation.toRotationMatrix();
    for (const Pebble& p : scene.model.templates[body.templateIndex]->pebbles)
      pebbles.push_back({placePebble(p, body.position, rotation), b});
  }
  InitialOverlap worst;
  if (scene.model.settings.periodic.any()) {
    worstPeriodicOverlap(scene, pebbles, worst);
    for (const ScenePebble& p : pebbles) wallOverlap(p, scene.model.walls, worst);
    return worst;
  }
  // Sort and sweep along x: only pebbles whose x extents meet are compared.
  const auto lowestX = [](const ScenePebble& s) { return s.placed.center.x() - s.placed.reach(); };
  std::sort(pebbles.begin(), pebbles.end(),
            [&](const ScenePebble& a, const ScenePebble& b) { return lowestX(a) < lowestX(b); });
  for (std::size_t a = 0; a < pebbles.size(); ++a) {
    const ScenePebble& p = pebbles[a];
    wallOverlap(p, scene.model.walls, worst);
    const double highestX = p.placed.center.x() + p.placed.reach();
    for (std::size_t b = a + 1; b < pebbles.size(); ++b) {
      const ScenePebble& q = pebbles[b];
      if (lowestX(q) > highestX) break;  // no pebble further on meets p
      if (q.body == p.body) continue;
      keepWorst(worst, pebbleOverlapRatio(p.placed, q.placed, Vec3::Zero()), std::min(p.body, q.body),
                std::max(p.body, q.body), -1);
    }
  }
  return worst;
}

}  // namespace clumplab
