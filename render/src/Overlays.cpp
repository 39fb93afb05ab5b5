#include "Overlays.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "MeshWallOverlay.hpp"
#include "render/ColorMaps.hpp"

namespace clumplab::render {

namespace {

const QColor kVelocityColor(0x4c, 0xd9, 0x7b);
const QColor kAngularVelocityColor = angularVelocityColor();
const QColor kAngularMomentumColor = angularMomentumColor();
const QColor kContactColor(0xff, 0xe0, 0x6a, 230);
const QColor kDragColor(0xe8, 0xf4, 0xff, 235);
const QColor kEdgeColor(0xb8, 0xc2, 0xd0, 150);
const QColor kPatchColor(0x9c, 0xb4, 0xd2, 34);
const QColor kMembraneColor(0x3c, 0xc8, 0xb4, 46);  // teal, translucent
const QColor kMembraneGridColor(0x5a, 0xdc, 0xc8, 120);

Vec3 angularMomentum(const Snapshot& s, std::size_t b) {
  const std::uint32_t t = s.bodies.templateIndex[b];
  if (t >= s.templates.size() || !s.templates[t]) return Vec3::Zero();
  const Mat3 r = s.bodies.orientation[b].toRotationMatrix();
  const Vec3 bodyOmega = r.transpose() * s.bodies.angularVelocity[b];
  return r * s.templates[t]->principalMoments.cwiseProduct(bodyOmega);
}

// The bodies the per-body overlays are for: the selected one, or all.
std::vector<std::size_t> shownBodies(const Snapshot& s, int selected) {
  std::vector<std::size_t> out;
  if (selected >= 0 && static_cast<std::size_t>(selected) < s.bodies.size()) {
    out.push_back(static_cast<std::size_t>(selected));
  } else {
    for (std::size_t b = 0; b < s.bodies.size(); ++b) out.push_back(b);
  }
  return out;
}

void arrow(OverlayGeometry& out, const Vec3& from, const Vec3& vector, double length, double bodyR,
           const QColor& color) {
  const double n = vector.norm();
  if (!(n > 0.0) || !(length > 0.0)) return;
  const Vec3 dir = vector / n;
  const double head = std::min(0.35 * length, 0.45 * bodyR);
  const Vec3 tip = from + length * dir;
  const Vec3 base = tip - head * dir;
  out.annotated.add(from, base, color, 2.5f);
  out.solids.cone(base, tip, 0.38 * head, color);
}

// One family of arrows, the longest (of the largest vector) kLongestArrowRadii body radii.
template <typename VectorOf>
void arrows(OverlayGeometry& out, const Snapshot& s, const std::vector<std::size_t>& bodies,
            VectorOf vectorOf, const QColor& color) {
  double largest = 0.0;
  for (std::size_t b : bodies) largest = std::max(largest, vectorOf(b).norm());
  if (!(largest > 0.0) || !std::isfinite(largest)) return;
  for (std::size_t b : bodies) {
    const Vec3 v = vectorOf(b);
    const double r = bodyRadius(s, b);
    const double length =
        r * (kShortestArrowRadii + (kLongestArrowRadii - kShortestArrowRadii) * v.norm() / largest);
    arrow(out, s.bodies.position[b], v, length, r, color);
  }
}

void bodyCurve(OverlayGeometry& out, const Snapshot& s, const BodyCurve& curve) {
  if (curve.body < 0 || static_cast<std::size_t>(curve.body) >= s.bodies.size() || curve.points.size() < 2)
    return;
  const auto b = static_cast<std::size_t>(curve.body);
  const Mat3 r = s.bodies.orientation[b].toRotationMatrix();
  const Vec3 center = s.bodies.position[b];
  const double scale = bodyRadius(s, b);
  const auto place = [&](const Vec3& p) { return Vec3(center + scale * (r * p)); };
  Vec3 previous = place(curve.points.front());
  for (std::size_t i = 1; i < curve.points.size(); ++i) {
    const Vec3 next = place(curve.points[i]);
    out.annotated.add(previous, next, curve.color, curve.widthPx);
    previous = next;
  }
  if (curve.closed) out.annotated.add(previous, place(curve.points.front()), curve.color, curve.widthPx);
  if (curve.markLast) {
    out.onTop.dot(previous, QColor(20, 22, 26, 220), 3.0f * curve.widthPx + 3.0f);
    out.onTop.dot(previous, curve.color, 3.0f * curve.widthPx);
  }
}

}  // namespace

double bodyRadius(const Snapshot& s, std::size_t b) {
  const std::uint32_t t = s.bodies.templateIndex[b];
  if (t >= s.templates.size() || !s.templates[t]) return 0.0;
  const ClumpTemplate& tp = *s.templates[t];
  if (tp.boundingRadius > 0.0) return tp.boundingRadius;
  double r = 0.0;
  for (const Pebble& p : tp.pebbles) r = std::max(r, p.center.norm() + p.radius);
  return r;
}

void OverlayGeometry::clear() {
  tested.clear();
  annotated.clear();
  onTop.clear();
  solids.clear();
  patches.clear();
}

SceneBounds sceneBounds(const Snapshot& snapshot, const WallLayout& walls) {
  const SnapshotBodies& bodies = snapshot.bodies;
  const PeriodicBox& periodic = snapshot.periodic;
  if (bodies.size() > 0 || periodic.any() || !snapshot.inlets.empty()) {
    Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
    if (periodic.any()) {  // the periodic cell, whatever the bodies do
      lo = periodic.lower;
      hi = periodic.lower + periodic.length;
    }
    // Inlets' regions and the box they fill, before a body is in.
    for (const Inlet& inlet : snapshot.inlets) {
      Vec3 lower, upper;
      inlet.settings().region.bounds(lower, upper);
      lo = lo.cwiseMin(lower);
      hi = hi.cwiseMax(upper);
    }
    if (!snapshot.inlets.empty() && walls.box) {
      lo = lo.cwiseMin(walls.box->lower);
      hi = hi.cwiseMax(walls.box->upper);
    }
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      const double r = bodyRadius(snapshot, b);
      if (!bodies.position[b].allFinite()) continue;
      lo = lo.cwiseMin(bodies.position[b] - Vec3::Constant(r));
      hi = hi.cwiseMax(bodies.position[b] + Vec3::Constant(r));
    }
    growByMeshWalls(walls.meshes, snapshot.time, lo, hi);  // the container the bodies are in
    if (lo.allFinite() && hi.allFinite())
      return SceneBounds{0.5 * (lo + hi), std::max(0.5 * (hi - lo).norm(), 1e-9)};
  }
  if (walls.box)
    return SceneBounds{0.5 * (walls.box->lower + walls.box->upper),
                       0.5 * (walls.box->upper - walls.box->lower).norm()};
  if (!walls.cavities.empty())
    return SceneBounds{walls.cavities.front().point, walls.cavities.front().radius};
  return SceneBounds{};
}

