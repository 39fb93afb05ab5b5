#include "core/world/Placement.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "core/clump/PlacedPebble.hpp"

namespace clumplab {

namespace {
// The pebbles of `body` that can reach into a sphere of radius `sphereRadius` about `sphereCenter`:
// a pebble farther than its reach plus that radius touches nothing inside (with room for rounding,
// so that no pebble that could overlap is left out).
void pebblesNear(const PlacedBody& body, const Vec3& sphereCenter, double sphereRadius,
                 std::vector<PlacedPebble>& out) {
  out.clear();
  const Mat3 rotation = body.orientation.toRotationMatrix();
  for (const Pebble& p : body.shape->pebbles) {
    const PlacedPebble placed = placePebble(p, body.position, rotation);
    const double range = (p.reach() + sphereRadius) * (1.0 + 1e-9);
    if ((placed.center - sphereCenter).squaredNorm() > range * range) continue;
    out.push_back(placed);
  }
}
}  // namespace

bool bodiesOverlap(const PlacedBody& x, const PlacedBody& y) {
  const double reach = x.shape->boundingRadius + y.shape->boundingRadius;
  if ((x.position - y.position).squaredNorm() >= reach * reach) return false;
  // Only the pebbles of each body that reach into the other's bounding sphere can touch: wing nuts
  // of hundreds of pebbles, generated flat in a plane, test a few pairs instead of all of them.
  thread_local std::vector<PlacedPebble> nearX, nearY;
  pebblesNear(x, y.position, y.shape->boundingRadius, nearX);
  if (nearX.empty()) return false;
  pebblesNear(y, x.position, x.shape->boundingRadius, nearY);
  for (const PlacedPebble& p : nearX) {
    for (const PlacedPebble& q : nearY) {
      const double r = p.radius + q.radius;
      if (coreDistance2(p, q) < r * r) return true;
    }
  }
  return false;
}

bool clearOfWalls(const PlacedBody& x, const std::vector<Wall>& walls, double time) {
  for (const Pebble& p : x.shape->pebbles) {
    const Vec3 pw = x.position + x.orientation * p.center;
    const Vec3 shaft = p.halfLength * (x.orientation * p.axis);
    for (const Wall& w : walls) {
      // The shaft's ends are its points nearest a plane or a cavity's surface; a shaft across a
      // membrane is stuck in it.
      if (w.clearance(pw - shaft, time, p.radius) < p.radius ||
          w.clearance(pw + shaft, time, p.radius) < p.radius) {
        return false;
      }
      if (w.kind == Wall::Kind::Membrane && !p.isSphere() && !w.passes(p.radius) &&
          ((pw - shaft - w.point).dot(w.normal) < 0.0) != ((pw + shaft - w.point).dot(w.normal) < 0.0)) {
        return false;
      }
    }
  }
  return true;
}

PlacementSet::PlacementSet(double largestBoundingRadius, const PeriodicBox& periodic)
    : cell_(2.0 * largestBoundingRadius), periodic_(periodic) {
  if (!(cell_ > 0.0) || !std::isfinite(cell_)) cell_ = 1.0;
  for (int a = 0; a < 3; ++a) {
    if (!periodic_.periodic[a]) continue;
    count_[a] = std::max(1, static_cast<int>(std::min(1e6, std::floor(periodic_.length[a] / cell_))));
    periodicCell_[a] = periodic_.length[a] / count_[a];
  }
}

void PlacementSet::add(const PlacedBody& body) {
  cells_[key(cellOf(body.position))].push_back(bodies_.size());
  bodies_.push_back(body);
}

bool PlacementSet::overlapsAny(const PlacedBody& candidate) const {
  // Across periodic faces two bodies are compared through their nearest images (as contacts are).
  const auto overlapsPlaced = [&](const PlacedBody& other) {
    if (!periodic_.any()) return bodiesOverlap(candidate, other);
    PlacedBody image = other;
    image.position = candidate.position + periodic_.minimumImage(other.position - candidate.position);
    return bodiesOverlap(candidate, image);
  };
  const Eigen::Array3i c = cellOf(candidate.position);
  // The distinct cells within one of c along each axis (wrapping on periodic axes).
  std::array<std::array<int, 3>, 3> near{};
  std::array<int, 3> count{};
  for (int a = 0; a < 3; ++a) {
    for (int d = -1; d <= 1; ++d) {
      const int k = periodic_.periodic[a] ? (c[a] + d + count_[a]) % count_[a] : c[a] + d;
      const auto last = near[a].begin() + count[a];
      if (std::find(near[a].begin(), last, k) == last) near[a][count[a]++] = k;
    }
  }
  for (int zi = 0; zi < count[2]; ++zi) {
    for (int yi = 0; yi < count[1]; ++yi) {
      for (int xi = 0; xi < count[0]; ++xi) {
        const auto it = cells_.find(key(Eigen::Array3i(near[0][xi], near[1][yi], near[2][zi])));
        if (it == cells_.end()) continue;
        for (const std::size_t i : it->second) {
          if (overlapsPlaced(bodies_[i])) return true;
        }
      }
    }
  }
  return false;
}

Eigen::Array3i PlacementSet::cellOf(const Vec3& x) const {
  Eigen::Array3i c = (x.array() / cell_).floor().cast<int>();
  const Vec3 inside = periodic_.wrap(x);
  for (int a = 0; a < 3; ++a) {
    if (!periodic_.periodic[a]) continue;
    c[a] = std::clamp(static_cast<int>(std::floor((inside[a] - periodic_.lower[a]) / periodicCell_[a])), 0,
                      count_[a] - 1);
  }
  return c;
}

std::uint64_t PlacementSet::key(const Eigen::Array3i& c) {
  const auto u = [](int v) { return static_cast<std::uint64_t>(static_cast<std::uint32_t>(v) & 0x1fffffu); };
  return (u(c.x()) << 42) | (u(c.y()) << 21) | u(c.z());
}

}  // namespace clumplab
