#pragma once
// A bounding-volume hierarchy over a mesh's triangles: exact crossings of x-parallel lines (for
// inside tests, spans and winding numbers) and closest points (distances to the surface).
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "core/clump/TriangleMesh.hpp"

namespace clumplab::shapes {

class TriangleBvh {
 public:
  // The mesh is shared, not copied; it must not change while the hierarchy exists.
  explicit TriangleBvh(std::shared_ptr<const TriangleMesh> mesh);

  // Where the line {(x, y, z) : x real} passes through a triangle. sign is the sign of the
  // triangle's normal's x component: +1 where the line leaves the solid (moving towards +x) through
  // an outward-facing surface, -1 where it enters.
  struct Crossing {
    double x = 0.0;
    int sign = 0;
    std::uint32_t triangle = 0;
  };
  // Every crossing (unsorted). Points on edges and vertices are resolved by exact predicates and a
  // symbolic perturbation of the line, so a line through a shared edge or vertex of a closed mesh
  // crosses it exactly once: the result is exact for any line.
  void crossingsAlongX(double y, double z, std::vector<Crossing>& out) const;

  // The winding number of the surface around p: the sum of the signs of the crossings beyond p.x.
  // 1 inside a closed outward mesh, 0 outside, and 0 inside a cavity bounded by an inward shell.
  int windingNumber(const Vec3& p) const;

  // How often the line from p towards +x crosses each shell (by triangle), for nesting tests:
  // calls `visit(triangle)` for each crossing beyond p.x.
  template <class Visit>
  void forEachCrossingBeyond(const Vec3& p, Visit&& visit) const;

  struct Closest {
    double distance = std::numeric_limits<double>::infinity();  // [m]
    Vec3 point = Vec3::Zero();
    std::uint32_t triangle = 0;
  };
  // The nearest point of the surface, searched within maxDistance (infinite distance if none).
  Closest closest(const Vec3& p, double maxDistance = std::numeric_limits<double>::infinity()) const;

  const TriangleMesh& mesh() const { return *mesh_; }
  const std::shared_ptr<const TriangleMesh>& sharedMesh() const { return mesh_; }
  const Vec3& lower() const { return nodes_.front().lower; }
  const Vec3& upper() const { return nodes_.front().upper; }

  // The hierarchy itself, for evaluations of their own (WindingNumberTree): node 0 is the root, an
  // inner node's children are `first` and `first + 1`, a leaf holds the triangles
  // triangleOrder()[first .. first + count).
  struct Node {
    Vec3 lower, upper;
    std::uint32_t first = 0;  // leaf: first index into order_; inner: index of the left child
    std::uint32_t count = 0;  // leaf: number of triangles; inner: 0 (right child = left + 1)
  };
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<std::uint32_t>& triangleOrder() const { return order_; }

 private:
  void build(std::uint32_t index, std::uint32_t begin, std::uint32_t end, std::vector<Vec3>& centroids);
  // Whether the line through (y, z) crosses triangle t; x and sign when it does.
  bool crossesAlongX(std::uint32_t t, double y, double z, double& x, int& sign) const;
  template <class Leaf>
  void traverseLine(double y, double z, double xMin, Leaf&& leaf) const;

  std::shared_ptr<const TriangleMesh> mesh_;
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> order_;  // triangle indices, leaves' ranges
};

template <class Leaf>
void TriangleBvh::traverseLine(double y, double z, double xMin, Leaf&& leaf) const {
  std::uint32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    if (y < n.lower.y() || y > n.upper.y() || z < n.lower.z() || z > n.upper.z() || n.upper.x() < xMin)
      continue;
    if (n.count > 0) {
      for (std::uint32_t k = n.first; k < n.first + n.count; ++k) leaf(order_[k]);
    } else {
      stack[top++] = n.first;
      stack[top++] = n.first + 1;
    }
  }
}

template <class Visit>
void TriangleBvh::forEachCrossingBeyond(const Vec3& p, Visit&& visit) const {
  traverseLine(p.y(), p.z(), p.x(), [&](std::uint32_t t) {
    double x = 0.0;
    int sign = 0;
    if (crossesAlongX(t, p.y(), p.z(), x, sign) && x > p.x()) visit(t, sign);
  });
}

}  // namespace clumplab::shapes
