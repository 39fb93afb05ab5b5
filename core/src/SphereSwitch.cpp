#include "core/SphereSwitch.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace clumplab {

std::string_view sphereKindName(SphereKind kind) {
  return kind == SphereKind::Bounding ? "bounding" : "volume";
}

namespace {
double volumeOf(const ClumpTemplate& t) {
  if (t.volume > 0.0) return t.volume;
  if (t.density > 0.0) return t.mass / t.density;
  return 0.0;
}

}  // namespace

ClumpTemplate sphereTemplate(const ClumpTemplate& clump, SphereKind kind) {
  double radius = clump.boundingRadius;
  if (kind == SphereKind::VolumeEquivalent && volumeOf(clump) > 0.0) {
    radius = std::cbrt(3.0 * volumeOf(clump) / (4.0 * std::numbers::pi));
  }
  ClumpTemplate s;
  s.name = clump.name + " (sphere)";
  s.pebbles = {{Vec3::Zero(), radius}};
  s.mass = clump.mass;
  s.volume = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  s.density = s.mass / s.volume;
  s.principalMoments = Vec3::Constant(0.4 * clump.mass * radius * radius);  // uniform ball: 2/5 m r^2
  s.rotationFromInput = clump.rotationFromInput;
  s.centerOfMassInInput = clump.centerOfMassInInput;
  s.boundingRadius = radius;
  s.minPebbleRadius = radius;
  s.inertiaMethod = "sphere";
  return s;
}

double worstBoundingOverlap(const Scene& scene) {
  double worst = 0.0;
  // Sort and sweep along x: only spheres whose x extents meet are compared.
  const auto radiusOf = [&](std::size_t i) {
    return scene.templates[scene.bodies[i].templateIndex]->boundingRadius;
  };
  std::vector<std::size_t> order(scene.bodies.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return scene.bodies[a].position.x() - radiusOf(a) < scene.bodies[b].position.x() - radiusOf(b);
  });
  for (std::size_t a = 0; a < order.size(); ++a) {
    const std::size_t i = order[a];
    const double ri = radiusOf(i);
    const Vec3& xi = scene.bodies[i].position;
    for (const Wall& w : scene.walls) {
      const double overlap = ri - w.clearance(xi);
      if (overlap > 0.0) worst = std::max(worst, overlap / ri);
    }
    for (std::size_t b = a + 1; b < order.size(); ++b) {
      const std::size_t j = order[b];
      const double rj = radiusOf(j);
      if (scene.bodies[j].position.x() - rj > xi.x() + ri) break;  // sorted by left edge: none further meets
      const double overlap = ri + rj - (xi - scene.bodies[j].position).norm();
      if (overlap > 0.0) worst = std::max(worst, overlap / std::min(ri, rj));
    }
  }
  return worst;
}

}  // namespace clumplab
