#pragma once
#include "core/Math.hpp"

namespace clumplab {

// One sphere of a clump: centre [m] in the frame the pebbles are given in, radius [m].
struct Pebble {
  Vec3 center = Vec3::Zero();
  double radius = 0.0;
};

}  // namespace clumplab
