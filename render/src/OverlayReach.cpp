#include "render/OverlayReach.hpp"

#include <algorithm>

#include "Overlays.hpp"

namespace clumplab::render {

double overlayReach(const Snapshot& snapshot, const ViewOptions& options, std::size_t body) {
  if (body >= snapshot.bodies.size()) return 0.0;
  double radii = 1.0;  // [bounding radii]
  if (options.bodyAxes) radii = std::max(radii, kAxisRadii);
  if (options.velocityArrows || options.angularVelocityArrows || options.angularMomentumArrows)
    radii = std::max(radii, kLongestArrowRadii);
  for (const BodyCurve& curve : options.bodyCurves) {
    if (curve.body < 0 || static_cast<std::size_t>(curve.body) != body) continue;
    for (const Vec3& p : curve.points) radii = std::max(radii, p.norm());
  }
  return radii * bodyRadius(snapshot, body);
}

}  // namespace clumplab::render
