#pragma once
// Time integrators for rigid clumps. All keep positions, orientations and velocities synchronous
// at the end of a step and evaluate contact forces once per step.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace clumplab {

class World;

enum class IntegratorKind { Leapfrog, Midpoint, Splitting };

std::string_view integratorName(IntegratorKind kind);
std::optional<IntegratorKind> integratorFromName(std::string_view name);

class Integrator {
 public:
  virtual ~Integrator() = default;
  virtual void step(World& world) = 0;
  // Where in the step [t, t + dt] the one force evaluation happens, as a fraction of dt: 1 for the
  // kick-drift-kick schemes (forces at the end-of-step positions; those forces give the last half
  // kick of this step and the first of the next), 1/2 for the midpoint method (forces at the
  // midpoint give the whole step's kick). In general the forces of an evaluation at fraction f act
  // on velocities over the interval of length dt centred on t + f dt, f in [1/2, 1]. World books
  // the work of dissipative forces from it (World::step).
  virtual double forceTimeFraction() const = 0;
  // True when the integrator applies the magnetic Lorentz force q v x B in its velocity kicks (an
  // implicit-midpoint Boris rotation, World::lorentzRotation); otherwise World's force evaluation
  // includes it at the velocities of the evaluation.
  virtual bool kicksLorentzForce() const { return false; }
  // Forget derived history after the state was edited from outside.
  virtual void reset() {}
  // Body `index` was removed and those above renumbered down by one: drop its history only.
  virtual void removeBody(std::size_t index) { (void)index; }
  // A copy holding the same history (world checkpoints).
  virtual std::unique_ptr<Integrator> clone() const = 0;
};

// `eulerIterations`: fixed-point iterations of the leapfrog's Euler solve (seed 000 §2.6).
std::unique_ptr<Integrator> makeIntegrator(IntegratorKind kind, int eulerIterations);

}  // namespace clumplab
