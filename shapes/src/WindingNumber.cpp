#include "shapes/WindingNumber.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace clumplab::shapes {

namespace {
constexpr double kFourPi = 4.0 * std::numbers::pi;
}  // namespace

double triangleSolidAngle(const Vec3& a, const Vec3& b, const Vec3& c) {
  const auto [det, denominator] = halfSolidAngleTangent(a, b, c);
  // In the triangle's plane: 0, also on the triangle itself, where the surface's winding number is
  // the mean of its two sides (atan2 would give +-2 pi by the sign of a zero).
  if (det == 0.0) return 0.0;
  return 2.0 * std::atan2(det, denominator);
}

double SolidAngleSum::steradians() const {
  return 2.0 * (std::atan2(im_, re_) + 2.0 * std::numbers::pi * turns_);
}

double exactWindingNumber(const TriangleMesh& mesh, const Vec3& p) {
  SolidAngleSum sum;
  for (std::size_t t = 0; t < mesh.size(); ++t)
    sum.add(mesh.corner(t, 0) - p, mesh.corner(t, 1) - p, mesh.corner(t, 2) - p);
  return sum.steradians() / kFourPi;
}

WindingNumberTree::WindingNumberTree(const TriangleBvh& bvh, double beta)
    : mesh_(bvh.sharedMesh()), beta_(beta) {
  if (!(beta > 1.0)) throw std::invalid_argument("the winding-number tree needs beta > 1");
  nodes_.resize(bvh.nodes().size());
  summarise(bvh, 0);
  visits_.reserve(nodes_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    visits_.push_back(
        {n.center, beta_ * beta_ * n.radius * n.radius, bvh.nodes()[i].first, bvh.nodes()[i].count});
  }
  corners_.reserve(bvh.triangleOrder().size());
  for (const std::uint32_t t : bvh.triangleOrder())
    corners_.push_back({mesh_->corner(t, 0), mesh_->corner(t, 1), mesh_->corner(t, 2)});
}

// Fills node `index` from its triangles (a leaf) or its children (summarised first).
void WindingNumberTree::summarise(const TriangleBvh& bvh, std::uint32_t index) {
  const TriangleBvh::Node& from = bvh.nodes()[index];
  Node& node = nodes_[index];
  if (from.count > 0) {
    std::array<Vec3, 4> centroids, areas;
    if (from.count > centroids.size()) throw std::logic_error("a hierarchy leaf of more than 4 triangles");
    double weight = 0.0;
    Vec3 weighted = Vec3::Zero(), plain = Vec3::Zero();
    for (std::uint32_t k = 0; k < from.count; ++k) {
      const std::uint32_t t = bvh.triangleOrder()[from.first + k];
      centroids[k] = (mesh_->corner(t, 0) + mesh_->corner(t, 1) + mesh_->corner(t, 2)) / 3.0;
      areas[k] =
          0.5 * (mesh_->corner(t, 1) - mesh_->corner(t, 0)).cross(mesh_->corner(t, 2) - mesh_->corner(t, 0));
      weight += areas[k].norm();
      weighted += areas[k].norm() * centroids[k];
      plain += centroids[k];
      node.area += areas[k];
    }
    node.areaSum = weight;
    node.center = weight > 0.0 ? Vec3(weighted / weight) : Vec3(plain / static_cast<double>(from.count));
    double radius = 0.0;
    for (std::uint32_t k = 0; k < from.count; ++k) {
      node.moment += areas[k] * (centroids[k] - node.center).transpose();
      const std::uint32_t t = bvh.triangleOrder()[from.first + k];
      // The integral of d d^T over a triangle is its area / 12 (sum of d_v d_v^T + s s^T), d_v its
      // corners relative to the centre, s their sum.
      Mat3 squares = Mat3::Zero();
      Vec3 sum = Vec3::Zero();
      for (int c = 0; c < 3; ++c) {
        const Vec3 d = mesh_->corner(t, c) - node.center;
        radius = std::max(radius, d.norm());
        squares += d * d.transpose();
        sum += d;
      }
      const Mat3 perArea = (squares + sum * sum.transpose()) / 12.0;
      for (int i = 0; i < 3; ++i) node.second[i] += areas[k][i] * perArea;
    }
    node.radius = radius;
    return;
  }
  summarise(bvh, from.first);
  summarise(bvh, from.first + 1);
  const Node& left = nodes_[from.first];
  const Node& right = nodes_[from.first + 1];
  const double wl = left.areaSum, wr = right.areaSum;
  node.areaSum = wl + wr;
  node.center = wl + wr > 0.0 ? Vec3((wl * left.center + wr * right.center) / (wl + wr))
                              : Vec3(0.5 * (left.center + right.center));
  node.area = left.area + right.area;
  node.moment = Mat3::Zero();
  for (const Node* child : {&left, &right}) {
    // Moments about the parent's centre: x - c = (x - c_child) + e.
    const Vec3 e = child->center - node.center;
    node.moment += child->moment + child->area * e.transpose();
    for (int i = 0; i < 3; ++i) {
      const Vec3 row = child->moment.row(i).transpose();
      node.second[i] +=
          child->second[i] + row * e.transpose() + e * row.transpose() + child->area[i] * e * e.transpose();
    }
  }
  // Every triangle lies in the node's box and within each child's radius of the child's centre.
  double boxRadius = 0.0;
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 q((corner & 1 ? from.upper : from.lower).x(), (corner & 2 ? from.upper : from.lower).y(),
                 (corner & 4 ? from.upper : from.lower).z());
    boxRadius = std::max(boxRadius, (q - node.center).norm());
  }
  node.radius = std::min(boxRadius, std::max((left.center - node.center).norm() + left.radius,
                                             (right.center - node.center).norm() + right.radius));
}

