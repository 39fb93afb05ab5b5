#pragma once
// What the force-stage integrators carry from one step to the next besides the bodies' state: plain
// per-body arrays, held in WorldState and copied into checkpoints with the rest of it. Each array is
// empty until its integrator's first step (and again after an edit from outside, forget()): an
// integrator then starts from the bodies' state as in its first step.
#include <cstddef>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab {

struct BodyState;

struct ForceStageHistory {
  // Leapfrog: each body's body-frame angular velocity after its last kick (MercuryDPM rigid clumps,
  // §2.6: the Euler solve's unknown), so the next kick starts from it rather than from the world-frame
  // value turned back into the body frame.
  std::vector<Vec3> omegaBody;
  // The direct midpoint method: each body's alpha_k [m/s^2] and beta_k [rad/s^2] (Mutze, Polyspherical
  // grains, eq. 66-68); zero in the initial state (§7).
  std::vector<Vec3> acceleration;
  std::vector<Vec3> angularAcceleration;

  // Everything forgotten (the state was edited from outside, or another integrator takes over).
  void forget();
  // Body `index` was removed and those above renumbered down by one.
  void removeBody(std::size_t index);
  // A body was appended to `bodies` (the last one): its history joins the others' (an inlet or a
  // spawn must not shift the other bodies' trajectories). An empty array stays empty (the first step
  // fills it) and one not in step with the bodies is forgotten.
  void addBody(const BodyState& bodies);
  std::size_t memoryBytes() const;
};

}  // namespace clumplab
