#pragma once
// A pebble of a body placed in the world, the one way to place it, and where two placed pebbles
// meet. A pebble's position comes from its body's pose (Mutze, Polyspherical grains, §4), x + R c with
// R the pose's rotation matrix, as the engine places its pebbles every step; spherocylinders meet
// like spheres at the closest points of their shafts (Meland et al., Cluster integration method,
// Fig. 2).
#include <cstdint>

#include "core/base/Math.hpp"
#include "core/clump/Pebble.hpp"
#include "core/clump/ShaftDistance.hpp"

namespace clumplab {

struct PlacedPebble {
  Vec3 center;              // world [m]
  Vec3 axis;                // the shaft's unit axis, world (z for a sphere)
  double radius;            // [m]
  double halfLength;        // half the shaft [m] (0 for a sphere)
  std::uint32_t index = 0;  // its number in its template
  double reach() const { return radius + halfLength; }
};

// Pebble `p`, number `index` of its template, of a body at `position` [m] turned by `rotation`.
inline PlacedPebble placePebble(const Pebble& p, const Vec3& position, const Mat3& rotation,
                                std::uint32_t index = 0) {
  return {position + rotation * p.center, p.isSphere() ? Vec3(Vec3::UnitZ()) : Vec3(rotation * p.axis),
          p.radius, p.halfLength, index};
}

// The points where a and b (b moved by `shiftOfB`, a periodic image) touch like spheres: their
// centres for two spheres, else the closest points of their shafts.
inline void corePoints(const PlacedPebble& a, const PlacedPebble& b, Vec3& pa, Vec3& pb,
                       const Vec3& shiftOfB = Vec3::Zero()) {
  pa = a.center;
  pb = b.center + shiftOfB;
  if (a.halfLength == 0.0 && b.halfLength == 0.0) return;
  const ShaftClosestPoints c = closestShaftPoints(pb - pa, a.axis, a.halfLength, b.axis, b.halfLength);
  pa += c.lambdaI * a.axis;
  pb += c.lambdaJ * b.axis;
}

// The squared distance between those points [m^2]: the pebbles overlap where it is below
// (a.radius + b.radius)^2.
inline double coreDistance2(const PlacedPebble& a, const PlacedPebble& b,
                            const Vec3& shiftOfB = Vec3::Zero()) {
  if (a.halfLength == 0.0 && b.halfLength == 0.0) return (b.center + shiftOfB - a.center).squaredNorm();
  return closestShaftPoints(b.center + shiftOfB - a.center, a.axis, a.halfLength, b.axis, b.halfLength)
      .distance2;
}

}  // namespace clumplab
