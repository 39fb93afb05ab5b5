#include "shapes/TriangleBvh.hpp"

#include <algorithm>
#include <stdexcept>

#include "Orient2d.hpp"
#include "core/clump/ClosestPointOnTriangle.hpp"

namespace clumplab::shapes {

TriangleBvh::TriangleBvh(std::shared_ptr<const TriangleMesh> mesh) : mesh_(std::move(mesh)) {
  if (!mesh_ || mesh_->triangles.empty())
    throw std::invalid_argument("a hierarchy needs a mesh with triangles");
  if (mesh_->triangles.size() >= (1u << 31)) throw std::invalid_argument("too many triangles");
  const auto n = static_cast<std::uint32_t>(mesh_->triangles.size());
  order_.reserve(n);
  std::vector<Vec3> centroids;
  centroids.reserve(n);
  for (std::uint32_t t = 0; t < n; ++t) {
    order_.push_back(t);
    centroids.push_back((mesh_->corner(t, 0) + mesh_->corner(t, 1) + mesh_->corner(t, 2)) / 3.0);
  }
  nodes_.reserve(static_cast<std::size_t>(n) / 2 + 1);
  nodes_.emplace_back();
  build(0, 0, n, centroids);
}

// Median split along the longest axis of the centroids' box; leaves of at most 4 triangles. The
// depth stays below log2(n) + 1, well inside the traversal stacks. Fills node `index`.
void TriangleBvh::build(std::uint32_t index, std::uint32_t begin, std::uint32_t end,
                        std::vector<Vec3>& centroids) {
  Vec3 lower = Vec3::Constant(std::numeric_limits<double>::infinity()), upper = -lower;
  Vec3 cLower = lower, cUpper = upper;
  for (std::uint32_t k = begin; k < end; ++k) {
    const std::uint32_t t = order_[k];
    for (int c = 0; c < 3; ++c) {
      lower = lower.cwiseMin(mesh_->corner(t, c));
      upper = upper.cwiseMax(mesh_->corner(t, c));
    }
    cLower = cLower.cwiseMin(centroids[t]);
    cUpper = cUpper.cwiseMax(centroids[t]);
  }
  nodes_[index].lower = lower;
  nodes_[index].upper = upper;
  if (end - begin <= 4) {
    nodes_[index].first = begin;
    nodes_[index].count = end - begin;
    return;
  }
  Eigen::Index axis = 0;
  (cUpper - cLower).maxCoeff(&axis);
  const std::uint32_t mid = begin + (end - begin) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                   [&](std::uint32_t a, std::uint32_t b) { return centroids[a][axis] < centroids[b][axis]; });
  // The two children sit next to each other.
  const auto left = static_cast<std::uint32_t>(nodes_.size());
  nodes_[index].first = left;
  nodes_[index].count = 0;
  nodes_.emplace_back();
  nodes_.emplace_back();
  build(left, begin, mid, centroids);
  build(left + 1, mid, end, centroids);
}

namespace {
// The sign of the edge function of the directed edge p -> q at the line's point (y, z), perturbed
// symbolically by (eps, eps^2) in (y, z) when it is exactly zero (simulation of simplicity), so
// it is never zero unless the edge projects to a point.
int edgeSign(const Vec3& p, const Vec3& q, double y, double z) {
  const int s = detail::orient2dSign(p.y(), p.z(), q.y(), q.z(), y, z);
  if (s != 0) return s;
  // d/dy of (q - p) x (r - p) at r = (y, z) is -(q_z - p_z); d/dz is (q_y - p_y).
  if (q.z() != p.z()) return q.z() < p.z() ? 1 : -1;
  if (q.y() != p.y()) return q.y() > p.y() ? 1 : -1;
  return 0;
}
}  // namespace

bool TriangleBvh::crossesAlongX(std::uint32_t t, double y, double z, double& x, int& sign) const {
  const Vec3& a = mesh_->corner(t, 0);
  const Vec3& b = mesh_->corner(t, 1);
  const Vec3& c = mesh_->corner(t, 2);
  const int sa = edgeSign(b, c, y, z), sb = edgeSign(c, a, y, z), sc = edgeSign(a, b, y, z);
  if (sa == 0 || sa != sb || sb != sc) return false;
  sign = sa;  // counter-clockwise in (y, z) <=> normal x component > 0
  // Barycentric weights from the (unperturbed) edge functions; the point is inside or on the edge.
  const auto edge = [&](const Vec3& p, const Vec3& q) {
    return (q.y() - p.y()) * (z - p.z()) - (q.z() - p.z()) * (y - p.y());
  };
  const double wa = edge(b, c), wb = edge(c, a), wc = edge(a, b);
  const double sum = wa + wb + wc;
  x = sum != 0.0 ? (wa * a.x() + wb * b.x() + wc * c.x()) / sum : (a.x() + b.x() + c.x()) / 3.0;
  // Round-off can push x just outside the triangle's x-range; keep it inside.
  x = std::clamp(x, std::min({a.x(), b.x(), c.x()}), std::max({a.x(), b.x(), c.x()}));
  return true;
}

void TriangleBvh::crossingsAlongX(double y, double z, std::vector<Crossing>& out) const {
  out.clear();
  traverseLine(y, z, -std::numeric_limits<double>::infinity(), [&](std::uint32_t t) {
    Crossing c;
    if (crossesAlongX(t, y, z, c.x, c.sign)) {
      c.triangle = t;
      out.push_back(c);
    }
  });
}

int TriangleBvh::windingNumber(const Vec3& p) const {
  int winding = 0;
  forEachCrossingBeyond(p, [&](std::uint32_t, int sign) { winding += sign; });
  return winding;
}

namespace {
double boxDistance2(const Vec3& p, const Vec3& lower, const Vec3& upper) {
  const Vec3 d = (lower - p).cwiseMax(p - upper).cwiseMax(0.0);
  return d.squaredNorm();
}
}  // namespace

TriangleBvh::Closest TriangleBvh::closest(const Vec3& p, double maxDistance) const {
  Closest best;
  double best2 = maxDistance * maxDistance;
  struct Entry {
    std::uint32_t node;
    double distance2;
  };
  Entry stack[128];
  int top = 0;
  stack[top++] = {0, boxDistance2(p, nodes_[0].lower, nodes_[0].upper)};
  while (top > 0) {
    const Entry e = stack[--top];
    if (e.distance2 > best2) continue;
    const Node& n = nodes_[e.node];
    if (n.count > 0) {
      for (std::uint32_t k = n.first; k < n.first + n.count; ++k) {
        const std::uint32_t t = order_[k];
        const Vec3 q = closestOnTriangle(p, mesh_->corner(t, 0), mesh_->corner(t, 1), mesh_->corner(t, 2));
        const double d2 = (q - p).squaredNorm();
        if (d2 <= best2) {
          best2 = d2;
          best.point = q;
          best.triangle = t;
          best.distance = std::sqrt(d2);
        }
      }
      continue;
    }
    // Visit the nearer child first: push it last.
    const Entry left{n.first, boxDistance2(p, nodes_[n.first].lower, nodes_[n.first].upper)};
    const Entry right{n.first + 1, boxDistance2(p, nodes_[n.first + 1].lower, nodes_[n.first + 1].upper)};
    if (left.distance2 < right.distance2) {
      if (right.distance2 <= best2) stack[top++] = right;
      if (left.distance2 <= best2) stack[top++] = left;
    } else {
      if (left.distance2 <= best2) stack[top++] = left;
      if (right.distance2 <= best2) stack[top++] = right;
    }
  }
  return best;
}

}  // namespace clumplab::shapes
