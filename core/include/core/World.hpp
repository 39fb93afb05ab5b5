#pragma once
// The engine facade: owns templates, body state, walls, the contact model, the broad phase and
// the integrator. `step()` reads like a table of contents of one time step.
#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/BodyState.hpp"
#include "core/CimSettings.hpp"
#include "core/ClumpTemplate.hpp"
#include "core/ContactForces.hpp"
#include "core/ContactModel.hpp"
#include "core/Energy.hpp"
#include "core/EnergyWatch.hpp"
#include "core/Fields.hpp"
#include "core/Inlet.hpp"
#include "core/Integrator.hpp"
#include "core/MeshWallContacts.hpp"
#include "core/NeighborList.hpp"
#include "core/PeriodicBox.hpp"
#include "core/PlaneConstraint.hpp"
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
  // Global damping (0: none): a force -linearDamping m v on every body [1/s], and a torque
  // -angularDamping I omega with I the world inertia tensor R diag(I1, I2, I3) R^T [1/s]. Their work
  // counts as dissipated energy.
  double linearDamping = 0.0;
  double angularDamping = 0.0;
  FieldSettings fields;   // uniform E and B, G, softening (gravity is `gravity` above)
  PlaneConstraint plane;  // the 2D mode (off: 3D)
  PeriodicBox periodic;   // periodic boundaries on any subset of x, y, z (seed 004; none: all off)
  CimSettings cim;        // the cim and rk4 integrators (seed 004): buffer, RKF tolerances and steps
};

// A body to add: `orientation` rotates the template's principal frame into the world.
struct BodyInit {
  std::uint32_t templateIndex = 0;
  Vec3 position = Vec3::Zero();         // centre of mass [m]
  Quat orientation = Quat::Identity();  // principal frame -> world
  Vec3 velocity = Vec3::Zero();         // [m/s]
  Vec3 angularVelocity = Vec3::Zero();  // world [rad/s]
  std::uint8_t blocked = 0;             // blocked degrees of freedom (BlockedDofs.hpp); 0: free
};

// Why a run stopped: NaN/Inf, an overlap beyond half a pebble radius, an energy blow-up
// (EnergyWatch: `body` is then the one with the most kinetic energy), or what an integrator of its
// own forces reports (cim's missed contact names its bodies in the message).
struct Divergence {
  bool happened = false;
  std::uint32_t body = 0;
  double time = 0.0;
  std::string message;
};

enum class Stage { Pebbles, BroadPhase, Contacts, Reduce, Integrate, Count };

// A force applied from outside (the GUI's mouse drag) at a point fixed in the world until it is set
// again or cleared. Its work is user input, not dissipation: World::externalWork() books it, so that
// total + dissipated - external work is conserved while loads act.
struct ExternalLoad {
  std::uint32_t body = 0;
  Vec3 force = Vec3::Zero();  // [N], world
  Vec3 point = Vec3::Zero();  // [m], world; the torque about the centre of mass is (point - x) x force
};

class WorldCheckpoint;

class World {
 public:
  World(const WorldSettings& settings, const ContactModel& contact, std::vector<Wall> walls,
        std::vector<TemplatePtr> templates);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // `point`: its charge, dipoles (principal frame) and point-mass flag (Fields.hpp); without it,
  // its template's.
  std::uint32_t addBody(const BodyInit& init, const std::optional<PointProperties>& point = std::nullopt);

  // Advances by one time step. Returns false (and leaves `divergence()` set) when the state
  // became non-finite or overlaps grew beyond half a pebble radius, or (divergence() not set, the
  // world unchanged) when the step was cancelled (setStepCancel). Books the work of the
  // dissipative forces done in the step (see dissipatedEnergy()).
  bool step();

  EnergyReport energy();

