#pragma once
// Time integrators for rigid clumps. All keep positions, orientations and velocities synchronous
// at the end of a step; the classic ones evaluate World's contact forces once per step, cim and rk4
// (SelfForcedIntegrator) evaluate their own as often as they need.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/Math.hpp"
#include "core/integrate/StepContext.hpp"
#include "core/model/IntegratorKind.hpp"

namespace clumplab {

struct BodyState;

// What an integrator that evaluates its own forces did in one World step, for World to book.
struct OwnForcesStep {
  double dissipated = 0.0;        // [J] work of the dissipative forces over the step (>= 0)
  double externalWork = 0.0;      // [J] work of the external loads over the step
  std::vector<Vec3> wallImpulse;  // per wall (World::walls() order) [N s], given to the wall
  // Per body, how far the step wrapped it into the periodic box (whole box lengths) [m]; empty: none.
  std::vector<Vec3> wrapShift;
  // The contacts at the end of the step, and where they touch [m] (world, one per contact).
  std::size_t pebbleContacts = 0;
  std::size_t wallContacts = 0;
  std::vector<Vec3> contactPoints;
  double worstOverlapRatio = 0.0;  // largest overlap / smaller pebble radius
  std::uint32_t worstBody = 0;
  bool ok = true;  // false: the step could not be completed (see `problem`)
  // Stopped by World::stepCancel(): nothing changed (world nor integrator), the step can be taken
  // again and gives the same bits.
  bool cancelled = false;
  std::string problem;  // why, for the divergence message
};

// What every integrator keeps: its history of the bodies (none for some), which World edits when
// bodies come and go and copies into checkpoints. An integrator is one of two kinds: a
// ForceStageIntegrator (leapfrog, midpoint, splitting), which kicks and drifts the bodies around
// one evaluation of World's force stage per step, or a SelfForcedIntegrator (cim, rk4), which
// evaluates forces of its own and reports what World books.
class Integrator {
 public:
  virtual ~Integrator() = default;
  // Forget derived history after the state was edited from outside.
  virtual void reset() {}
  // Body `index` was removed and those above renumbered down by one: drop its history only.
  virtual void removeBody(std::size_t index) { (void)index; }
  // A body was appended to `bodies` (the last one): give it a history of its own, keeping the
  // others' (an inlet or a spawn must not shift the other bodies' trajectories). By default the
  // whole history is forgotten.
  virtual void addBody(const BodyState& bodies) {
    (void)bodies;
    reset();
  }
  // A copy holding the same history (world checkpoints).
  virtual std::unique_ptr<Integrator> clone() const = 0;
  // Memory a clone holds [bytes] for a world of `bodies` bodies (WorldCheckpoint::memoryBytes):
  // the object and its history, counted exactly by leapfrog, midpoint and splitting; by default
  // estimated as the object and four vectors a body (cim and rk4, whose models and caches are
  // larger structures).
  virtual std::size_t memoryBytes(std::size_t bodies) const {
    return kObjectBytes + 4 * bodies * sizeof(Vec3);
  }

 protected:
  static constexpr std::size_t kObjectBytes = 1024;  // the default's allowance for the object itself
};

// Leapfrog, midpoint and splitting: World::step calls step(), which makes exactly one force
// evaluation (ForceStage::evaluate) at forceTimeFraction() of the step.
class ForceStageIntegrator : public Integrator {
 public:
  virtual void step(const StepContext& step, ForceStage& forces) = 0;
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

// cim and rk4: World::step calls advance() and books what it returns; World's force stage is not
// used.
class SelfForcedIntegrator : public Integrator {
 public:
  // Advances step.bodies by `dt` [s]. `edited`: settings, contact model, loads or templates may
  // have changed since the last call.
  virtual OwnForcesStep advance(const StepContext& step, double dt, bool edited) = 0;
  // The energy stored in the contacts at the world's current state [J] (World::energy).
  virtual double elasticEnergy(const WorldView& world) const = 0;
};

}  // namespace clumplab
