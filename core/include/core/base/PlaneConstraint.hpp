#pragma once
// The 2D mode (Mutze, Polyspherical grains, §1 (i)): every centre of mass stays in the plane n.x = offset,
// velocities lie in it and angular velocities along n. Forces keep their in-plane part and torques their part
// along n (the plane's reaction takes the rest and does no work), so a body turns about the fixed world axis
// n with the moment of inertia n.I.n whatever its principal axes are.
#include "core/base/Math.hpp"

namespace clumplab {

struct PlaneConstraint {
  bool enabled = false;
  Vec3 normal = Vec3::UnitZ();  // unit
  double offset = 0.0;          // [m]: the plane is n.x = offset

  bool operator==(const PlaneConstraint& o) const {
    return enabled == o.enabled && normal == o.normal && offset == o.offset;
  }

  // The coordinate axis n lies along (then components are set exactly, with no round-off), or -1.
  int axis() const {
    for (int a = 0; a < 3; ++a) {
      if (std::abs(normal[a]) == 1.0) return a;
    }
    return -1;
  }
  // The point of the plane nearest x.
  Vec3 onPlane(const Vec3& x) const {
    Vec3 y = x;
    if (const int a = axis(); a >= 0) {
      y[a] = offset * normal[a];
    } else {
      y -= (x.dot(normal) - offset) * normal;
    }
    return y;
  }
  // The in-plane part of a vector.
  Vec3 inPlane(const Vec3& v) const {
    Vec3 y = v;
    if (const int a = axis(); a >= 0) {
      y[a] = 0.0;
    } else {
      y -= v.dot(normal) * normal;
    }
    return y;
  }
  // A body's centre onto the plane, its velocity into it and its angular velocity along n.
  void confine(Vec3& position, Vec3& velocity, Vec3& angularVelocity) const {
    position = onPlane(position);
    velocity = inPlane(velocity);
    angularVelocity = alongNormal(angularVelocity);
  }
  // The part of a vector along n.
  Vec3 alongNormal(const Vec3& w) const {
    if (const int a = axis(); a >= 0) {
      Vec3 y = Vec3::Zero();
      y[a] = w[a];
      return y;
    }
    return w.dot(normal) * normal;
  }
};

}  // namespace clumplab
