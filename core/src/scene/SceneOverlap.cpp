#include "core/scene/SceneOverlap.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "collision/CellGrid.hpp"
#include "core/clump/PlacedPebble.hpp"

namespace clumplab {

namespace {
// The scene's pebbles placed, compactly (a million pebbles load beside them): the centres in one
// array, which the grid bins, and for each its body and its number in the body's template; the rest
// of a placed pebble (radius, shaft) is the template's, placed when a pair is tested.
struct ScenePebbles {
  const Scene& scene;
  std::vector<Vec3> center;  // world [m]
  std::vector<std::uint32_t> body, index;
  std::vector<std::size_t> bodyFirst;  // body b's pebbles are [bodyFirst[b], bodyFirst[b + 1])

  explicit ScenePebbles(const Scene& s) : scene(s) {
    const std::size_t n = s.pebbleCount();
    center.reserve(n);
    body.reserve(n);
    index.reserve(n);
    bodyFirst.reserve(s.bodies.size() + 1);
    for (std::size_t b = 0; b < s.bodies.size(); ++b) {
      bodyFirst.push_back(center.size());
      const BodyInit& init = s.bodies[b];
      const Mat3 rotation = init.orientation.toRotationMatrix();
      const std::vector<Pebble>& pebbles = s.model.templates[init.templateIndex]->pebbles;
      for (std::size_t i = 0; i < pebbles.size(); ++i) {
        center.push_back(placePebble(pebbles[i], init.position, rotation).center);
        body.push_back(static_cast<std::uint32_t>(b));
        index.push_back(static_cast<std::uint32_t>(i));
      }
    }
    bodyFirst.push_back(center.size());
  }
  std::size_t size() const { return center.size(); }
  const Pebble& pebble(std::size_t k) const {
    return scene.model.templates[scene.bodies[body[k]].templateIndex]->pebbles[index[k]];
  }
  // Pebble k as placePebble places it.
  PlacedPebble placed(std::size_t k) const {
    const Pebble& p = pebble(k);
    if (p.isSphere()) return {center[k], Vec3::UnitZ(), p.radius, 0.0, index[k]};
    return {center[k], scene.bodies[body[k]].orientation.toRotationMatrix() * p.axis, p.radius, p.halfLength,
            index[k]};
  }
};

double pebbleOverlapRatio(const PlacedPebble& p, const PlacedPebble& q, const Vec3& shiftOfQ) {
  const double overlap = p.radius + q.radius - std::sqrt(coreDistance2(p, q, shiftOfQ));
  return overlap > 0.0 ? overlap / std::min(p.radius, q.radius) : 0.0;
}

void keepWorst(InitialOverlap& worst, double ratio, std::size_t body, std::size_t other, int wall) {
  if (ratio > worst.ratio) worst = {ratio, body, other, wall};
}

// A spherocylinder by its shaft's ends.
void wallOverlap(const ScenePebbles& pebbles, std::size_t k, const std::vector<Wall>& walls,
                 InitialOverlap& worst) {
  const PlacedPebble p = pebbles.placed(k);
  const std::size_t body = pebbles.body[k];
  const Vec3 shaft = p.halfLength * p.axis;
  for (std::size_t w = 0; w < walls.size(); ++w) {
    const double overlap =
        p.radius - std::min(walls[w].clearance(p.center - shaft), walls[w].clearance(p.center + shaft));
    if (overlap > 0.0) keepWorst(worst, overlap / p.radius, body, body, static_cast<int>(w));
  }
}

// Ties go to the lowest pair of bodies, whatever order the search visits them in.
void keepWorstPair(InitialOverlap& worst, double ratio, std::size_t body, std::size_t other) {
  if (ratio > worst.ratio || (ratio == worst.ratio && ratio > 0.0 && worst.wall < 0 &&
                              std::pair(body, other) < std::pair(worst.body, worst.other))) {
    worst = {ratio, body, other, -1};
  }
}

// Every pebble against the pebbles of other bodies whose centres lie within its reach and the
// largest reach, through a cell grid of the centres: O(N) for a scene of N pebbles.
void worstOpenOverlap(const ScenePebbles& pebbles, InitialOverlap& worst) {
  double maxReach = 0.0;
  for (std::size_t k = 0; k < pebbles.size(); ++k) maxReach = std::max(maxReach, pebbles.pebble(k).reach());
  const PeriodicBox open;
  CellGrid grid;
  grid.build(pebbles.center, 2.0 * maxReach, open);
  for (std::size_t a = 0; a < pebbles.size(); ++a) {
    const PlacedPebble p = pebbles.placed(a);
    // Two pebbles overlap only if their centres are closer than the sum of their reaches.
    const double halfWidth = (p.reach() + maxReach) * (1.0 + 1e-9);
    searchCells(grid, open, p.center, Vec3::Constant(halfWidth),
                [&](std::uint32_t first, std::uint32_t last) {
                  for (std::uint32_t k = first; k < last; ++k) {
                    const std::uint32_t b = grid.item[k];
                    if (b <= a || pebbles.body[b] == pebbles.body[a]) continue;
                    const std::size_t bodyA = pebbles.body[a], bodyB = pebbles.body[b];
                    keepWorstPair(worst, pebbleOverlapRatio(p, pebbles.placed(b), Vec3::Zero()),
                                  std::min(bodyA, bodyB), std::max(bodyA, bodyB));
                  }
                });
  }
}

// With periodic axes: every two bodies through their nearest images (as contacts see them), after a
// test of their bounding spheres; the candidates come from a cell grid of the body centres wrapped
// into the box.
void worstPeriodicOverlap(const Scene& scene, const ScenePebbles& pebbles, InitialOverlap& worst) {
  const PeriodicBox& box = scene.model.settings.periodic;
  const std::size_t n = scene.bodies.size();
  const std::vector<std::size_t>& first = pebbles.bodyFirst;
  std::vector<Vec3> wrapped;
  wrapped.reserve(n);
  double maxBounding = 0.0;
  for (const BodyInit& body : scene.bodies) {
    wrapped.push_back(box.wrap(body.position));
    maxBounding = std::max(maxBounding, scene.model.templates[body.templateIndex]->boundingRadius);
  }
  CellGrid grid;
  grid.build(wrapped, 2.0 * maxBounding, box);
  for (std::size_t i = 0; i < n; ++i) {
    const BodyInit& a = scene.bodies[i];
    const double ra = scene.model.templates[a.templateIndex]->boundingRadius;
    const double halfWidth = (ra + maxBounding) * (1.0 + 1e-9);
    searchCells(grid, box, wrapped[i], Vec3::Constant(halfWidth), [&](std::uint32_t from, std::uint32_t to) {
      for (std::uint32_t k = from; k < to; ++k) {
        const std::size_t j = grid.item[k];
        if (j <= i) continue;
        const BodyInit& b = scene.bodies[j];
        const Vec3 shift = box.imageShift(b.position - a.position);
        const double reach = ra + scene.model.templates[b.templateIndex]->boundingRadius;
        if ((b.position + shift - a.position).squaredNorm() >= reach * reach) continue;
        for (std::size_t p = first[i]; p < first[i + 1]; ++p) {
          const PlacedPebble placed = pebbles.placed(p);
          for (std::size_t q = first[j]; q < first[j + 1]; ++q)
            keepWorstPair(worst, pebbleOverlapRatio(placed, pebbles.placed(q), shift), i, j);
        }
      }
    });
  }
}
}  // namespace

double worstInitialOverlap(const Scene& scene) {
  return worstInitialOverlapOf(scene).ratio;
}

InitialOverlap worstInitialOverlapOf(const Scene& scene) {
  const ScenePebbles pebbles(scene);
  InitialOverlap worst;
  for (std::size_t k = 0; k < pebbles.size(); ++k) wallOverlap(pebbles, k, scene.model.walls, worst);
  if (scene.model.settings.periodic.any()) {
    worstPeriodicOverlap(scene, pebbles, worst);
  } else {
    worstOpenOverlap(pebbles, worst);
  }
  return worst;
}

}  // namespace clumplab
