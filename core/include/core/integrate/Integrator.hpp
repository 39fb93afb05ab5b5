#pragma once
// Time integrators for rigid clumps. All keep positions, orientations and velocities synchronous
// at the end of a step; the classic ones evaluate World's contact forces once per step, cim and rk4
// (cim/SelfForcedIntegrator.hpp) evaluate their own as often as they need. An integrator holds no
// history: what it carries from one step to the next is data in the world's state (ForceStageHistory,
// cim::OwnForcesHistory), copied into checkpoints with the rest of it.
#include "core/integrate/ForceStageHistory.hpp"
#include "core/integrate/StepContext.hpp"

namespace clumplab {

// An integrator is one of two kinds: a ForceStageIntegrator (leapfrog, midpoint, splitting), which
// kicks and drifts the bodies around one evaluation of World's force stage per step, or a
// cim::SelfForcedIntegrator (cim, rk4), which evaluates forces of its own and reports what World books.
class Integrator {
 public:
  virtual ~Integrator() = default;
};

// Leapfrog, midpoint and splitting: World::step calls step(), which makes exactly one force
// evaluation (ForceStage::evaluate) at forceTimeFraction() of the step.
class ForceStageIntegrator : public Integrator {
 public:
  // Advances step.bodies by the model's time step, reading and updating `history`.
  virtual void step(const StepContext& step, ForceStageHistory& history, ForceStage& forces) = 0;
  // Where in the step [t, t + dt] the one force evaluation happens, as a fraction of dt: 1 for the
  // kick-drift-kick schemes (forces at the end-of-step positions; those forces give the last half
  // kick of this step and the first of the next), 1/2 for the midpoint method (forces at the
  // midpoint give the whole step's kick). In general the forces of an evaluation at fraction f act
  // on velocities over the interval of length dt centred on t + f dt, f in [1/2, 1]. World books
  // the work of dissipative forces from it (World::step).
  virtual double forceTimeFraction() const = 0;
  // True when the integrator applies the magnetic Lorentz force q v x B in its velocity kicks (an
  // implicit-midpoint Boris rotation, ForceStage::lorentzRotation); otherwise World's force evaluation
  // includes it at the velocities of the evaluation.
  virtual bool kicksLorentzForce() const { return false; }
};

}  // namespace clumplab