namespace {

// The corners of the patch that shows a plane: the cross-section of `box` when there is one, the
// plane is axis-aligned and cuts it, else a square about the scene centre's foot on the plane.
std::array<Vec3, 4> planePatch(const Wall& w, const std::optional<Box>& clip, const SceneBounds& bounds) {
  const Vec3 n = w.normal.normalized();
  for (int a = 0; clip && a < 3; ++a) {
    const Box& box = *clip;
    if (std::abs(n[a]) < 1.0 - 1e-9 || w.point[a] <= box.lower[a] || w.point[a] >= box.upper[a]) continue;
    const int i = (a + 1) % 3, j = (a + 2) % 3;
    const auto corner = [&](bool upperI, bool upperJ) {
      Vec3 c = Vec3::Zero();
      c[a] = w.point[a];
      c[i] = upperI ? box.upper[i] : box.lower[i];
      c[j] = upperJ ? box.upper[j] : box.lower[j];
      return c;
    };
    return {corner(false, false), corner(true, false), corner(true, true), corner(false, true)};
  }
  const Vec3 foot = bounds.center - (bounds.center - w.point).dot(n) * n;
  const Vec3 u = n.cross(std::abs(n.z()) < 0.9 ? Vec3::UnitZ() : Vec3::UnitX()).normalized();
  const Vec3 v = n.cross(u);
  const double h = 1.3 * bounds.radius;
  return {foot - h * u - h * v, foot + h * u - h * v, foot + h * u + h * v, foot - h * u + h * v};
}

// A membrane: a tinted patch with a grid of about 16 meshes along its longer side.
void membraneOverlay(const std::array<Vec3, 4>& c, OverlayGeometry& out) {
  out.patches.quad(c[0], c[1], c[2], c[3], kMembraneColor);
  const Vec3 u = c[1] - c[0], v = c[3] - c[0];
  const double spacing = niceSpacing(std::max(u.norm(), v.norm()) / 16.0);
  const int nu = std::max(1, static_cast<int>(std::round(u.norm() / spacing)));
  const int nv = std::max(1, static_cast<int>(std::round(v.norm() / spacing)));
  for (int k = 0; k <= nu; ++k) {
    const Vec3 a = c[0] + (double(k) / nu) * u;
    out.tested.add(a, a + v, kMembraneGridColor, k == 0 || k == nu ? 1.6f : 0.8f);
  }
  for (int k = 0; k <= nv; ++k) {
    const Vec3 a = c[0] + (double(k) / nv) * v;
    out.tested.add(a, a + u, kMembraneGridColor, k == 0 || k == nv ? 1.6f : 0.8f);
  }
}

}  // namespace

