#pragma once
// Random vectors drawn in a fixed order. C++ leaves the evaluation order of a call's arguments
// unspecified, so Vec3(draw(), draw(), draw()) built other bodies from the same seed under clang
// (first argument first) than under gcc (last first): found by the asan-ubsan build, which uses
// clang. These draw the last component first, gcc's order, so every scene, committed file and test
// expectation made with gcc stays bit for bit as it was.
#include <Eigen/Core>

#include "core/base/Math.hpp"

namespace clumplab {

// (x, y, z) with z drawn first, then y, then x.
template <class Draw>
Vec3 drawVec3LastFirst(Draw&& draw) {
  const double z = draw();
  const double y = draw();
  const double x = draw();
  return Vec3(x, y, z);
}

// (a, b, c, d) with d drawn first, then c, b, a.
template <class Draw>
Eigen::Vector4d drawVector4LastFirst(Draw&& draw) {
  const double d = draw();
  const double c = draw();
  const double b = draw();
  const double a = draw();
  return Eigen::Vector4d(a, b, c, d);
}

}  // namespace clumplab
