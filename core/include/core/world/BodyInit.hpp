#pragma once
// A body to add to a world (World::addBody), as a scene lists it and a spawn places it.
#include <cstdint>

#include "core/base/Math.hpp"

namespace clumplab {

// `orientation` rotates the template's principal frame into the world.
struct BodyInit {
  std::uint32_t templateIndex = 0;
  Vec3 position = Vec3::Zero();         // centre of mass [m]
  Quat orientation = Quat::Identity();  // principal frame -> world
  Vec3 velocity = Vec3::Zero();         // [m/s]
  Vec3 angularVelocity = Vec3::Zero();  // world [rad/s]
  std::uint8_t blocked = 0;             // blocked degrees of freedom (BlockedDofs.hpp); 0: free
};

}  // namespace clumplab
