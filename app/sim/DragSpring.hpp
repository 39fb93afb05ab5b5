#pragma once
// The mouse drag on a body: a critically damped spring on the grabbed point, scaled by the body's
// mass so that every body follows the cursor alike, F = m (w^2 (target - p) - 2 w v_p), capped at a
// multiple of the body's weight. While the run is paused the body is moved instead, so that the
// grabbed point sits on the target.
#include <cstdint>

#include "core/base/Math.hpp"

namespace clumplab {
class World;
}  // namespace clumplab

namespace clumplab::sim {

struct DragSpring {
  static constexpr double kAngularFrequency = 12.0;   // natural frequency w [rad/s]
  static constexpr double kForceCapInWeights = 30.0;  // cap: this many weights (at least 9.81 m/s^2)

  std::uint32_t body = 0;
  Vec3 anchorInBody = Vec3::Zero();  // grabbed point in the body (principal) frame [m]
  Vec3 target = Vec3::Zero();        // where the cursor wants it [m], world

  // Sets the spring's force on the grabbed point as the body's external force (World::setExternalForce).
  void pull(World& world) const;
  // Moves the body (no rotation) so that the grabbed point sits on the target, at rest.
  void moveBody(World& world) const;
};

}  // namespace clumplab::sim
