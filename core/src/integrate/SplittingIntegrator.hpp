#pragma once
#include "VelocityPredictor.hpp"
#include "core/base/Math.hpp"
#include "core/integrate/Integrator.hpp"

namespace clumplab {

// Symplectic splitting: half kick of linear and angular momentum by the forces, drift of the
// position, free rotor advanced by the NO_SQUISH sequence of exact rotations about the principal
// axes R1(h/2) R2(h/2) R3(h) R2(h/2) R1(h/2) (Miller, Eleftheriou, Pattnaik, Ndirango, Newns,
// Martyna, J. Chem. Phys. 116, 8649 (2002)), then a second half kick. Each sub-rotation is the
// exact flow of pi_k^2 / (2 I_k): world angular momentum is conserved to round-off. Forces at t + dt
// are taken at predicted end-of-step velocities (VelocityPredictor.hpp).
class SplittingIntegrator final : public ForceStageIntegrator {
 public:
  void step(const StepContext& step, ForceStageHistory& history, ForceStage& forces) override;
  double forceTimeFraction() const override { return 1.0; }  // forces at t + dt
  bool kicksLorentzForce() const override { return true; }
  // Free rotor for h in `substeps` NO_SQUISH sequences: q and the body-frame angular momentum pi
  // are updated in place.
  static void freeRotor(Quat& q, Vec3& pi, const Vec3& moments, double h, int substeps);

 private:
  VelocityCopy drifted_;  // scratch of each step (VelocityPredictor.hpp)
};

}  // namespace clumplab
