#include "core/Generation.hpp"

#include <cmath>
#include <map>
#include <numbers>

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
      if ((pw - qw).squaredNorm() < r * r) return true;
    }
  }
  return false;
}

bool insideWalls(const Placed& x, const std::vector<Wall>& walls) {
  for (const Pebble& p : x.shape->pebbles) {
    const Vec3 pw = x.position + x.orientation * p.center;
    for (const Wall& w : walls) {
      if (w.clearance(pw) < p.radius) return false;
    }
  }
  return true;
}

}  // namespace

GenerationResult generateBodies(const GenerationRequest& request, std::vector<TemplatePtr>& templates,
                                std::vector<BodyInit>& bodies, const std::vector<Wall>& walls) {
  GenerationResult result;
  SplitMix64 rng(request.seed);
  std::vector<Placed> placed;
  placed.reserve(bodies.size() + request.count);
  for (const BodyInit& b : bodies) placed.push_back({b.position, b.orientation, templates[b.templateIndex].get()});
  const TemplatePtr base = templates[request.templateIndex];
  const std::size_t maxAttempts = request.maxAttemptsPerBody * std::max<std::size_t>(request.count, 1);
  while (result.placed < request.count && result.attempts < maxAttempts) {
    ++result.attempts;
    const double scale = request.scaleMin + (request.scaleMax - request.scaleMin) * rng.uniform();
    const Quat userRotation = request.randomOrientation ? randomRotation(rng) : Quat::Identity();
    Vec3 u(rng.uniform(), rng.uniform(), rng.uniform());
    const Vec3 position = request.regionMin + u.cwiseProduct(request.regionMax - request.regionMin);
    TemplatePtr shape = base;
    if (scale != 1.0) shape = std::make_shared<const ClumpTemplate>(scaledTemplate(*base, scale));
    // The user's rotation applies to the template as written; compose with its principal rotation.
    const Quat orientation = (userRotation * shape->rotationFromInput.conjugate()).normalized();
    const Placed candidate{position, orientation, shape.get()};
    if (!insideWalls(candidate, walls)) continue;
    bool clear = true;
    for (const Placed& other : placed) {
      if (overlaps(candidate, other)) {
        clear = false;
        break;
      }
    }
    if (!clear) continue;
    std::uint32_t index = request.templateIndex;
    if (shape != base) {
      index = static_cast<std::uint32_t>(templates.size());
      templates.push_back(shape);
    }
    placed.push_back({position, orientation, shape.get()});
    bodies.push_back({index, position, orientation, request.velocity, request.angularVelocity});
    ++result.placed;
  }
  return result;
}

}  // namespace clumplab