double WindingNumberTree::at(const Vec3& p) const {
  double sum = 0.0;    // the far nodes' expansions
  SolidAngleSum near;  // the near leaves' exact solid angles
  std::uint32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const std::uint32_t index = stack[--top];
    const Visit& v = visits_[index];
    const Vec3 y = v.center - p;
    const double r2 = y.squaredNorm();
    if (r2 > v.farRadius2) {
      const Node& n = nodes_[index];
      // The kernel grad(-1/|y|) = y / |y|^3 and its first and second derivatives at the centre:
      // d_ij = delta_ij / r^3 - 3 y_i y_j / r^5,
      // d_ijk = -3 (delta_ij y_k + delta_ik y_j + delta_jk y_i) / r^5 + 15 y_i y_j y_k / r^7.
      const double inv2 = 1.0 / r2;
      const double inv3 = inv2 / std::sqrt(r2), inv5 = inv3 * inv2, inv7 = inv5 * inv2;
      double first = 0.0, traces = 0.0, cubic = 0.0;  // sum_i (S_i y)_i, sum_i y_i tr S_i, sum_i y_i y.S_i y
      for (int i = 0; i < 3; ++i) {
        const Vec3 sy = n.second[i] * y;
        first += sy[i];
        traces += y[i] * n.second[i].trace();
        cubic += y[i] * y.dot(sy);
      }
      sum += y.dot(n.area) * inv3 + n.moment.trace() * inv3 - 3.0 * y.dot(n.moment * y) * inv5 +
             0.5 * (-3.0 * (2.0 * first + traces) * inv5 + 15.0 * cubic * inv7);
    } else if (v.count > 0) {
      for (std::uint32_t k = v.first; k < v.first + v.count; ++k) {
        const std::array<Vec3, 3>& c = corners_[k];
        near.add(c[0] - p, c[1] - p, c[2] - p);
      }
    } else {
      stack[top++] = v.first;
      stack[top++] = v.first + 1;
    }
  }
  return (sum + near.steradians()) / kFourPi;
}

}  // namespace clumplab::shapes
