#pragma once
// Boundaries. Every wall pushes pebbles towards its allowed side; a mesh wall (MeshWall.hpp) pushes
// them away from its surface on whichever side they are, and may move by an imposed motion.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "core/base/Math.hpp"
#include "core/walls/MeshWall.hpp"

namespace clumplab {

// A membrane (Mutze, Polyspherical grains, §1 (iv): the grid dividing an osmosis box) is a plane that pebbles
// of radius below `passRadius` cross freely while larger ones are repelled from whichever side their centre
// is on, with the normal contact law of a plane wall. A body is blocked by its large pebbles even if others
// of it are small.
struct Wall {
  enum class Kind { Plane, SphereCavity, Membrane, Mesh };
  Kind kind = Kind::Plane;
  Vec3 point = Vec3::Zero();             // plane, membrane: a point on it; cavity: the centre [m]
  Vec3 normal = Vec3::UnitZ();           // plane: unit normal pointing into the allowed half-space
  double radius = 0.0;                   // cavity radius [m] (particles inside)
  double passRadius = 0.0;               // membrane: pebbles with a smaller radius pass [m]
  std::shared_ptr<const MeshWall> mesh;  // mesh: its geometry and motion (MeshWall.hpp)

  static Wall plane(const Vec3& point, const Vec3& normal) {
    return Wall{Kind::Plane, point, normal.normalized(), 0.0, 0.0, nullptr};
  }
  static Wall cavity(const Vec3& center, double radius) {
    return Wall{Kind::SphereCavity, center, Vec3::UnitZ(), radius, 0.0, nullptr};
  }
  static Wall membrane(const Vec3& point, const Vec3& normal, double passRadius) {
    return Wall{Kind::Membrane, point, normal.normalized(), 0.0, passRadius, nullptr};
  }
  static Wall meshWall(std::shared_ptr<const MeshWall> mesh) {
    Wall w;
    w.kind = Kind::Mesh;
    w.mesh = std::move(mesh);
    return w;
  }
  // Whether a pebble of radius r passes through (membranes only).
  bool passes(double r) const { return kind == Kind::Membrane && r < passRadius; }
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
  // For a membrane, the distance from either side; for a mesh, the distance to its surface where its
  // motion has it at `time` [s] (0: where bodies are generated), searched within `meshSearch` [m]
  // (by default a bounding-box diagonal of the mesh; a caller that only asks whether the clearance
  // is below some gap passes that gap, and the search then visits the triangles near x only), and
  // `meshSearch` when no triangle is nearer.
  double clearance(const Vec3& x, double time = 0.0,
                   double meshSearch = std::numeric_limits<double>::infinity()) const {
    if (kind == Kind::Plane) return (x - point).dot(normal);
    if (kind == Kind::Membrane) return std::abs((x - point).dot(normal));
    if (kind == Kind::Mesh) {
      const WallPose pose = mesh->poseAt(time);
      const Vec3 local = pose.orientation.conjugate() * (x - pose.position);
      return mesh->shape->distance(
          local, std::min(meshSearch, (mesh->shape->upper() - mesh->shape->lower()).norm()));
    }
    return radius - (x - point).norm();
  }
};

}  // namespace clumplab