  // --- editing between steps (the GUI's simulation thread) -----------------------------------
  // Each edit takes effect at the next step and the clock runs on without a jump. Bad values throw
  // std::invalid_argument (a bad body index std::out_of_range) and leave the world unchanged.
  void setTimeStep(double dt);           // [s]
  void setGravity(const Vec3& gravity);  // [m/s^2]
  void setContactModel(const ContactModel& contact);
  // A new integrator starts without history; `eulerIterations` in [1, 100] (leapfrog), and
  // `rotorSubsteps` in [1, 64] (splitting; the first form keeps the current value).
  void setIntegrator(IntegratorKind kind, int eulerIterations);
  void setIntegrator(IntegratorKind kind, int eulerIterations, int rotorSubsteps);
  void setDamping(double linear, double angular);  // [1/s] each, >= 0 (WorldSettings)
  // The cim and rk4 integrators' settings (CimSettings.hpp): buffer >= 0, tolerances > 0 and >= 0,
  // minimum step >= 0, maximum step > 0.
  void setCimSettings(const CimSettings& cim);
  // Keeps or removes the gyroscopic term omega x I omega of Euler's equations (WorldSettings).
  void setGyroscopic(bool on);
  // Uniform E and B, G and the softening (0: automatic), all finite, G and softening >= 0.
  void setFields(const FieldSettings& fields);
  // A body's charge, dipoles and point-mass flag.
  void setPointProperties(std::uint32_t body, const PointProperties& point);
  // Sets the clock [s] (a saved scene continues at its time); the step counter is kept.
  void setTime(double time);
  // Applies `force` [N] at `applicationPointWorld` [m] to `body` in every force evaluation until it
  // is replaced or cleared (one load per body). User input: its work goes to externalWork().
  void setExternalForce(std::uint32_t body, const Vec3& force, const Vec3& applicationPointWorld);
  void clearExternalForce(std::uint32_t body);
  void clearExternalForces();
  const std::vector<ExternalLoad>& externalLoads() const { return externalLoads_; }
  // Adds a template that addBody can then use; returns its index. A template already in the world
  // (the same object) is not added twice. Checkpoints made before stay restorable.
  std::uint32_t addTemplate(TemplatePtr t);
  // Removes a body and its pebbles. Bodies above it shift down by one: body i > `body` becomes
  // i - 1 (external loads follow their bodies). The remaining contacts keep their history and the
  // remaining bodies their integrator history, so they move on as if the body had vanished.
  void removeBody(std::uint32_t body);
  // An inlet (Inlet.hpp) that inserts bodies at the start of every step from now on; throws
  // std::invalid_argument if its templates are not the world's or it can never insert a body.
  void addInlet(const Inlet& inlet);
  const std::vector<Inlet>& inlets() const { return inlets_; }
  // [J] since construction: the kinetic and potential energy the inlets' bodies brought in, so that
  // total + dissipated - externalWork - insertedEnergy is conserved.
  double insertedEnergy() const { return insertedEnergy_; }
  // Lets step() run again after a divergence (call restore() first to leave the bad state).
  void clearDivergence();
  // Everything the next steps depend on. restore() followed by N steps gives the same bits as the
  // N steps that followed checkpoint() (settings included: edit after restoring). A checkpoint
  // restores only into the world that made it (same templates); else std::invalid_argument.
  WorldCheckpoint checkpoint() const;
  void restore(const WorldCheckpoint& checkpoint);

  // --- used by integrators ------------------------------------------------------------------
  // Evaluates all forces at the current body state into bodies().force/torque, advancing contact
  // history (tangential springs) by one time step; the energy the springs lose counts as
  // dissipated at once, and step() books the work of the evaluation's dissipative forces once the
  // integrator has produced the velocities they act on. An integrator makes exactly one such
  // evaluation per step, at its forceTimeFraction(). The springs advance from the time of the last
  // evaluation with the `drift` velocities (DriftVelocities; the bodies' own when not given).
  void computeForces(const DriftVelocities& drift = {});
  // The same forces, for a step that starts with stale ones (first step, after an edit): contact
  // history does not advance and no step of dissipated work is added for them here, since the
  // state has not moved (a spring that the edit shortened, e.g. lower friction, counts its loss).
  void refreshForces();
  bool forcesCurrent() const { return forcesCurrent_; }
  // For a kick of duration h [s] of body b: the Boris rotation vector t = q h B / (2 m) of the
  // magnetic Lorentz force (zero for an uncharged body; in the 2D mode B's normal part, the rest
  // only pushes against the plane). See VelocityKick.hpp.
  Vec3 lorentzRotation(std::size_t b, double h) const;
  // The softening length in use [m] (FieldSettings::softening, or the automatic value).
  double fieldSoftening() const { return softening_; }

