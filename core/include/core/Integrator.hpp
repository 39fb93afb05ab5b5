#pragma once
// Time integrators for rigid clumps. All keep positions, orientations and velocities synchronous
// at the end of a step and evaluate contact forces once per step.
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
  // Forget derived history after the state was edited from outside.
  virtual void reset() {}
};

// `eulerIterations`: fixed-point iterations of the leapfrog's Euler solve (seed 000 §2.6).
std::unique_ptr<Integrator> makeIntegrator(IntegratorKind kind, int eulerIterations);

}  // namespace clumplab
