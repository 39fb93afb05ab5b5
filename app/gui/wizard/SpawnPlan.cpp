#include "gui/wizard/SpawnPlan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

namespace clumplab::gui::wizard {

SpawnRegion defaultSpawnRegion(const Snapshot& scene, double radius, int count) {
  radius = std::max(radius, 1e-9);
  // Walls: a floor (a plane facing +z) and the faces of an axis-aligned box, if any.
  double floor = -std::numeric_limits<double>::infinity();
  Vec3 wallLower = Vec3::Constant(-std::numeric_limits<double>::infinity());
  Vec3 wallUpper = Vec3::Constant(std::numeric_limits<double>::infinity());
  for (const Wall& w : scene.walls) {
    if (w.kind != Wall::Kind::Plane) continue;
    for (int a = 0; a < 3; ++a) {
      if (w.normal[a] > 0.999) wallLower[a] = std::max(wallLower[a], w.point[a]);
      if (w.normal[a] < -0.999) wallUpper[a] = std::min(wallUpper[a], w.point[a]);
    }
    if (w.normal.z() > 0.999) floor = std::max(floor, w.point.z());
  }
  // The bodies: their centre in x and y, their highest top.
  Vec3 centre = Vec3::Zero();
  double top = std::isfinite(floor) ? floor : 0.0;
  const SnapshotBodies& b = scene.bodies;
  std::size_t counted = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (!b.position[i].allFinite()) continue;
    const std::uint32_t t = b.templateIndex[i];
    const double r =
        t < scene.templates.size() && scene.templates[t] ? scene.templates[t]->boundingRadius : 0.0;
    centre += b.position[i];
    top = std::max(top, b.position[i].z() + r);
    ++counted;
  }
  if (counted > 0) {
    centre /= static_cast<double>(counted);
  } else if (wallLower.head<2>().allFinite() && wallUpper.head<2>().allFinite()) {
    centre.head<2>() = 0.5 * (wallLower.head<2>() + wallUpper.head<2>());
  }
  // About 3 radii of room per body in a cube, and at least 4 radii a side.
  const double side =
      std::max(4.0 * radius, 3.0 * radius * std::cbrt(static_cast<double>(std::max(count, 1))));
  SpawnRegion region;
  region.lower = Vec3(centre.x() - 0.5 * side, centre.y() - 0.5 * side, top + 2.0 * radius);
  region.upper = Vec3(centre.x() + 0.5 * side, centre.y() + 0.5 * side, top + 2.0 * radius + side);
  // Round to a hundredth of the side's decade, inwards, so the numbers read well (2.04 cm, not
  // 2.0386992375594534 cm).
  // Dividing by a power of ten (exact) gives the shortest decimal text back.
  const double perStep = std::pow(10.0, 2.0 - std::floor(std::log10(side)));
  region.lower = (region.lower * perStep).array().ceil().matrix() / perStep;
  region.upper = (region.upper * perStep).array().floor().matrix() / perStep;
  for (int a = 0; a < 3; ++a) {  // inside a box of walls, one radius from its faces
    const double lo = wallLower[a] + radius, hi = wallUpper[a] - radius;
    if (lo < hi) {
      region.lower[a] = std::clamp(region.lower[a], lo, hi);
      region.upper[a] = std::clamp(region.upper[a], lo, hi);
    }
  }
  return region;
}

std::vector<BodyInit> spawnBodies(const SpawnRequest& request) {
  std::mt19937_64 random(request.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<BodyInit> bodies;
  for (int i = 0; i < request.count; ++i) {
    BodyInit body;
    for (int a = 0; a < 3; ++a)
      body.position[a] =
          request.region.lower[a] + unit(random) * (request.region.upper[a] - request.region.lower[a]);
    if (request.randomOrientation) {
      // Uniformly distributed rotation (Shoemake, "Uniform random rotations", Graphics Gems III, 1992).
      const double u1 = unit(random), u2 = unit(random), u3 = unit(random);
      const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
      const double t2 = 2.0 * std::numbers::pi * u2, t3 = 2.0 * std::numbers::pi * u3;
      body.orientation =
          Quat(b * std::cos(t3), a * std::sin(t2), a * std::cos(t2), b * std::sin(t3)).normalized();
    }
    body.velocity = request.velocity;
    body.angularVelocity = request.angularVelocity;
    bodies.push_back(body);
  }
  return bodies;
}

}  // namespace clumplab::gui::wizard