  // --- access ---------------------------------------------------------------------------------
  BodyState& bodies() { return bodies_; }
  const BodyState& bodies() const { return bodies_; }
  // Call after editing bodies() from outside: forgets cached forces and integrator history.
  void stateChanged();
  const std::vector<TemplatePtr>& templates() const { return templates_; }
  const std::vector<Wall>& walls() const { return walls_; }
  const ContactModel& contactModel() const { return contact_; }
  const WorldSettings& settings() const { return settings_; }
  double time() const { return time_; }
  std::uint64_t stepCount() const { return steps_; }
  // [J] since construction: the work done against damping and friction (contact dashpots and
  // hysteresis, tangential forces less the change of the energy their springs store, global
  // damping), so that total + dissipated is conserved to the integrator's order (seed 001 §8).
  double dissipatedEnergy() const { return dissipated_; }
  // [J] since construction: the work done on the bodies by external loads, booked like the
  // dissipated energy (total + dissipated - externalWork is conserved to second order).
  double externalWork() const { return externalWork_; }
  // [J] since construction: the work the imposed motion of mesh walls did on the bodies (the
  // contact forces on the bodies times the walls' surface velocity, booked like the dissipated
  // energy): total + dissipated - externalWork - wallWork is conserved.
  double wallWork() const { return wallWork_; }
  // The mesh walls' contact stage (its contacts of the last force evaluation and their springs).
  const MeshWallContacts& meshWallContacts() const { return meshContacts_; }
  // Per wall (World::walls() order; a box is six planes: -x, +x, -y, +y, -z, +z faces), the
  // momentum the bodies gave it since construction [N s]: the time integral of the contact forces
  // on the wall, with the weights the integrator's kicks give each force evaluation, so that the
  // sum over walls plus the impulse of the body forces (gravity, fields, loads, damping) equals
  // minus the change of the bodies' total momentum to round-off (seed 001 §1 (iv)).
  const std::vector<Vec3>& wallImpulses() const { return wallImpulse_; }
  // The contact force on each wall of the last force evaluation [N].
  const std::vector<Vec3>& wallForces() const { return wallForce_; }
  std::size_t pebbleCount() const { return pebbles_.position.size(); }
  std::size_t contactCount() const { return pebbleContacts_ + wallContacts_; }
  // Where the contactCount() contacts touch [m], world, appended to `out`: pebble pairs and plane
  // walls, then mesh walls (the last force evaluation), or what cim / rk4 found at the step's end.
  void appendContactPoints(std::vector<Vec3>& out) const;
  std::size_t pebbleContactCount() const { return pebbleContacts_; }
  std::size_t wallContactCount() const { return wallContacts_; }
  double worstOverlapRatio() const { return worstOverlapRatio_; }
  const Divergence& divergence() const { return divergence_; }
  // The force-loop threads, shared with the integrators.
  ThreadPool& pool() { return pool_; }
  // A flag that, once set (from any thread), abandons a step that may take long (the cluster
  // integration's adaptive steps: a minute for a stiff contact at a large step): step() returns
  // false with no divergence and the world as it was before the step, which can be taken again
  // with the same result. The app so stops, pauses or replaces a world without waiting for the
  // step. Null (the default): never.
  void setStepCancel(const std::atomic<bool>* cancel) { stepCancel_ = cancel; }
  const std::atomic<bool>* stepCancel() const { return stepCancel_; }
  const PebbleArrays& pebbles() const { return pebbles_; }
  const NeighborList& neighbors() const { return neighbors_; }
  // What the neighbour list is built from: the pebbles, bodies, templates, walls and periodic axes.
  BroadPhaseInput broadPhaseInput() const;
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
  // A step of an integrator with forces of its own (cim, rk4): it advances the bodies, World books
  // what it reports (WorldOwnForces.cpp).
  bool stepOwnForces();
  // Throws std::invalid_argument when a mesh wall meets spherocylinders or cim / rk4 (ownForces).
  void requireMeshWallSupport(bool ownForces) const;
  // Throws std::invalid_argument when a body cannot have these blocked degrees of freedom here.
  void requireBlockedSupport(std::uint8_t blocked) const;
  // Stages of a force evaluation; `advance`: at the integrator's force time of this step, contact
  // history advancing from the last evaluation with `drift` (false: a refresh of the current state).
  void evaluateForces(bool advance, const DriftVelocities& drift);
  bool placePebblesAndCheckList();
  void applyBodyForces();
  double addContactForces();  // returns the change of the tangential springs' energy [J]
  // Powers [W] of the last evaluation's dissipative forces and torques (sum over bodies of
  // F_diss . v + T_diss . omega) and of its external loads, with v = (1 - s) v_now + s v_stepStart
  // (s = `startWeight`).
  struct Powers {
    double dissipative = 0.0;
    double external = 0.0;
  };
  Powers powers(double startWeight);
  void withdrawContactsOf(std::uint32_t body);
  void updatePebblePositions();
  void wrapIntoBox();  // periodic axes: centres of mass into the primary box (and what follows them)
  void advanceClock();
  bool checkDivergence();
  // A setting that changes the energy without booking it (gravity, stiffness, the step): forces
  // are evaluated again and the energy watch starts again.
  // stateChanged() without forgetting the integrator's history (addBody: the integrator extends it).
  void bodiesChanged();
  void forcesChanged() {
    forcesCurrent_ = false;
    energyWatch_.reset();
  }
  // Loads changed: forces are evaluated again (their work is booked, the watch goes on).
  void loadsChanged() { forcesCurrent_ = false; }
  // The energy report when it needs no rebuild of the neighbour list (which would move the list's
  // reference positions: the watch must not change the trajectory), otherwise nothing.
  std::optional<EnergyReport> energyReport(bool mayRebuild);
  // Every EnergyWatch::kEveryWorldSteps steps: a sample for the watch; true on a blow-up (then
  // divergence_ is set, its message still to write).
  bool energyBlewUp();
  void applyFieldForces();
  Vec3 actingMagneticField() const;  // B, or its normal part in the 2D mode [T]
  double minPebbleRadius() const;    // over the templates [m]; infinity without any
  void projectForcesOnPlane();
  void projectStateOnPlane();
  void applyBlockedForces();   // blocked force components to zero, torques onto the free axis
  void confineBlockedState();  // blocked velocity components to zero
  void addWallImpulses(double weight);
  void insertFromInlets();  // the "inlets" stage of step() (WorldInlets.cpp)

