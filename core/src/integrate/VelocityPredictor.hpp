#pragma once
// Second order with velocity-dependent forces for the kick-drift-kick integrators (leapfrog,
// splitting). Their one force evaluation per step happens at t + dt, where they know only the
// half-kicked velocities v_{n+1/2}: damping, dashpots and friction taken at those lag the
// synchronous v_{n+1} by h F / m, and the trajectory is first order (the conservative forces,
// which need only x_{n+1}, keep it second order).
//
// The predictor gives the evaluation the velocities kicked once more by the last forces,
// v* = v_{n+1/2} + h F_n / m = 2 v_{n+1/2} - v_n (and the angular velocity of each integrator's own
// half kick taken twice: body-frame Euler kicks for the leapfrog, world angular momentum for the
// splitting method), which differ from v_{n+1} by O(dt^2) (the last forces differ from the new ones
// by O(dt)): the velocity-dependent forces are second order too, with one force evaluation per
// step. The tangential springs still advance with the velocities the bodies drifted with,
// v_{n+1/2} (DriftVelocities): the relative displacement over the step to second order.
// Conservative forces are unchanged to the bit. The integrators form v* in their first pass over
// the bodies, while the body's data are at hand (a separate pass cost 10% of a 1000-body pour).
//
// The alternatives: an implicit treatment of the linear global damping would fix only that force,
// not dashpots or friction; a corrector (a second force evaluation) would double a step's cost.
#include <vector>

#include "core/base/Math.hpp"
#include "core/clump/BodyState.hpp"

namespace clumplab {

class ForceStage;

// The end-of-step velocity predicted from the start-of-step one and the half-kicked one: the same
// kick once more.
inline Vec3 kickedTwice(const Vec3& start, const Vec3& halfKicked) {
  return 2.0 * halfKicked - start;
}

// The drifted velocities of a step, kept while the bodies hold the predicted ones for the force
// evaluation. Scratch: a copy of it (an integrator's clone in a checkpoint) starts empty.
struct VelocityCopy {
  std::vector<Vec3> linear, angular;  // [m/s], [rad/s], world

  VelocityCopy() = default;
  VelocityCopy(const VelocityCopy&) {}
  VelocityCopy& operator=(const VelocityCopy&) { return *this; }
  void resize(std::size_t n) {
    linear.resize(n);
    angular.resize(n);
  }
  void take(const BodyState& s) {
    linear = s.velocity;
    angular = s.angularVelocity;
  }
  DriftVelocities drift() const { return {&linear, &angular}; }
};

// The force evaluation at t + dt of a kick-drift-kick step: the bodies hold the predicted
// velocities and `drifted` the drifted ones; afterwards the bodies hold the drifted ones again.
void computeForcesAtPredictedVelocities(ForceStage& forces, BodyState& s, VelocityCopy& drifted);

}  // namespace clumplab
