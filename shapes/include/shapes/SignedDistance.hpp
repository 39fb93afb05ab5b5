#pragma once
// Signed distances of simple solids (negative inside, positive outside, in metres), the input of the
// implicit mesher. Each is the exact Euclidean distance to the surface; the union of solids is the
// minimum of their distances (exact outside, a lower bound of the depth inside).
#include <functional>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab::shapes {

// A signed-distance function: point [m] -> distance [m], negative inside.
using SignedDistance = std::function<double(const Vec3&)>;

namespace sdf {

// The ball of radius r about `center`.
double sphere(const Vec3& p, const Vec3& center, double radius);

// The points within `radius` of the segment a-b (a spherocylinder; a ball when a = b).
double capsule(const Vec3& p, const Vec3& a, const Vec3& b, double radius);

// The box of half extents `halfExtents` about `center`, turned by `rotation` (box frame -> world),
// its edges and corners rounded with radius `rounding` (0 <= rounding <= the smallest half extent;
// rounding equal to a half extent makes the box a flat rectangle swept by a ball).
double box(const Vec3& p, const Vec3& center, const Vec3& halfExtents, double rounding = 0.0,
           const Quat& rotation = Quat::Identity());

// The torus about the axis through `center` along the unit vector `axis`: ring radius R, tube radius r.
double torus(const Vec3& p, const Vec3& center, const Vec3& axis, double ringRadius, double tubeRadius);

// The cylinder of `radius` around the segment a-b with flat ends, its rims rounded with radius
// `rounding` (0 <= rounding <= min(radius, |b - a| / 2); rounding = |b - a| / 2 gives a disc swept
// by a ball, a "puck").
double cylinder(const Vec3& p, const Vec3& a, const Vec3& b, double radius, double rounding = 0.0);

}  // namespace sdf

// The union of solids: the minimum of their signed distances. `parts` must not be empty.
SignedDistance unionOf(std::vector<SignedDistance> parts);

}  // namespace clumplab::shapes
