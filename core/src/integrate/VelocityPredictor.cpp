#include "VelocityPredictor.hpp"

#include "core/integrate/StepContext.hpp"

namespace clumplab {

void computeForcesAtPredictedVelocities(ForceStage& forces, BodyState& s, VelocityCopy& drifted) {
  forces.evaluate(drifted.drift());
  s.velocity.swap(drifted.linear);
  s.angularVelocity.swap(drifted.angular);
}

}  // namespace clumplab
