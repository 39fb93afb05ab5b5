// The faces a clump can lean on (SupportFaces.hpp).
#include "core/clump/SupportFaces.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include <Eigen/Eigenvalues>

#include "core/base/SpherePoints.hpp"

namespace clumplab {

namespace {

constexpr int kLatticeDirections = 2048;

// The angle within which every direction has a point of an n-point Fibonacci lattice (about 0.6 of
// its spacing sqrt(4 pi / n); 0.75 to be safe).
double latticeCoverAngle(int n) {
  return 0.75 * std::sqrt(4.0 * M_PI / n);
}

// The mass-scaled row of a unit force along `f` at `arm` from the centre of mass.
Eigen::Matrix<double, 6, 1> scaledRow(const Vec3& f, const Vec3& arm, double mass, const Vec3& moments) {
  Eigen::Matrix<double, 6, 1> u;
  const Vec3 torque = arm.cross(f);
  const double sm = 1.0 / std::sqrt(mass);
  u << f.x() * sm, f.y() * sm, f.z() * sm, torque.x() / std::sqrt(moments.x()),
      torque.y() / std::sqrt(moments.y()), torque.z() / std::sqrt(moments.z());
  return u;
}

}  // namespace

std::vector<SupportFace> supportFaces(const ClumpTemplate& clump) {
  std::vector<SupportFace> faces;
  if (clump.pebbles.empty() || !(clump.mass > 0.0) || !(clump.principalMoments.minCoeff() > 0.0))
    return faces;
  const double coverAngle = latticeCoverAngle(kLatticeDirections);
  std::vector<Vec3> directions = fibonacciSpherePoints(kLatticeDirections);
  const std::size_t exact = 12;  // the axes of both frames, searched with the contact tolerance only
  std::vector<Vec3> axes;
  for (int a = 0; a < 3; ++a) {
    const Vec3 e = Vec3::Unit(a);
    axes.push_back(e);
    axes.push_back(-e);
    const Vec3 input = (clump.rotationFromInput * e).normalized();
    axes.push_back(input);
    axes.push_back(-input);
  }
  directions.insert(directions.begin(), axes.begin(), axes.end());
  // The overlap a contact may reach (a pebble that far below the plane touches it too), and what a
  // lattice direction's tilt from a face's normal lifts the face's far pebbles by.
  const double contactTolerance = 0.02 * clump.minPebbleRadius;
  const double tiltTolerance = coverAngle * clump.boundingRadius;
  // The points a plane can touch: each sphere's centre, each spherocylinder's two shaft ends (a shaft
  // lying flat touches with both: counted as two contacts, on the safe side), with their radii.
  std::vector<Pebble> points;
  for (const Pebble& p : clump.pebbles) {
    if (p.isSphere()) {
      points.push_back({p.center, p.radius});
    } else {
      points.push_back({p.center + p.halfLength * p.axis, p.radius});
      points.push_back({p.center - p.halfLength * p.axis, p.radius});
    }
  }
  std::set<std::vector<std::uint32_t>> seen;
  std::vector<std::uint32_t> members;
  for (std::size_t k = 0; k < directions.size(); ++k) {
    const Vec3& d = directions[k];  // outward: the plane touches the body from this side
    double top = -std::numeric_limits<double>::infinity();
    for (const Pebble& p : points) top = std::max(top, p.center.dot(d) + p.radius);
    const double tolerance = contactTolerance + (k < exact ? 0.0 : tiltTolerance);
    members.clear();
    for (std::size_t i = 0; i < points.size(); ++i) {
      const Pebble& p = points[i];
      if (p.center.dot(d) + p.radius >= top - tolerance) members.push_back(static_cast<std::uint32_t>(i));
    }
    if (!seen.insert(members).second) continue;
    SupportFace face;
    face.pebbles = static_cast<int>(members.size());
    Vec3 t1, t2;
    perpendicularPair(d, t1, t2);
    for (std::uint32_t i : members) {
      const Pebble& p = points[i];
      const Vec3 arm = p.center + p.radius * d;  // the contact point
      const auto un = scaledRow(d, arm, clump.mass, clump.principalMoments);
      const auto u1 = scaledRow(t1, arm, clump.mass, clump.principalMoments);
      const auto u2 = scaledRow(t2, arm, clump.mass, clump.principalMoments);
      face.normal += un * un.transpose();
      face.tangential += u1 * u1.transpose() + u2 * u2.transpose();
    }
    faces.push_back(face);
  }
  // Keep the stiffest: the faces with the largest normal and the largest tangential modes.
  constexpr std::size_t kKeep = 8;
  if (faces.size() <= 2 * kKeep) return faces;
  const auto largest = [](const Mat6& m) { return Eigen::SelfAdjointEigenSolver<Mat6>(m).eigenvalues()[5]; };
  std::vector<std::pair<double, std::size_t>> byNormal, byTangential;
  for (std::size_t k = 0; k < faces.size(); ++k) {
    byNormal.emplace_back(-largest(faces[k].normal), k);
    byTangential.emplace_back(-largest(faces[k].tangential), k);
  }
  std::partial_sort(byNormal.begin(), byNormal.begin() + kKeep, byNormal.end());
  std::partial_sort(byTangential.begin(), byTangential.begin() + kKeep, byTangential.end());
  std::set<std::size_t> keep;
  for (std::size_t k = 0; k < kKeep; ++k) {
    keep.insert(byNormal[k].second);
    keep.insert(byTangential[k].second);
  }
  std::vector<SupportFace> kept;
  kept.reserve(keep.size());
  for (std::size_t k : keep) kept.push_back(faces[k]);
  return kept;
}

PointContactModes pointContactModes(const ClumpTemplate& clump) {
  // A unit force along n at c + r n (c a pebble's centre, or a shaft's end: the bound is convex in c)
  // turns the body by I^-1 (c x n): 1/m + n^T [c]x^T I^-1 [c]x n, largest over n the top eigenvalue.
  // Along a tangent t at the same point the arm gains r n x t: at most (sqrt(that) + r / sqrt(I1))^2.
  PointContactModes out;
  const Mat3 inverseMoments = clump.principalMoments.cwiseInverse().asDiagonal();
  const double softest = 1.0 / std::sqrt(clump.principalMoments.minCoeff());
  const auto consider = [&](const Vec3& c, double r) {
    Mat3 cross;
    cross << 0.0, -c.z(), c.y(), c.z(), 0.0, -c.x(), -c.y(), c.x(), 0.0;
    const Mat3 turn = cross.transpose() * inverseMoments * cross;
    const double arm = std::max(0.0, Eigen::SelfAdjointEigenSolver<Mat3>(turn).eigenvalues()[2]);
    out.normal = std::max(out.normal, 1.0 / clump.mass + arm);
    const double tangential = std::sqrt(arm) + r * softest;
    out.tangential = std::max(out.tangential, 1.0 / clump.mass + tangential * tangential);
  };
  for (const Pebble& p : clump.pebbles) {
    if (p.isSphere()) {
      consider(p.center, p.radius);
    } else {
      consider(p.center + p.halfLength * p.axis, p.radius);
      consider(p.center - p.halfLength * p.axis, p.radius);
    }
  }
  return out;
}

}  // namespace clumplab
