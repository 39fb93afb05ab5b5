#include "shapes/PebbleLayouts.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace clumplab::shapes {

namespace {
// Intervals needed to cover `length` with steps of at most `maxSpacing` (at least 1).
int intervals(double length, double maxSpacing) {
  if (!(maxSpacing > 0.0)) throw std::invalid_argument("the pebble spacing must be positive");
  return std::max(1, static_cast<int>(std::ceil(length / maxSpacing - 1e-9)));
}

}  // namespace

std::vector<Pebble> pebblesAlongSegment(const Vec3& a, const Vec3& b, double radius, double maxSpacing) {
  const double length = (b - a).norm();
  if (length == 0.0) return {Pebble{a, radius}};
  const int n = intervals(length, maxSpacing);
  std::vector<Pebble> out;
  for (int k = 0; k <= n; ++k) out.push_back({a + (b - a) * (static_cast<double>(k) / n), radius});
  return out;
}

std::vector<Pebble> pebblesAlongCircle(const Vec3& center, const Vec3& axis, double circleRadius,
                                       double radius, double maxSpacing) {
  Vec3 u, v;
  perpendicularPair(axis, u, v);
  // Chords of at most maxSpacing.
  const int n = std::max(3, intervals(2.0 * std::numbers::pi * circleRadius, maxSpacing));
  std::vector<Pebble> out;
  for (int k = 0; k < n; ++k) {
    const double phi = 2.0 * std::numbers::pi * k / n;
    out.push_back({center + circleRadius * (std::cos(phi) * u + std::sin(phi) * v), radius});
  }
  return out;
}

std::vector<Pebble> pebblesOnRectangle(const Vec3& center, const Vec3& u, const Vec3& v, double halfU,
                                       double halfV, double radius, double maxSpacing) {
  const int nu = halfU > 0.0 ? intervals(2.0 * halfU, maxSpacing) : 0;
  const int nv = halfV > 0.0 ? intervals(2.0 * halfV, maxSpacing) : 0;
  std::vector<Pebble> out;
  for (int j = 0; j <= nv; ++j) {
    const double t = nv == 0 ? 0.0 : -halfV + 2.0 * halfV * j / nv;
    for (int i = 0; i <= nu; ++i) {
      const double s = nu == 0 ? 0.0 : -halfU + 2.0 * halfU * i / nu;
      out.push_back({center + s * u + t * v, radius});
    }
  }
  return out;
}

std::vector<Pebble> pebblesOnDisc(const Vec3& center, const Vec3& axis, double discRadius, double radius,
                                  double maxSpacing) {
  std::vector<Pebble> out = {{center, radius}};
  if (discRadius <= 0.0) return out;
  const int rings = intervals(discRadius, maxSpacing);
  for (int k = 1; k <= rings; ++k) {
    const std::vector<Pebble> ring =
        pebblesAlongCircle(center, axis, discRadius * k / rings, radius, maxSpacing);
    out.insert(out.end(), ring.begin(), ring.end());
  }
  return out;
}

std::vector<Pebble> pebblesFillingSolid(const SignedDistance& signedDistance, const Vec3& lower,
                                        const Vec3& upper, double spacing, double maxRadius,
                                        double minRadius) {
  if (!(spacing > 0.0)) throw std::invalid_argument("the fill spacing must be positive");
  int n[3];
  Vec3 first;
  for (int a = 0; a < 3; ++a) {
    const double extent = upper[a] - lower[a];
    n[a] = std::max(1, static_cast<int>(std::floor(extent / spacing)) + 1);
    first[a] = 0.5 * (lower[a] + upper[a]) - 0.5 * spacing * (n[a] - 1);  // grid centred in the box
  }
  std::vector<Pebble> out;
  for (int k = 0; k < n[2]; ++k) {
    for (int j = 0; j < n[1]; ++j) {
      for (int i = 0; i < n[0]; ++i) {
        const Vec3 c = first + spacing * Vec3(i, j, k);
        const double r = std::min(-signedDistance(c), maxRadius);
        if (r >= minRadius && r > 0.0) out.push_back({c, r});
      }
    }
  }
  return out;
}

std::vector<Pebble> withoutCoveredPebbles(const std::vector<Pebble>& pebbles) {
  std::vector<Pebble> out;
  for (std::size_t i = 0; i < pebbles.size(); ++i) {
    bool covered = false;
    for (std::size_t j = 0; j < pebbles.size() && !covered; ++j) {
      if (j == i) continue;
      const double gap =
          (pebbles[i].center - pebbles[j].center).norm() + pebbles[i].radius - pebbles[j].radius;
      const bool equal = pebbles[i].center == pebbles[j].center && pebbles[i].radius == pebbles[j].radius;
      // Of two equal pebbles only the later one counts as covered.
      covered = equal ? j < i : gap <= 0.0;
    }
    if (!covered) out.push_back(pebbles[i]);
  }
  return out;
}

}  // namespace clumplab::shapes
