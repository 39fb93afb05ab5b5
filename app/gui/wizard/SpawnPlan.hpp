#pragma once
// Where the wizard's copies of a new template go: a box region above what is in the scene, and N
// bodies placed in it (uniformly, optionally in random orientations) with a velocity and a spin.
// Plain C++; SimulationLoop::spawn lifts each body clear of overlaps.
#include <cstdint>
#include <vector>

#include "core/world/BodyInit.hpp"
#include "core/world/Snapshot.hpp"

namespace clumplab::gui::wizard {

struct SpawnRegion {
  Vec3 lower = Vec3::Zero();  // [m], world
  Vec3 upper = Vec3::Zero();  // [m], world
};

// A box above the floor and the bodies of `scene`: centred over the bodies (or the walls' box, or
// the origin), its bottom 2 radii above the highest body top or the floor, wide enough for `count`
// bodies of bounding radius `radius` [m], kept inside an axis-aligned box of walls when there is one.
SpawnRegion defaultSpawnRegion(const Snapshot& scene, double radius, int count);

struct SpawnRequest {
  int count = 1;
  SpawnRegion region;
  bool randomOrientation = true;
  Vec3 velocity = Vec3::Zero();         // [m/s], world
  Vec3 angularVelocity = Vec3::Zero();  // [rad/s], world
  std::uint64_t seed = 1;
};

// `count` bodies of template 0 (SimulationLoop::spawn assigns the new template's index).
std::vector<BodyInit> spawnBodies(const SpawnRequest& request);

}  // namespace clumplab::gui::wizard
