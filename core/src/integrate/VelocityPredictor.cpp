#include "VelocityPredictor.hpp"

#include "core/world/World.hpp"

namespace clumplab {

void computeForcesAtPredictedVelocities(World& world, VelocityCopy& drifted) {
  world.computeForces(drifted.drift());
  BodyState& s = world.bodies();
  s.velocity.swap(drifted.linear);
  s.angularVelocity.swap(drifted.angular);
}

}  // namespace clumplab
