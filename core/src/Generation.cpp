#include "core/Generation.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <unordered_map>

#include "core/ShaftDistance.hpp"

namespace clumplab {

Quat randomRotation(SplitMix64& rng) {
  const double u1 = rng.uniform(), u2 = rng.uniform(), u3 = rng.uniform();
  const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
  const double t2 = 2.0 * std::numbers::pi * u2, t3 = 2.0 * std::numbers::pi * u3;
  return Quat(b * std::cos(t3), a * std::sin(t2), a * std::cos(t2), b * std::sin(t3)).normalized();
}

namespace {

struct Placed {
  Vec3 position;
  Quat orientation;
  const ClumpTemplate* shape;
};

bool overlaps(const Placed& x, const Placed& y) {
  const double reach = x.shape->boundingRadius + y.shape->boundingRadius;
  if ((x.position - y.position).squaredNorm() >= reach * reach) return false;
  for (const Pebble& p : x.shape->pebbles) {
    const Vec3 pw = x.position + x.orientation * p.center;
    for (const Pebble& q : y.shape->pebbles) {
      const Vec3 qw = y.position + y.orientation * q.center;
      const double r = p.radius + q.radius;
      // Spheres by their centres, spherocylinders by their shafts (seed 004 Fig. 2).
      const double d2 = p.isSphere() && q.isSphere()
                            ? (pw - qw).squaredNorm()
                            : closestShaftPoints(qw - pw, x.orientation * p.axis, p.halfLength,
                                                 y.orientation * q.axis, q.halfLength)
                                  .distance2;
      if (d2 < r * r) return true;
    }
  }
  return false;
}

bool insideWalls(const Placed& x, const std::vector<Wall>& walls) {
  for (const Pebble& p : x.shape->pebbles) {
    const Vec3 pw = x.position + x.orientation * p.center;
    const Vec3 shaft = p.halfLength * (x.orientation * p.axis);
    for (const Wall& w : walls) {
      // The shaft's ends are its points nearest a plane or a cavity's surface; a shaft across a
      // membrane is stuck in it.
      if (w.clearance(pw - shaft) < p.radius || w.clearance(pw + shaft) < p.radius) return false;
      if (w.kind == Wall::Kind::Membrane && !p.isSphere() && !w.passes(p.radius) &&
          ((pw - shaft - w.point).dot(w.normal) < 0.0) != ((pw + shaft - w.point).dot(w.normal) < 0.0)) {
        return false;
      }
    }
  }
  return true;
}

// Placed bodies hashed on a uniform grid of cells at least as wide as the largest body, so a
// candidate is tested only against bodies in the 27 cells around it (generation stays O(N)). On a
// periodic axis the cells span the box exactly and wrap around (positions wrapped into it).
class PlacementGrid {
 public:
  PlacementGrid(double cell, const PeriodicBox& periodic) : cell_(cell), periodic_(periodic) {
    for (int a = 0; a < 3; ++a) {
      if (!periodic_.periodic[a]) continue;
      count_[a] = std::max(1, static_cast<int>(std::min(1e6, std::floor(periodic_.length[a] / cell))));
      periodicCell_[a] = periodic_.length[a] / count_[a];
    }
  }
  void insert(std::size_t index, const Vec3& x) { cells_[key(coords(x))].push_back(index); }
  template <class Visit>
  bool anyNear(const Vec3& x, Visit&& overlapsWith) const {
    const Eigen::Array3i c = coords(x);
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
          for (std::size_t i : it->second) {
            if (overlapsWith(i)) return true;
          }
        }
      }
    }
    return false;
  }

 private:
  Eigen::Array3i coords(const Vec3& x) const {
    Eigen::Array3i c = (x.array() / cell_).floor().cast<int>();
    const Vec3 inside = periodic_.wrap(x);
    for (int a = 0; a < 3; ++a) {
      if (!periodic_.periodic[a]) continue;
      c[a] = std::clamp(static_cast<int>(std::floor((inside[a] - periodic_.lower[a]) / periodicCell_[a])), 0,
                        count_[a] - 1);
    }
    return c;
  }
  static std::uint64_t key(const Eigen::Array3i& c) {
    const auto u = [](int v) {
      return static_cast<std::uint64_t>(static_cast<std::uint32_t>(v) & 0x1fffffu);
    };
    return (u(c.x()) << 42) | (u(c.y()) << 21) | u(c.z());
  }
  double cell_;
  PeriodicBox periodic_;
  std::array<int, 3> count_ = {1, 1, 1};  // cells along each periodic axis
  Vec3 periodicCell_ = Vec3::Ones();      // their width [m]
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> cells_;
};

}  // namespace