void buildWallOverlays(const WallLayout& walls, const SceneBounds& bounds, OverlayGeometry& out) {
  if (walls.box) {
    const Vec3 &lo = walls.box->lower, &hi = walls.box->upper;
    const auto corner = [&](int i) {
      return Vec3(i & 1 ? hi.x() : lo.x(), i & 2 ? hi.y() : lo.y(), i & 4 ? hi.z() : lo.z());
    };
    for (int i = 0; i < 8; ++i) {
      for (int bit : {1, 2, 4}) {
        if (!(i & bit)) out.tested.add(corner(i), corner(i | bit), kEdgeColor, 1.3f);
      }
    }
  }
  for (const Wall& w : walls.membranes) membraneOverlay(planePatch(w, walls.box, bounds), out);
  for (const Wall& w : walls.otherPlanes) {
    // A patch on the plane, outlined.
    const std::array<Vec3, 4> c = planePatch(w, std::nullopt, bounds);
    out.patches.quad(c[0], c[1], c[2], c[3], kPatchColor);
    QColor edge = kEdgeColor;
    edge.setAlpha(90);
    for (int k = 0; k < 4; ++k)
      out.tested.add(c[static_cast<std::size_t>(k)], c[static_cast<std::size_t>((k + 1) % 4)], edge, 1.0f);
  }
}

void buildBodyOverlays(const Snapshot& s, const ViewOptions& options, OverlayGeometry& out) {
  const SnapshotBodies& bodies = s.bodies;
  const bool any = options.bodyAxes || options.velocityArrows || options.angularVelocityArrows ||
                   options.angularMomentumArrows;
  if (any) {
    const std::vector<std::size_t> shown = shownBodies(s, options.selectedBody);
    if (options.bodyAxes) {
      for (std::size_t b : shown) {
        const Mat3 r = bodies.orientation[b].toRotationMatrix();
        const double length = kAxisRadii * bodyRadius(s, b);
        for (int a = 0; a < 3; ++a)
          out.annotated.add(bodies.position[b], bodies.position[b] + length * r.col(a), principalAxisColor(a),
                            2.0f);
        out.onTop.dot(bodies.position[b], QColor(20, 22, 26, 220), 9.0f);
        out.onTop.dot(bodies.position[b], QColor(245, 245, 245), 5.5f);
      }
    }
    if (options.velocityArrows)
      arrows(
          out, s, shown, [&](std::size_t b) { return bodies.velocity[b]; }, kVelocityColor);
    if (options.angularVelocityArrows)
      arrows(
          out, s, shown, [&](std::size_t b) { return bodies.angularVelocity[b]; }, kAngularVelocityColor);
    if (options.angularMomentumArrows)
      arrows(
          out, s, shown, [&](std::size_t b) { return angularMomentum(s, b); }, kAngularMomentumColor);
  }
  for (const BodyCurve& curve : options.bodyCurves) bodyCurve(out, s, curve);
  if (options.contactPoints) {
    for (const Vec3& p : s.contactPoints) out.onTop.dot(p, kContactColor, 5.0f);
  }
  if (options.dragLine) {
    out.onTop.add(options.dragFrom, options.dragTo, kDragColor, 2.0f);
    out.onTop.dot(options.dragFrom, kDragColor, 7.0f);
    out.onTop.dot(options.dragTo, kDragColor, 5.0f);
  }
}

}  // namespace clumplab::render
