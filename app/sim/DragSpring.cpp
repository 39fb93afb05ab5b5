#include "sim/DragSpring.hpp"
#include "core/world/World.hpp"

#include <algorithm>

namespace clumplab::sim {

void DragSpring::pull(World& world) const {
  const BodyState& b = world.bodies();
  const Vec3 arm = b.orientation[body] * anchorInBody;
  const Vec3 point = b.position[body] + arm;
  const Vec3 pointVelocity = b.velocity[body] + b.angularVelocity[body].cross(arm);
  const double w = kAngularFrequency;
  // Across a periodic face the cursor pulls towards the image of the target nearest the body.
  const Vec3 toTarget = world.model().settings.periodic.minimumImage(target - point);
  Vec3 force = b.mass[body] * (w * w * toTarget - 2.0 * w * pointVelocity);
  const double cap =
      kForceCapInWeights * b.mass[body] * std::max(9.81, world.model().settings.gravity.norm());
  if (force.norm() > cap) force *= cap / force.norm();
  world.setExternalForce(body, force, point);
}

void DragSpring::moveBody(World& world) const {
  BodyState& b = world.bodies();
  b.position[body] = target - b.orientation[body] * anchorInBody;
  b.velocity[body].setZero();
  b.angularVelocity[body].setZero();
  world.stateChanged();
}

}  // namespace clumplab::sim
