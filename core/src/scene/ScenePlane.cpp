#include "core/scene/ScenePlane.hpp"

#include <algorithm>
#include <limits>

namespace clumplab {

void confineToPlane(Scene& scene, const PlaneConstraint& plane) {
  scene.model.settings.plane = plane;
  if (!plane.enabled) return;
  for (BodyInit& b : scene.bodies) plane.confine(b.position, b.velocity, b.angularVelocity);
}

PlaneConstraint planeThroughBodies(const Scene& scene, int axis) {
  PlaneConstraint plane;
  plane.enabled = true;
  plane.normal = Vec3::Unit(axis);
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const BodyInit& b : scene.bodies) {
    lo = std::min(lo, b.position[axis]);
    hi = std::max(hi, b.position[axis]);
  }
  plane.offset = scene.bodies.empty() ? 0.0 : 0.5 * (lo + hi);
  return plane;
}

}  // namespace clumplab
