#pragma once
// What an integrator works on in one World step, after MuJoCo's split of mjModel and mjData and
// Box2D's b2StepContext: the model it reads, the bodies it advances, the loads, the threads and the
// cancel flag. An integrator that uses the engine's force stage gets that stage as a ForceStage.
// Neither sees the World facade.
#include <atomic>
#include <cstddef>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab {

struct WorldModel;       // WorldModel.hpp
struct BodyState;        // BodyState.hpp
struct ExternalLoad;     // WorldState.hpp
struct DriftVelocities;  // BodyState.hpp
class ThreadPool;        // ThreadPool.hpp

// The same without the right to change anything: what the bodies are in the model, with their loads.
struct WorldView {
  const WorldModel& model;
  const BodyState& bodies;
  const std::vector<ExternalLoad>& loads;
};

struct StepContext {
  const WorldModel& model;  // settings (the step, the integrator's), contact law, walls, templates
  BodyState& bodies;        // advanced by the step
  const std::vector<ExternalLoad>& loads;  // the user's forces on bodies
  ThreadPool& pool;                        // the force-loop threads
  const std::atomic<bool>* cancel;         // once set, a long step is abandoned (null: never)

  WorldView view() const { return {model, bodies, loads}; }
};

// The engine's force evaluation as a force-stage integrator uses it (World implements it).
class ForceStage {
 public:
  // Evaluates the forces at the current state when an edit (or the first step) left them stale,
  // without advancing contact history (World::refreshForces).
  virtual void refreshIfStale() = 0;
  // The step's one force evaluation into bodies.force and .torque, the contact history advancing
  // from the last evaluation with `drift`.
  virtual void evaluate(const DriftVelocities& drift) = 0;
  // Whether some body can feel the magnetic Lorentz force, and its Boris rotation vector
  // t = q h B / (2 m) for a kick of body `body` over h [s] (VelocityKick.hpp).
  virtual bool hasLorentzKicks() const = 0;
  virtual Vec3 lorentzRotation(std::size_t body, double h) const = 0;

 protected:
  ~ForceStage() = default;
};

}  // namespace clumplab
