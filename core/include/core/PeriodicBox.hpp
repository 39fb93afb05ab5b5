#pragma once
// Periodic boundaries in any subset of x, y, z: the minimum-image convention for separations and
// the wrap of positions into the primary box.
#include <array>
#include <cmath>

#include "core/Math.hpp"

namespace clumplab {

struct PeriodicBox {
  Vec3 lower = Vec3::Zero();   // corner of the primary box [m]
  Vec3 length = Vec3::Ones();  // its edge lengths [m]; used on periodic axes only
  std::array<bool, 3> periodic = {false, false, false};

  bool any() const { return periodic[0] || periodic[1] || periodic[2]; }
  bool operator==(const PeriodicBox& o) const {
    return lower == o.lower && length == o.length && periodic == o.periodic;
  }

  // The separation d = x_j - x_i [m] replaced by the shortest one among its periodic images.
  Vec3 minimumImage(Vec3 d) const {
    for (int a = 0; a < 3; ++a) {
      if (periodic[a]) d[a] -= length[a] * std::nearbyint(d[a] / length[a]);
    }
    return d;
  }

  // x moved by whole box lengths into [lower, lower + length) on the periodic axes [m].
  Vec3 wrap(Vec3 x) const {
    for (int a = 0; a < 3; ++a) {
      if (!periodic[a]) continue;
      const double u = x[a] - lower[a];
      double wrapped = u - length[a] * std::floor(u / length[a]);
      if (wrapped >= length[a]) wrapped = 0.0;  // u slightly below a multiple of the length
      x[a] = lower[a] + wrapped;
    }
    return x;
  }
};

}  // namespace clumplab
