#include "core/world/ClearSpot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace clumplab {

namespace {
// Two unit vectors across `up`, at right angles to each other.
void acrossAxes(const Vec3& up, Vec3& e1, Vec3& e2) {
  e1 = up.unitOrthogonal();
  e2 = up.cross(e1);
}

// A wall steep enough to count as a side (a box's side, a steep funnel), not a floor or a lid.
bool isSide(const Wall& w, const Vec3& up) {
  return w.kind == Wall::Kind::Plane && std::abs(w.normal.dot(up)) < 0.5;
}

constexpr int kRings = 12;  // columns around the first one, each ring half a bounding radius wider
}  // namespace

ClearSpotFinder::ClearSpotFinder(const std::vector<PlacedBody>& bodies, const std::vector<Wall>& walls,
                                 double time, const PeriodicBox& periodic, const Vec3& up,
                                 double largestBoundingRadius, const PlaneConstraint& plane)
    : occupied_(largestBoundingRadius, periodic),
      walls_(walls),
      time_(time),
      up_(up.norm() > 0.0 ? Vec3(up.normalized()) : Vec3::UnitZ()),
      plane_(plane),
      top_(-std::numeric_limits<double>::infinity()) {
  for (const PlacedBody& b : bodies) add(b);
}

void ClearSpotFinder::add(const PlacedBody& body) {
  occupied_.add(body);
  top_ = std::max(top_, body.position.dot(up_) + body.shape->boundingRadius);
}

bool ClearSpotFinder::clear(const Vec3& position, const ClumpTemplate& shape, const Quat& orientation) const {
  const PlacedBody candidate{position, orientation, &shape};
  return clearOfWalls(candidate, walls_, time_) && !occupied_.overlapsAny(candidate);
}

std::optional<Vec3> ClearSpotFinder::lowestClearInColumn(const Vec3& foot, const ClumpTemplate& shape,
                                                         const Quat& orientation, double step) const {
  // Two bounding radii above the highest reach of every body, the starting point and every floor
  // (a plane facing up) under the column, only walls can be in the way.
  const double h0 = foot.dot(up_);
  double highest = std::max(h0, top_);
  for (const Wall& w : walls_) {
    const double facingUp = w.normal.dot(up_);
    if (w.kind == Wall::Kind::Plane && facingUp >= 0.5)
      highest = std::max(highest, h0 + (w.point - foot).dot(w.normal) / facingUp);
  }
  const double hTop = highest + 2.0 * shape.boundingRadius + step;
  const auto count = static_cast<long>(std::ceil((hTop - h0) / step));
  for (long k = 0; k <= count; ++k) {
    const Vec3 p = foot + std::min(static_cast<double>(k) * step, hTop - h0) * up_;
    if (clear(p, shape, orientation)) return p;
  }
  return std::nullopt;
}

Vec3 ClearSpotFinder::insidePlaneWalls(const Vec3& point, double boundingRadius) const {
  // Moving across `up` by t n_h changes the clearance to a plane of normal n by t |n_h|^2; a few
  // sweeps settle a corner of two sides.
  Vec3 x = point;
  for (int sweep = 0; sweep < 4; ++sweep) {
    for (const Wall& w : walls_) {
      if (!isSide(w, up_)) continue;
      const Vec3 across = w.normal - w.normal.dot(up_) * up_;
      const double d = (x - w.point).dot(w.normal);
      if (d < boundingRadius) x += across * ((boundingRadius - d) / across.squaredNorm());
    }
  }
  return x;
}

std::optional<Vec3> ClearSpotFinder::dropAbove(const Vec3& point, const ClumpTemplate& shape,
                                               const Quat& orientation) const {
  const double radius = shape.boundingRadius;
  const double step = 0.25 * radius;
  const auto dropped = [&](const Vec3& p) {
    const Vec3 higher = p + 0.1 * radius * up_;
    return clear(higher, shape, orientation) ? higher : p;
  };
  Vec3 start = insidePlaneWalls(point, radius * (1.0 + 1e-9));  // tangent is not clear after rounding
  if (plane_.enabled) start = plane_.onPlane(start);
  if (auto p = lowestClearInColumn(start, shape, orientation, step)) return dropped(*p);
  // Rings of columns around it; in the first ring with room, the lowest clear pose.
  Vec3 e1, e2;
  acrossAxes(up_, e1, e2);
  for (int ring = 1; ring <= kRings; ++ring) {
    std::optional<Vec3> best;
    const int columns = 6 * ring;
    for (int j = 0; j < columns; ++j) {
      const double angle = 2.0 * std::numbers::pi * j / columns;
      Vec3 across = std::cos(angle) * e1 + std::sin(angle) * e2;
      if (plane_.enabled) across = plane_.inPlane(across);  // columns in the 2D plane only
      const Vec3 foot = start + 0.5 * radius * ring * across;
      const bool outsideASide = std::any_of(walls_.begin(), walls_.end(), [&](const Wall& w) {
        return isSide(w, up_) && (foot - w.point).dot(w.normal) < 0.0;
      });
      if (outsideASide) continue;
      const auto p = lowestClearInColumn(foot, shape, orientation, step);
      if (p && (!best || p->dot(up_) < best->dot(up_))) best = p;
    }
    if (best) return dropped(*best);
  }
  return std::nullopt;
}

std::optional<Vec3> ClearSpotFinder::shotStart(const Vec3& from, const Vec3& target,
                                               const ClumpTemplate& shape, const Quat& orientation) const {
  const Vec3 start = plane_.enabled ? plane_.onPlane(from) : from;
  const Vec3 way = (plane_.enabled ? plane_.onPlane(target) : target) - start;
  const double length = way.norm();
  const double step = 0.25 * shape.boundingRadius;
  const auto count = static_cast<long>(std::floor(length / step));
  for (long k = 0; k <= count; ++k) {
    const Vec3 p = length > 0.0 ? Vec3(start + (static_cast<double>(k) * step / length) * way) : start;
    if (clear(p, shape, orientation)) return p;
  }
  return std::nullopt;
}

}  // namespace clumplab
