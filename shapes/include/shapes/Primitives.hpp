#pragma once
// Closed, outward-oriented triangle meshes of simple solids, with shared vertices (watertight):
// the building blocks of the built-in shapes and the exact cases of the tests.
#include <vector>

#include "core/clump/TriangleMesh.hpp"

namespace clumplab::shapes {

// The box [lower, upper] (12 triangles).
TriangleMesh boxMesh(const Vec3& lower, const Vec3& upper);

// The tetrahedron with these corners, oriented outwards whatever their order.
TriangleMesh tetrahedronMesh(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

// A UV sphere: `slices` around the z axis (>= 3), `stacks` from pole to pole (>= 2).
TriangleMesh uvSphereMesh(const Vec3& center, double radius, int slices, int stacks);

// A torus about the z axis through `center`: ring radius R, tube radius r < R.
TriangleMesh torusMesh(const Vec3& center, double ringRadius, double tubeRadius, int ringSegments,
                       int tubeSegments);

// A right prism: the simple polygon `outline` (counter-clockwise in the xy plane, no three
// consecutive points collinear needed) extruded from z = zMin to z = zMax. Caps by ear clipping.
TriangleMesh prismMesh(const std::vector<Eigen::Vector2d>& outline, double zMin, double zMax);

// A closed cylinder of radius r around the segment a-b.
TriangleMesh cylinderMesh(const Vec3& a, const Vec3& b, double radius, int segments);

// A capsule (spherocylinder): the points within r of the segment a-b.
TriangleMesh capsuleMesh(const Vec3& a, const Vec3& b, double radius, int segments);

// x -> rotation x + translation, for every vertex.
TriangleMesh transformedMesh(const TriangleMesh& mesh, const Quat& rotation, const Vec3& translation);

// Both meshes as one (disjoint shells stay separate shells).
void appendMesh(TriangleMesh& into, const TriangleMesh& more);

}  // namespace clumplab::shapes
