#include "shapes/MeshSolid.hpp"

#include <algorithm>

namespace clumplab::shapes {

MeshSolid::MeshSolid(std::shared_ptr<const TriangleMesh> mesh) : bvh_(std::move(mesh)) {}

void MeshSolid::bounds(Vec3& lower, Vec3& upper) const {
  lower = bvh_.lower();
  upper = bvh_.upper();
}

bool MeshSolid::contains(const Vec3& point) const {
  if ((point.array() < bvh_.lower().array()).any() || (point.array() > bvh_.upper().array()).any())
    return false;
  return bvh_.windingNumber(point) != 0;
}

void MeshSolid::spansAlongX(double y, double z, std::vector<Span>& out) const {
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

}  // namespace clumplab::shapes
