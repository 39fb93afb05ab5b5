#include "core/Generation.hpp"

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
// candidate is tested only against bodies in the 27 cells around it (generation stays O(N)).
class PlacementGrid {
 public:
  explicit PlacementGrid(double cell) : cell_(cell) {}
  void insert(std::size_t index, const Vec3& x) { cells_[key(coords(x))].push_back(index); }
  template <class Visit>
  bool anyNear(const Vec3& x, Visit&& overlapsWith) const {
    const Eigen::Array3i c = coords(x);
    for (int dz = -1; dz <= 1; ++dz) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const auto it = cells_.find(key(c + Eigen::Array3i(dx, dy, dz)));
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
  Eigen::Array3i coords(const Vec3& x) const { return (x.array() / cell_).floor().cast<int>(); }
  static std::uint64_t key(const Eigen::Array3i& c) {
    const auto u = [](int v) {
      return static_cast<std::uint64_t>(static_cast<std::uint32_t>(v) & 0x1fffffu);
    };
    return (u(c.x()) << 42) | (u(c.y()) << 21) | u(c.z());
  }
  double cell_;
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
  PlacementGrid grid(2.0 * reach);
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
    if (grid.anyNear(position, [&](std::size_t i) { return overlaps(candidate, placed[i]); })) continue;
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