  WorldSettings settings_;
  ContactModel contact_;
  std::vector<Wall> walls_;
  std::vector<TemplatePtr> templates_;
  BodyState bodies_;
  // Flat pebble data: template-local centre, and world arrays rebuilt every step (seed 001 §4:
  // pebble positions always come from the body pose, never integrated on their own).
  std::vector<Vec3> pebbleLocal_;
  std::vector<Vec3> pebbleAxisLocal_;  // shaft axes, body frame (empty without spherocylinders)
  std::vector<std::uint32_t> bodyFirstPebble_;
  PebbleArrays pebbles_;
  NeighborList neighbors_;
  ContactSolver contacts_;
  MeshWallContacts meshContacts_;
  ThreadPool pool_;
  const std::atomic<bool>* stepCancel_ = nullptr;
  std::unique_ptr<Integrator> integrator_;
  std::vector<ExternalLoad> externalLoads_;  // sorted by body
  // Per body, from the last force evaluation: the part of force/torque that is not conservative
  // (contact dashpots and friction, global damping) [N], [N m] about the centre of mass.
  std::vector<Vec3> dissipativeForce_;
  std::vector<Vec3> dissipativeTorque_;
  // Per body, the sum of the whole-box shifts its centre got from wrapIntoBox [m]: position minus
  // this is its continuous path, which the gravity and uniform-field energies use.
  std::vector<Vec3> wrapDisplacement_;
  // Velocities at the start of the step, for integrators that evaluate forces before its end.
  std::vector<Vec3> stepStartVelocity_;
  std::vector<Vec3> stepStartAngularVelocity_;
  std::vector<Vec3> loadTorque_;     // per external load, about the centre of mass at the evaluation
  std::vector<double> powerChunks_;  // per body chunk, summed in chunk order
  std::vector<Vec3> wallForce_;      // per wall, contact force on it at the last evaluation [N]
  std::vector<Vec3> wallImpulse_;    // per wall, accumulated [N s]
  double softening_ = 0.0;           // resolved field softening [m]
  Powers lastPowers_;                // powers() at the end of the last step
  bool lastPowersCurrent_ = false;

