#pragma once
// Pebble sets that approximate simple solids as unions of spheres: a capsule is the union of the
// balls centred on its segment, a slab (a rectangle swept by a ball) the union of the balls centred
// on its rectangle, and so on; dense enough centres make the union close to the solid.
#include <vector>

#include "core/clump/Pebble.hpp"
#include "shapes/SignedDistance.hpp"

namespace clumplab::shapes {

// Pebbles of `radius` [m] centred on the segment a-b, both ends included, evenly spaced at most
// `maxSpacing` [m] apart (one pebble when a = b).
std::vector<Pebble> pebblesAlongSegment(const Vec3& a, const Vec3& b, double radius, double maxSpacing);

// Pebbles centred on the circle of `circleRadius` about `center` in the plane normal to the unit
// vector `axis`, evenly spaced at most `maxSpacing` apart along the circle.
std::vector<Pebble> pebblesAlongCircle(const Vec3& center, const Vec3& axis, double circleRadius,
                                       double radius, double maxSpacing);

// Pebbles centred on a grid over the rectangle center + s u + t v, |s| <= halfU, |t| <= halfV
// (u, v orthonormal), edges included, rows and columns at most `maxSpacing` apart.
std::vector<Pebble> pebblesOnRectangle(const Vec3& center, const Vec3& u, const Vec3& v, double halfU,
                                       double halfV, double radius, double maxSpacing);

// Pebbles centred on the disc of `discRadius` about `center` normal to the unit vector `axis`:
// the centre and concentric rings (the rim included) at most `maxSpacing` apart, and along each
// ring at most `maxSpacing` apart.
std::vector<Pebble> pebblesOnDisc(const Vec3& center, const Vec3& axis, double discRadius, double radius,
                                  double maxSpacing);

// Regular-grid fill of a solid given by its signed distance: candidate centres on the grid of
// `spacing` [m] over [lower, upper] (centred in it), each pebble as large as fits inside the solid
// up to `maxRadius` (radius = min(-distance, maxRadius)), kept when that is at least `minRadius`.
std::vector<Pebble> pebblesFillingSolid(const SignedDistance& signedDistance, const Vec3& lower,
                                        const Vec3& upper, double spacing, double maxRadius,
                                        double minRadius);

// The set without pebbles that lie entirely inside another (|c_i - c_j| + r_i <= r_j), which add
// nothing to the union; of equal pebbles the first is kept. Order otherwise preserved.
std::vector<Pebble> withoutCoveredPebbles(const std::vector<Pebble>& pebbles);

}  // namespace clumplab::shapes
