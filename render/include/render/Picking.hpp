#pragma once
// Which body is under the cursor: exact ray-sphere tests against every pebble, on the CPU.
#include <cstdint>
#include <optional>

#include "core/world/Snapshot.hpp"
#include "render/Camera.hpp"

namespace clumplab::render {

struct PickHit {
  std::uint32_t body;  // index into Snapshot::bodies
  Vec3 point;          // where the ray enters the pebble, world [m]
  double distance;     // from the ray origin [m]
};

// The nearest pebble the ray enters (or, from inside a pebble, leaves) ahead of its origin.
std::optional<PickHit> pickBody(const Snapshot& snapshot, const Ray& ray);

}  // namespace clumplab::render