  double time_ = 0.0;
  std::uint64_t steps_ = 0;
  // time = timeOrigin_ + (steps_ - stepsAtOrigin_) x dt: no round-off accumulates over long runs.
  double timeOrigin_ = 0.0;
  std::uint64_t stepsAtOrigin_ = 0;
  double dissipated_ = 0.0;
  double externalWork_ = 0.0;
  double wallWork_ = 0.0;
  std::vector<Inlet> inlets_;
  double insertedEnergy_ = 0.0;
  bool forcesCurrent_ = false;
  // How far the contact history (the state of the last force evaluation) lags the clock [s]: 0
  // after a refresh or an evaluation at the end of the step, dt / 2 after a midpoint evaluation.
  double historyLag_ = 0.0;
  std::size_t pebbleContacts_ = 0;
  std::size_t wallContacts_ = 0;
  double worstOverlapRatio_ = 0.0;
  std::uint32_t worstBody_ = 0;
  std::vector<Vec3> ownContactPoints_;  // of the last cim / rk4 step [m]
  Divergence divergence_;
  EnergyWatch energyWatch_;             // starts again after edits (stateChanged, forcesChanged, restore)
  std::optional<EnergyBlowUp> blowUp_;  // what the watch found, for the divergence message
  std::array<double, static_cast<int>(Stage::Count)> stageSeconds_{};
};

// A copy of everything a World's next steps depend on (World::checkpoint, World::restore): body and
// pebble state, forces (their dissipative parts and the loads' torques included), clock, dissipated
// energy and external work, contact history and the neighbour list, the integrator and its
// history, settings, contact model, external loads, inlets and their progress, divergence. Plain data
// (copyable); not stage times or the thread count.
class WorldCheckpoint {
 public:
  double time() const { return time_; }  // [s]
  std::uint64_t stepCount() const { return steps_; }
  std::size_t bodyCount() const { return bodies_.size(); }
  // Memory the checkpoint holds [bytes], estimated from its arrays (element sizes times counts;
  // the integrator's history counted as four vectors a body). For bounding a history of them.
  std::size_t memoryBytes() const;

 private:
  friend class World;
  std::vector<TemplatePtr> templates_;  // identifies the world
  WorldSettings settings_;
  ContactModel contact_;
  BodyState bodies_;
  std::vector<Vec3> pebbleLocal_;
  std::vector<Vec3> pebbleAxisLocal_;
  std::vector<std::uint32_t> bodyFirstPebble_;
  PebbleArrays pebbles_;
  NeighborList::Saved neighbors_;
  ContactSolver contacts_;
  MeshWallContacts meshContacts_;
  std::shared_ptr<const Integrator> integrator_;
  std::vector<ExternalLoad> externalLoads_;
  std::vector<Vec3> dissipativeForce_;
  std::vector<Vec3> dissipativeTorque_;
  std::vector<Vec3> wrapDisplacement_;
  std::vector<Vec3> loadTorque_;
  std::vector<Vec3> wallForce_;
  std::vector<Vec3> wallImpulse_;
  double softening_ = 0.0;
  double time_ = 0.0;
  std::uint64_t steps_ = 0;
  double timeOrigin_ = 0.0;
  std::uint64_t stepsAtOrigin_ = 0;
  double dissipated_ = 0.0;
  double externalWork_ = 0.0;
  double wallWork_ = 0.0;
  std::vector<Inlet> inlets_;  // settings and progress (random state included)
  double insertedEnergy_ = 0.0;
  bool forcesCurrent_ = false;
  double historyLag_ = 0.0;
  std::size_t pebbleContacts_ = 0;
  std::size_t wallContacts_ = 0;
  double worstOverlapRatio_ = 0.0;
  std::uint32_t worstBody_ = 0;
  std::vector<Vec3> ownContactPoints_;
  Divergence divergence_;
};

}  // namespace clumplab
