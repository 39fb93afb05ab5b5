#pragma once
// The box a cell grid spans: the bounds of the points' finite coordinates. A NaN or an infinity (a
// run that blew up, which the step's divergence check then names) must not make the grid's extent
// infinite (no cell width would ever cover it) or NaN; such a point is binned at the grid's edge.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab {

struct FiniteBounds {
  Vec3 lower = Vec3::Zero();  // [m]; 0 on an axis with no finite coordinate
  Vec3 upper = Vec3::Zero();  // [m]
  // upper - lower [m], at most 1e300 per axis (the difference of two finite values may overflow).
  Vec3 extent() const { return (upper - lower).cwiseMin(Vec3::Constant(1e300)); }
};

inline FiniteBounds finiteBounds(const std::vector<Vec3>& points) {
  const double huge = std::numeric_limits<double>::max();
  FiniteBounds bounds{Vec3::Constant(huge), Vec3::Constant(-huge)};
  for (const Vec3& p : points) {
    for (int a = 0; a < 3; ++a) {
      if (!std::isfinite(p[a])) continue;
      bounds.lower[a] = std::min(bounds.lower[a], p[a]);
      bounds.upper[a] = std::max(bounds.upper[a], p[a]);
    }
  }
  for (int a = 0; a < 3; ++a) {
    if (bounds.lower[a] > bounds.upper[a]) bounds.lower[a] = bounds.upper[a] = 0.0;
  }
  return bounds;
}

// floor(u) as a cell coordinate clamped to [0, count - 1]; NaN (a non-finite position) is cell 0.
inline int clampedCell(double u, int count) {
  if (std::isnan(u)) return 0;
  return static_cast<int>(std::clamp(std::floor(u), 0.0, static_cast<double>(count - 1)));
}

}  // namespace clumplab
