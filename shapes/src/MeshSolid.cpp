#include "shapes/MeshSolid.hpp"

#include <algorithm>

#include "MeshTopology.hpp"
#include "WindingField.hpp"

namespace clumplab::shapes {

namespace {

// Whether the winding number is 0 or 1 on both sides of every triangle (just in front of and just
// behind its centre and the points half way from it to each corner, offset along the normal by
// 1e-3 of the triangle's height): false when shells overlap (2 there) or one is inside out (-1).
bool windingZeroOrOneAtEveryFace(const TriangleBvh& bvh) {
  const TriangleMesh& m = bvh.mesh();
  for (std::size_t t = 0; t < m.size(); ++t) {
    const Vec3& a = m.corner(t, 0);
    const Vec3& b = m.corner(t, 1);
    const Vec3& c = m.corner(t, 2);
    const Vec3 twiceArea = (b - a).cross(c - a);
    const double longest = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
    if (!(twiceArea.norm() > 0.0) || !(longest > 0.0)) continue;
    const Vec3 offset = 1e-3 * (twiceArea.norm() / longest) * twiceArea.normalized();
    const Vec3 centre = (a + b + c) / 3.0;
    for (const Vec3& q :
         {centre, Vec3(0.5 * (centre + a)), Vec3(0.5 * (centre + b)), Vec3(0.5 * (centre + c))}) {
      for (const Vec3& p : {Vec3(q + offset), Vec3(q - offset)}) {
        const int w = bvh.windingNumber(p);
        if (w != 0 && w != 1) return false;
      }
    }
  }
  return true;
}

MeshSolid::InsideRule chooseRule(const TriangleBvh& bvh) {
  const detail::Topology topo = detail::analyse(bvh.mesh());
  bool consistent = topo.boundary.empty() && topo.nonManifoldEdges == 0;
  for (const auto& same : topo.sameDirection) consistent = consistent && !same[0] && !same[1] && !same[2];
  if (!consistent) return MeshSolid::InsideRule::WindingNumber;
  if (detail::countShells(topo) > 1 && !windingZeroOrOneAtEveryFace(bvh))
    return MeshSolid::InsideRule::WindingNumber;
  return MeshSolid::InsideRule::Crossings;
}

}  // namespace

MeshSolid::MeshSolid(std::shared_ptr<const TriangleMesh> mesh) : bvh_(std::move(mesh)) {
  rule_ = chooseRule(bvh_);
  if (rule_ == InsideRule::WindingNumber) winding_ = std::make_shared<const detail::WindingField>(bvh_);
}

MeshSolid::MeshSolid(std::shared_ptr<const TriangleMesh> mesh, InsideRule rule)
    : bvh_(std::move(mesh)), rule_(rule) {
  if (rule_ == InsideRule::WindingNumber) winding_ = std::make_shared<const detail::WindingField>(bvh_);
}

void MeshSolid::bounds(Vec3& lower, Vec3& upper) const {
  lower = bvh_.lower();
  upper = bvh_.upper();
}

bool MeshSolid::contains(const Vec3& point) const {
  if (winding_) return winding_->contains(bvh_, point);
  if ((point.array() < bvh_.lower().array()).any() || (point.array() > bvh_.upper().array()).any())
    return false;
  return bvh_.windingNumber(point) != 0;
}

double MeshSolid::windingNumber(const Vec3& p) const {
  return winding_ ? winding_->at(bvh_, p) : static_cast<double>(bvh_.windingNumber(p));
}

std::size_t MeshSolid::openEdges() const {
  return winding_ ? winding_->openEdges() : 0;
}

void MeshSolid::spansAlongX(double y, double z, std::vector<Span>& out) const {
  if (winding_) {
    winding_->spansAlongX(bvh_, y, z, out);
    return;
  }
  out.clear();
  thread_local std::vector<TriangleBvh::Crossing> crossings;
  bvh_.crossingsAlongX(y, z, crossings);
  if (crossings.empty()) return;
  std::sort(crossings.begin(), crossings.end(),
            [](const TriangleBvh::Crossing& a, const TriangleBvh::Crossing& b) { return a.x < b.x; });
  // The winding number of points left of every crossing is the sum of all signs (0 for a closed
  // mesh); passing a crossing towards +x removes its sign from the points' sum.
  int winding = 0;
  for (const auto& c : crossings) winding += c.sign;
  double begin = 0.0;
  for (const auto& c : crossings) {
    const int before = winding;
    winding -= c.sign;
    if (before == 0 && winding != 0) begin = c.x;
    if (before != 0 && winding == 0 && c.x > begin) out.push_back({begin, c.x});
  }
  mergeSpans(out);
}

double MeshSolid::distanceToSurface(const Vec3& p, double maxDistance) const {
  return bvh_.closest(p, maxDistance).distance;
}

double MeshSolid::signedDistance(const Vec3& p) const {
  const double d = distanceToSurface(p);
  return contains(p) ? d : -d;
}

}  // namespace clumplab::shapes
