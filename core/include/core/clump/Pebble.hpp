#pragma once
#include "core/base/Math.hpp"

namespace clumplab {

// One member of a clump: a sphere of radius `radius` [m] swept along the segment
// center +- halfLength * axis, in the frame the pebbles are given in. halfLength = 0 (the default)
// is an ordinary sphere; halfLength > 0 a spherocylinder (capsule) with shaft length
// l = 2 halfLength (Meland et al., Cluster integration method, Fig. 1), whose contacts use the closest points
// of the shafts (ShaftDistance.hpp).
struct Pebble {
  Vec3 center = Vec3::Zero();
  double radius = 0.0;
  Vec3 axis = Vec3::UnitZ();  // unit; only meaningful when halfLength > 0
  double halfLength = 0.0;    // [m], >= 0

  bool isSphere() const { return halfLength == 0.0; }
  // Radius of the smallest sphere about `center` holding the pebble [m].
  double reach() const { return radius + halfLength; }
};

}  // namespace clumplab
