#pragma once
// Periodic boundaries in any subset of x, y, z (the cluster integration paper's periodic box): the
// minimum-image convention for separations and the wrap of positions into the primary box.
#include <array>
#include <cmath>

#include "core/base/Math.hpp"

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
  Vec3 minimumImage(const Vec3& d) const {
    const auto along = [&](int a, double x) { return periodic[a] ? x - wholeLengths(a, x) : x; };
    return Vec3(along(0, d.x()), along(1, d.y()), along(2, d.z()));
  }

  // The lattice vector s (whole box lengths on periodic axes, 0 elsewhere) [m] with d + s the
  // minimum image of d: x_j + s is the image of x_j nearest x_i. minimumImage(d) == d + imageShift(d)
  // to the bit. Each is made of three scalars, never written into a vector component by component:
  // a vector stored in halves and read whole stalls the load that reads it (a third of the periodic
  // contact pass's time, perf on the sphere chute).
  Vec3 imageShift(const Vec3& d) const {
    const auto along = [&](int a, double x) { return periodic[a] ? -wholeLengths(a, x) : 0.0; };
    return Vec3(along(0, d.x()), along(1, d.y()), along(2, d.z()));
  }

  // The whole box lengths [m] nearest the separation d [m] along the periodic axis a.
  double wholeLengths(int a, double d) const { return length[a] * nearestInteger(d / length[a]); }

  // x moved by whole box lengths into [lower, lower + length) on the periodic axes [m]. A
  // coordinate already inside is returned unchanged (to the bit), so wrapping twice changes nothing;
  // so is a NaN or an infinity (a run that blew up: the divergence check must still see it).
  Vec3 wrap(Vec3 x) const {
    for (int a = 0; a < 3; ++a) {
      if (!periodic[a] || !std::isfinite(x[a])) continue;
      const double u = x[a] - lower[a];
      if (u >= 0.0 && u < length[a]) continue;
      double y = x[a] - length[a] * std::floor(u / length[a]);
      // Rounding may leave y a hair outside: move it in by one more length, or onto the lower face.
      if (y - lower[a] >= length[a]) y -= length[a];
      if (y - lower[a] < 0.0) y += length[a];
      if (!(y - lower[a] >= 0.0 && y - lower[a] < length[a])) y = lower[a];
      x[a] = y;
    }
    return x;
  }
};

}  // namespace clumplab
