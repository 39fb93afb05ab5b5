#pragma once
// The engine facade: owns templates, body state, walls, the contact model, the broad phase and
// the integrator. `step()` reads like a table of contents of one time step.
#include <array>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/BodyState.hpp"
#include "core/ClumpTemplate.hpp"
#include "core/ContactForces.hpp"
#include "core/ContactModel.hpp"
#include "core/Energy.hpp"
#include "core/Integrator.hpp"
#include "core/NeighborList.hpp"
#include "core/ThreadPool.hpp"
#include "core/Walls.hpp"

namespace clumplab {

struct WorldSettings {
  double timeStep = 1e-5;                // [s]
  Vec3 gravity = Vec3(0.0, 0.0, -9.81);  // [m/s^2], applied at centres of mass (seed 002)
  IntegratorKind integrator = IntegratorKind::Leapfrog;
  int eulerIterations = 4;  // leapfrog's iterative Euler solve (seed 000 §2.6)
  int threads = 1;          // force-loop threads; results do not depend on it
  double skin = 0.0;        // Verlet skin [m]; 0 picks 0.4 x smallest pebble radius
  bool gyroscopic = true;   // the omega x I omega term (off only for lessons)
  int rotorSubsteps = 4;    // splitting: NO_SQUISH free-rotor sub-steps per step
};

// A body to add: `orientation` rotates the template's principal frame into the world.
struct BodyInit {
  std::uint32_t templateIndex = 0;
  Vec3 position = Vec3::Zero();         // centre of mass [m]
  Quat orientation = Quat::Identity();  // principal frame -> world
  Vec3 velocity = Vec3::Zero();         // [m/s]
  Vec3 angularVelocity = Vec3::Zero();  // world [rad/s]
};

// Why a run stopped: NaN/Inf or an overlap beyond half a pebble radius.
struct Divergence {
  bool happened = false;
  std::uint32_t body = 0;
  double time = 0.0;
  std::string message;
};

enum class Stage { Pebbles, BroadPhase, Contacts, Reduce, Integrate, Count };

class World {
 public:
  World(const WorldSettings& settings, const ContactModel& contact, std::vector<Wall> walls,
        std::vector<TemplatePtr> templates);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  std::uint32_t addBody(const BodyInit& init);

  // Advances by one time step. Returns false (and leaves `divergence()` set) when the state
  // became non-finite or overlaps grew beyond half a pebble radius.
  bool step();

  EnergyReport energy();

  // --- used by integrators ------------------------------------------------------------------
  // Evaluates all forces at the current body state into bodies().force/torque, advancing contact
  // history (tangential springs) by one time step and adding one step of dissipated work. An
  // integrator makes exactly one such evaluation per step.
  void computeForces();
  // The same forces, for a step that starts with stale ones (first step, after an edit): contact
  // history does not advance and no dissipation is counted, since the state has not moved.
  void refreshForces();
  bool forcesCurrent() const { return forcesCurrent_; }

  // --- access ---------------------------------------------------------------------------------
  BodyState& bodies() { return bodies_; }
  const BodyState& bodies() const { return bodies_; }
  // Call after editing bodies() from outside: forgets cached forces and integrator history.
  void stateChanged();
  const std::vector<TemplatePtr>& templates() const { return templates_; }
  const std::vector<Wall>& walls() const { return walls_; }
  const ContactModel& contactModel() const { return contact_; }
  const WorldSettings& settings() const { return settings_; }
  void setTimeStep(double dt);
  double time() const { return time_; }
  std::uint64_t stepCount() const { return steps_; }
  std::size_t pebbleCount() const { return pebbles_.position.size(); }
  std::size_t contactCount() const { return pebbleContacts_ + wallContacts_; }
  std::size_t pebbleContactCount() const { return pebbleContacts_; }
  std::size_t wallContactCount() const { return wallContacts_; }
  double worstOverlapRatio() const { return worstOverlapRatio_; }
  const Divergence& divergence() const { return divergence_; }
  // The force-loop threads, shared with the integrators.
  ThreadPool& pool() { return pool_; }
  const PebbleArrays& pebbles() const { return pebbles_; }
  const NeighborList& neighbors() const { return neighbors_; }
  // The contacts of the last force evaluation (points and forces).
  const ContactSolver& contactSolver() const { return contacts_; }
  // Largest stable step estimate for the contact stiffness [s] (2 sqrt(m_eff/k)), and the
  // recommended step (a tenth of a contact's duration).
  double criticalTimeStep() const;
  double recommendedTimeStep() const;
  // Seconds spent per stage since construction.
  const std::array<double, static_cast<int>(Stage::Count)>& stageSeconds() const { return stageSeconds_; }
  void addStageTime(Stage s, double seconds) { stageSeconds_[static_cast<int>(s)] += seconds; }

 private:
  // Stages of a force evaluation; `historyStep` [s] is how far contact history advances and how
  // long the dissipation rate acts (0 for a refresh).
  void evaluateForces(double historyStep);
  bool placePebblesAndCheckList();
  void applyBodyForces();
  void addContactForces(double& dissipationPower);
  void updatePebblePositions();
  bool checkDivergence();

  WorldSettings settings_;
  ContactModel contact_;
  std::vector<Wall> walls_;
  std::vector<TemplatePtr> templates_;
  BodyState bodies_;
  // Flat pebble data: template-local centre, and world arrays rebuilt every step (seed 001 §4:
  // pebble positions always come from the body pose, never integrated on their own).
  std::vector<Vec3> pebbleLocal_;
  std::vector<std::uint32_t> bodyFirstPebble_;
  PebbleArrays pebbles_;
  NeighborList neighbors_;
  ContactSolver contacts_;
  ThreadPool pool_;
  std::unique_ptr<Integrator> integrator_;

  double time_ = 0.0;
  std::uint64_t steps_ = 0;
  // time = timeOrigin_ + (steps_ - stepsAtOrigin_) x dt: no round-off accumulates over long runs.
  double timeOrigin_ = 0.0;
  std::uint64_t stepsAtOrigin_ = 0;
  double dissipated_ = 0.0;
  bool forcesCurrent_ = false;
  std::size_t pebbleContacts_ = 0;
  std::size_t wallContacts_ = 0;
  double worstOverlapRatio_ = 0.0;
  std::uint32_t worstBody_ = 0;
  Divergence divergence_;
  std::array<double, static_cast<int>(Stage::Count)> stageSeconds_{};
};

}  // namespace clumplab
