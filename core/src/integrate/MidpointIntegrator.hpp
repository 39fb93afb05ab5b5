#pragma once
#include <vector>

#include "VelocityPredictor.hpp"
#include "core/base/Math.hpp"
#include "core/integrate/Integrator.hpp"

namespace clumplab {

struct BodyState;

// Mutze's direct midpoint method (Mutze, Polyspherical grains, §6-7, eq. 58-69): free motion for dt/2, a
// velocity change from the forces evaluated once at the midpoint (with the previous accelerations used to
// estimate midpoint velocities, eq. 66 and 68), and free motion for dt/2. Rotation vectors and
// their composition (eq. 6-7) are carried out with the equivalent unit quaternions, which avoids
// the singularity of rotation vectors at half turns.
class MidpointIntegrator final : public ForceStageIntegrator {
 public:
  void step(const StepContext& step, ForceStageHistory& history, ForceStage& forces) override;
  double forceTimeFraction() const override { return 0.5; }  // forces at the midpoint (eq. 67)

  // Eq. 58-59: the free rigid-body flow Phi over tau for body b (second-order form, see .cpp).
  static void freeMotion(BodyState& s, std::size_t b, double tau, bool gyroscopic);

 private:
  VelocityCopy start_;  // scratch of each step: v_n and omega_n
};

}  // namespace clumplab
