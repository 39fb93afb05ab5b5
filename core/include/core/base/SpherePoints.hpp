#pragma once
// Unit vectors spread evenly over the sphere: the Fibonacci lattice.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab {

inline std::vector<Vec3> fibonacciSpherePoints(int n) {
  std::vector<Vec3> points;
  points.reserve(static_cast<std::size_t>(std::max(n, 0)));
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (int k = 0; k < n; ++k) {
    const double z = 1.0 - (2.0 * k + 1.0) / n;
    const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
    points.emplace_back(r * std::cos(golden * k), r * std::sin(golden * k), z);
  }
  return points;
}

}  // namespace clumplab
