#pragma once
// The solid a surface that is not a closed manifold bounds (private to shapes; MeshSolid's
// winding-number rule): the points of the surface's bounding box where its generalized winding
// number w is at least 1/2 (WindingNumber.hpp).
#include <vector>

#include "core/clump/Solid.hpp"
#include "shapes/TriangleBvh.hpp"
#include "shapes/WindingNumber.hpp"

namespace clumplab::shapes::detail {

class WindingField {
 public:
  explicit WindingField(const TriangleBvh& bvh);

  // w(p): the crossing count when the surface has no open edges (then w is an integer off the
  // surface), the hierarchical sum otherwise.
  double at(const TriangleBvh& bvh, const Vec3& p) const;
  bool contains(const TriangleBvh& bvh, const Vec3& p) const;

  // Where w >= 1/2 along the line {(x, y, z)} within the box. Along the line w = r + d, where r is
  // the signed count of crossings beyond x (exact, piecewise constant) and d = w - r is continuous:
  // the two jump together at every crossing. d is sampled with adaptive steps (it may change by at
  // most 0.1 from one sample to the next; steps from the box's length down to 1/1024 of its
  // diagonal) and interpolated linearly between samples; the spans' ends are the crossings and the
  // points where r + d passes 1/2. Without open edges d = 0 and the spans are exact. A hole narrower
  // than the steps near a line that passes by it without crossing it may be missed: the error stays
  // within a step of the hole's rim.
  void spansAlongX(const TriangleBvh& bvh, double y, double z, std::vector<Span>& out) const;

  // Edges whose triangles' directed uses do not cancel (a hole's rim, a non-manifold edge of an
  // odd count, neighbours that disagree in orientation): where w is not an integer nearby.
  std::size_t openEdges() const { return openEdgeCount_; }

 private:
  std::size_t openEdgeCount_ = 0;
  WindingNumberTree tree_;
};

}  // namespace clumplab::shapes::detail