Vec3 randomInBall(SplitMix64& rng, double radius) {
  for (;;) {
    const Vec3 u(2.0 * rng.uniform() - 1.0, 2.0 * rng.uniform() - 1.0, 2.0 * rng.uniform() - 1.0);
    if (u.squaredNorm() <= 1.0) return radius * u;
  }
}

GenerationResult generateBodies(const GenerationRequest& request, std::vector<TemplatePtr>& templates,
                                std::vector<BodyInit>& bodies, const std::vector<Wall>& walls) {
  GenerationResult result;
  SplitMix64 rng(request.seed);
  std::vector<Placed> placed;
  placed.reserve(bodies.size() + request.count);
  for (const BodyInit& b : bodies)
    placed.push_back({b.position, b.orientation, templates[b.templateIndex].get()});
  const TemplatePtr base = templates[request.templateIndex];
  double reach = base->boundingRadius * std::max(1.0, request.scaleMax);
  for (const Placed& p : placed) reach = std::max(reach, p.shape->boundingRadius);
  PlacementGrid grid(2.0 * reach, request.periodic);
  // Across periodic faces two bodies are compared through their nearest images (as contacts are).
  const auto overlapsPlaced = [&](const Placed& candidate, const Placed& other) {
    if (!request.periodic.any()) return overlaps(candidate, other);
    Placed image = other;
    image.position = candidate.position + request.periodic.minimumImage(other.position - candidate.position);
    return overlaps(candidate, image);
  };
  for (std::size_t i = 0; i < placed.size(); ++i) grid.insert(i, placed[i].position);
  const std::size_t maxAttempts = request.maxAttemptsPerBody * std::max<std::size_t>(request.count, 1);
  while (result.placed < request.count && result.attempts < maxAttempts) {
    ++result.attempts;
    const double scale = request.scaleMin + (request.scaleMax - request.scaleMin) * rng.uniform();
    const Quat userRotation =
        request.randomOrientation && !request.plane.enabled ? randomRotation(rng) : Quat::Identity();
    Vec3 u(rng.uniform(), rng.uniform(), rng.uniform());
    Vec3 position = request.regionMin + u.cwiseProduct(request.regionMax - request.regionMin);
    if (request.plane.enabled) position = request.plane.onPlane(position);
    position = request.periodic.wrap(position);
    TemplatePtr shape = base;
    if (scale != 1.0) shape = std::make_shared<const ClumpTemplate>(scaledTemplate(*base, scale));
    // The user's rotation applies to the template as written; compose with its principal rotation.
    Quat orientation = (userRotation * shape->rotationFromInput.conjugate()).normalized();
    if (request.plane.enabled && request.randomOrientation) {
      // In 2D a body lies flat in the plane, its axis of largest moment along the normal (the axis
      // it turns about, and a stable one), turned by a random angle about it.
      const double angle = 2.0 * std::numbers::pi * rng.uniform();
      const Quat flat = Quat::FromTwoVectors(Vec3::UnitZ(), request.plane.normal);
      orientation = (Quat(Eigen::AngleAxisd(angle, request.plane.normal)) * flat).normalized();
    }
    const Placed candidate{position, orientation, shape.get()};
    if (!insideWalls(candidate, walls)) continue;
    if (grid.anyNear(position, [&](std::size_t i) { return overlapsPlaced(candidate, placed[i]); })) continue;
    std::uint32_t index = request.templateIndex;
    if (shape != base) {
      index = static_cast<std::uint32_t>(templates.size());
      templates.push_back(shape);
      result.copyScales.push_back(scale);
    }
    grid.insert(placed.size(), position);
    placed.push_back({position, orientation, shape.get()});
    Vec3 velocity = request.velocity, angularVelocity = request.angularVelocity;
    if (request.randomSpeed > 0.0) velocity += randomInBall(rng, request.randomSpeed);
    if (request.randomSpin > 0.0) angularVelocity += randomInBall(rng, request.randomSpin);
    if (request.plane.enabled) {
      velocity = request.plane.inPlane(velocity);
      angularVelocity = request.plane.alongNormal(angularVelocity);
    }
    bodies.push_back({index, position, orientation, velocity, angularVelocity});
    ++result.placed;
  }
  return result;
}

}  // namespace clumplab
