#pragma once
// The generalized winding number of a triangle mesh (Jacobson, Kavan and Sorkine-Hornung, "Robust
// inside-outside segmentation using generalized winding numbers", 2013): w(p) = (1/4 pi) times the
// sum of the signed solid angles of the triangles seen from p. It is 1 inside and 0 outside a
// closed, outward mesh; for a mesh with holes, non-manifold edges or overlapping shells it is a
// harmonic function that jumps by 1 across the surface and bridges the holes smoothly, so that
// {w >= 1/2} is the solid the surface bounds "in spirit".
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "shapes/TriangleBvh.hpp"

namespace clumplab::shapes {

// The signed solid angle [sr] of the triangle (a, b, c), its corners given relative to the point of
// view (Van Oosterom and Strackee, "The solid angle of a plane triangle", 1983):
// tan(omega / 2) = det[a b c] / (|a||b||c| + (a.b)|c| + (b.c)|a| + (c.a)|b|). Positive when the
// point lies behind the triangle (on the side its counter-clockwise normal points away from), in
// (-2 pi, 2 pi); 0 in the triangle's plane, also on the triangle itself (the mean of its two sides).
double triangleSolidAngle(const Vec3& a, const Vec3& b, const Vec3& c);

// Van Oosterom and Strackee's tan(omega / 2) as its numerator det[a b c] and its denominator (above),
// for triangleSolidAngle and SolidAngleSum.
struct HalfSolidAngleTangent {
  double numerator = 0.0;
  double denominator = 1.0;
};
inline HalfSolidAngleTangent halfSolidAngleTangent(const Vec3& a, const Vec3& b, const Vec3& c) {
  const double la = a.norm(), lb = b.norm(), lc = c.norm();
  return {a.dot(b.cross(c)), la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb};
}

// The sum of many triangles' solid angles with one arctangent instead of one each: the half-angle
// of a triangle is arg(D + i det) (Van Oosterom and Strackee's denominator D and numerator det), so
// the sum of the half-angles is the argument of the product of those complex numbers plus 2 pi for
// every time the running product's argument passed -pi or pi: exact to a few ulps per triangle, as
// the sum of arctangents is.
class SolidAngleSum {
 public:
  // Adds the triangle (a, b, c), its corners relative to the point of view (as triangleSolidAngle).
  void add(const Vec3& a, const Vec3& b, const Vec3& c) {
    const auto [det, denominator] = halfSolidAngleTangent(a, b, c);
    if (det == 0.0) return;  // in the triangle's plane: 0 (triangleSolidAngle)
    // arg(re + i im) in (-pi, pi]; the triangle's half-angle in (-pi, 0) or (0, pi) by det's sign.
    const bool upper = im_ > 0.0 || (im_ == 0.0 && re_ < 0.0), lower = im_ < 0.0;
    double re = re_ * denominator - im_ * det, im = re_ * det + im_ * denominator;
    const double scale = 1.0 / (std::abs(re) + std::abs(im));
    re *= scale;
    im *= scale;
    if (im == 0.0) im = 0.0;  // -0 to +0: the argument pi, never -pi
    const bool nowUpper = im > 0.0 || (im == 0.0 && re < 0.0);
    if (upper && det > 0.0 && !nowUpper) ++turns_;  // the sum passed pi
    if (lower && det < 0.0 && nowUpper) --turns_;   // the sum reached -pi or passed it
    re_ = re;
    im_ = im;
  }
  // The sum of the solid angles added [sr].
  double steradians() const;

 private:
  double re_ = 1.0, im_ = 0.0;  // the product, at unit size: |re| + |im| = 1
  int turns_ = 0;
};

// w(p) summed over every triangle: exact to round-off, O(n) a point.
double exactWindingNumber(const TriangleMesh& mesh, const Vec3& p);

// w(p) through a triangle hierarchy (Barill, Dickson, Schmidt, Levin and Jacobson, "Fast winding
// numbers for soups and clouds", 2018): a node whose triangles all lie within radius r of their
// area-weighted centre c adds, when |p - c| > beta r, the Taylor expansion of its triangles' solid
// angles about c to second order (the dipole of their summed area vectors, then their first and
// second moments) instead of the exact sum; nearer nodes are opened, and their leaves summed
// exactly. A node's error falls as (1 / beta)^3 of its contribution; tst_winding_number measures it
// against exactWindingNumber.
class WindingNumberTree {
 public:
  // Copies what it needs from the hierarchy (its node tree and the shared mesh).
  explicit WindingNumberTree(const TriangleBvh& bvh, double beta = 2.0);

  double at(const Vec3& p) const;
  double exact(const Vec3& p) const { return exactWindingNumber(*mesh_, p); }
  double beta() const { return beta_; }

 private:
  struct Node {
    Vec3 center = Vec3::Zero();  // area-weighted centre of the node's triangles [m]
    double radius = 0.0;         // every corner of its triangles lies within it of `center` [m]
    double areaSum = 0.0;        // sum of the triangles' areas [m^2]
    Vec3 area = Vec3::Zero();    // sum of the triangles' area vectors (area times unit normal) [m^2]
    Mat3 moment = Mat3::Zero();  // sum of area vector (x) (centroid - center) [m^3]
    // second[i] = sum over triangles of area vector_i times the integral of (x - center)(x -
    // center)^T over the triangle, divided by its area [m^4]
    std::array<Mat3, 3> second{Mat3::Zero(), Mat3::Zero(), Mat3::Zero()};
  };
  // What the walk reads of every node it meets, packed (the expansions are read only for the far
  // nodes, the corners only for the near leaves).
  struct Visit {
    Vec3 center = Vec3::Zero();  // Node::center
    double farRadius2 = 0.0;     // (beta radius)^2: points farther from `center` take the expansion
    std::uint32_t first = 0;     // as TriangleBvh::Node
    std::uint32_t count = 0;
  };
  void summarise(const TriangleBvh& bvh, std::uint32_t index);

  std::shared_ptr<const TriangleMesh> mesh_;
  std::vector<Node> nodes_;
  std::vector<Visit> visits_;                 // nodes_[i]'s walk fields
  std::vector<std::array<Vec3, 3>> corners_;  // the triangles' corners in the leaves' order
  double beta_ = 2.0;
};

}  // namespace clumplab::shapes
