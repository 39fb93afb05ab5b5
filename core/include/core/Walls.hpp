#pragma once
// Static boundaries. Every wall pushes pebbles towards its allowed side.
#include <vector>

#include "core/Math.hpp"

namespace clumplab {

struct Wall {
  enum class Kind { Plane, SphereCavity };
  Kind kind = Kind::Plane;
  Vec3 point = Vec3::Zero();    // plane: a point on it; cavity: the centre [m]
  Vec3 normal = Vec3::UnitZ();  // plane: unit normal pointing into the allowed half-space
  double radius = 0.0;          // cavity radius [m] (particles inside)

  static Wall plane(const Vec3& point, const Vec3& normal) {
    return Wall{Kind::Plane, point, normal.normalized(), 0.0};
  }
  static Wall cavity(const Vec3& center, double radius) {
    return Wall{Kind::SphereCavity, center, Vec3::UnitZ(), radius};
  }
  // A closed box with particles inside: six planes with inward normals.
  static std::vector<Wall> box(const Vec3& lower, const Vec3& upper) {
    std::vector<Wall> walls;
    for (int a = 0; a < 3; ++a) {
      walls.push_back(plane(lower, Vec3::Unit(a)));
      walls.push_back(plane(upper, -Vec3::Unit(a)));
    }
    return walls;
  }
  // Distance of a point inside the allowed region to the wall surface (negative: beyond it).
  double clearance(const Vec3& x) const {
    if (kind == Kind::Plane) return (x - point).dot(normal);
    return radius - (x - point).norm();
  }
};

}  // namespace clumplab
