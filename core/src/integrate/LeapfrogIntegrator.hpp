#pragma once
#include <vector>

#include "VelocityPredictor.hpp"
#include "core/base/Math.hpp"
#include "core/integrate/Integrator.hpp"

namespace clumplab {

// MercuryDPM/PFC leap-frog (MercuryDPM rigid clumps, §2.5-2.6), written in its synchronous kick-drift-kick
// form: translation is velocity Verlet; rotation advances the body-frame angular velocity with the iterative
// solve of Euler's equations (eq. 27-28) over each half step, and the orientation with the exact rotation by
// the half-step angular velocity. Forces at t+dt are taken at predicted end-of-step velocities
// (VelocityPredictor.hpp), which keeps it second order with damping, dashpots and friction. A body of
// equal principal moments (a sphere) needs no solve: its kicks and drift are taken in the world
// frame (IsotropicSpin.hpp).
class LeapfrogIntegrator final : public ForceStageIntegrator {
 public:
  explicit LeapfrogIntegrator(int eulerIterations) : iterations_(eulerIterations) {}
  void step(const StepContext& step, ForceStageHistory& history, ForceStage& forces) override;
  double forceTimeFraction() const override { return 1.0; }  // forces at t + dt
  bool kicksLorentzForce() const override { return true; }

  // Half-kicks of Euler's equations in the principal frame, I w' = M - w x I w (eq. 27 with a
  // diagonal tensor), solved by the fixed-point iteration of MercuryDPM rigid clumps, §2.6 over the interval
  // h, for `count` bodies at once (interleaved to hide latency); `out` may alias `omega0`. With `predicted`
  // (may be null) also the kick taken twice, omega0 + 2 h omega' (VelocityPredictor.hpp).
  static void eulerKicks(const Vec3* omega0, const Vec3* torqueBody, const Vec3* moments, double h,
                         int iterations, bool gyroscopic, std::size_t count, Vec3* out,
                         Vec3* predicted = nullptr);

  // Bodies per batch (the unit of interleaving) and per parallel work item.
  static constexpr std::size_t kBatch = 16;
  static constexpr std::size_t kChunk = 8 * kBatch;

 private:
  int iterations_;
  VelocityCopy drifted_;  // scratch of each step (VelocityPredictor.hpp)
};

}  // namespace clumplab
