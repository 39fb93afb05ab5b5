#include "core/world/Generation.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "core/base/OrderedDraws.hpp"
#include "core/world/Placement.hpp"

namespace clumplab {

Quat flatRandomRotation(SplitMix64& rng, const Vec3& normal) {
  const double angle = 2.0 * std::numbers::pi * rng.uniform();
  const Quat flat = Quat::FromTwoVectors(Vec3::UnitZ(), normal);
  return (Quat(Eigen::AngleAxisd(angle, normal)) * flat).normalized();
}

Quat randomRotation(SplitMix64& rng) {
  const double u1 = rng.uniform(), u2 = rng.uniform(), u3 = rng.uniform();
  const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
  const double t2 = 2.0 * std::numbers::pi * u2, t3 = 2.0 * std::numbers::pi * u3;
  return Quat(b * std::cos(t3), a * std::sin(t2), a * std::cos(t2), b * std::sin(t3)).normalized();
}

Vec3 randomInBall(SplitMix64& rng, double radius) {
  for (;;) {
    const Vec3 u = drawVec3LastFirst([&] { return 2.0 * rng.uniform() - 1.0; });
    if (u.squaredNorm() <= 1.0) return radius * u;
  }
}

GenerationResult generateBodies(const GenerationRequest& request, std::vector<TemplatePtr>& templates,
                                std::vector<BodyInit>& bodies, const std::vector<Wall>& walls) {
  GenerationResult result;
  SplitMix64 rng(request.seed);
  const TemplatePtr base = templates[request.templateIndex];
  double reach = base->boundingRadius * std::max(1.0, request.scaleMax);
  for (const BodyInit& b : bodies) reach = std::max(reach, templates[b.templateIndex]->boundingRadius);
  PlacementSet placed(reach, request.periodic);
  for (const BodyInit& b : bodies) placed.add({b.position, b.orientation, templates[b.templateIndex].get()});
  const std::size_t maxAttempts = request.maxAttemptsPerBody * std::max<std::size_t>(request.count, 1);
  while (result.placed < request.count && result.attempts < maxAttempts) {
    ++result.attempts;
    const double scale = request.scaleMin + (request.scaleMax - request.scaleMin) * rng.uniform();
    const Quat userRotation =
        request.randomOrientation && !request.plane.enabled ? randomRotation(rng) : Quat::Identity();
    Vec3 u = drawVec3LastFirst([&] { return rng.uniform(); });
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
      orientation = flatRandomRotation(rng, request.plane.normal);
    }
    const PlacedBody candidate{position, orientation, shape.get()};
    if (!clearOfWalls(candidate, walls) || placed.overlapsAny(candidate)) continue;
    std::uint32_t index = request.templateIndex;
    if (shape != base) {
      index = static_cast<std::uint32_t>(templates.size());
      templates.push_back(shape);
      result.copyScales.push_back(scale);
    }
    placed.add(candidate);
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
