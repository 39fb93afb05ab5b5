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

#include "core/base/ThreadPool.hpp"
#include "core/collision/NeighborList.hpp"
#include "core/energy/Energy.hpp"
#include "core/energy/EnergyWatch.hpp"
#include "core/integrate/Integrator.hpp"
#include "core/model/WorldModel.hpp"
#include "core/step/PebblePlacement.hpp"
#include "core/step/WorkBooking.hpp"
#include "core/world/BodyInit.hpp"
#include "core/world/TimeSteps.hpp"
#include "core/world/WorldState.hpp"

namespace clumplab {

class TimeStepEstimate;  // TimeStepEstimate.hpp, private
namespace cim {
class SelfForcedIntegrator;  // cim/SelfForcedIntegrator.hpp
}  // namespace cim

enum class Stage { Pebbles, BroadPhase, Contacts, Reduce, Integrate, Count };

struct WorldCheckpoint;

// World is the ForceStage of its force-stage integrators (StepContext.hpp), privately: nobody else
// evaluates its forces mid-step.
class World final : private ForceStage {
 public:
  // Bad settings throw std::invalid_argument naming the setting.
  explicit World(WorldModel model);
  World(const WorldSettings& settings, const ContactModel& contact, std::vector<Wall> walls,
        std::vector<TemplatePtr> templates);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // `point`: its charge, dipoles (principal frame) and point-mass flag (Fields.hpp); without it,
  // its template's. With the automatic skin (WorldSettings::skin 0), a body of finer pebbles than
  // the skin was resolved from shrinks it to theirs (resolvedSkin).
  std::uint32_t addBody(const BodyInit& init, const std::optional<PointProperties>& point = std::nullopt);
  // Room for `bodies` more bodies of `pebbles` pebbles in all: a scene's bodies added one by one then
  // reallocate nothing (a million pebbles would otherwise pass through arrays twice their size).
  void reserve(std::size_t bodies, std::size_t pebbles);

  // Advances by one time step. Returns false (and leaves `state().divergence` set) when the state
  // became non-finite or overlaps grew beyond half a pebble radius, or (no divergence set, the
  // world unchanged) when the step was cancelled (setStepCancel). Books the work of the
  // dissipative forces done in the step (state().ledger.dissipated).
  bool step();

  // The energy report of the current state (kinetic, potential, elastic, fields, and the ledger).
  // Changes nothing in the world: asking for it never changes a trajectory.
  // The part of it that needs no pebbles or contacts: motionEnergy(model(), state()) (MotionEnergy.hpp).
  EnergyReport energy() const;

  // --- editing between steps (the GUI's simulation thread) -----------------------------------
  // Each edit takes effect at the next step and the clock runs on without a jump. Bad values throw
  // std::invalid_argument (a bad body index std::out_of_range) and leave the world unchanged.
  // The part of the model a run may change (WorldModel.hpp), and the one way to change it: checked as
  // a whole against the declared ranges (ModelParameters.hpp) and what the integrator supports, then
  // applied where it differs. A new step moves the clock's origin (no jump); a new integrator (kind,
  // Euler iterations, rotor sub-steps) starts without history; a switch of contact law forgets the
  // history its springs meant; any edit but the gyroscopic flag evaluates the forces again.
  EditableModel editableModel() const;
  void setModel(const EditableModel& model);
  // setModel of the current editable model as `change` (a callable taking EditableModel&) leaves it.
  template <class Change>
  void editModel(Change&& change) {
    EditableModel m = editableModel();
    change(m);
    setModel(m);
  }
  // A body's charge, dipoles and point-mass flag.
  void setPointProperties(std::uint32_t body, const PointProperties& point);
  // Sets the clock [s] (a saved scene continues at its time); the step counter is kept.
  void setTime(double time);
  // Applies `force` [N] at `applicationPointWorld` [m] to `body` in every force evaluation until it
  // is replaced or cleared (one load per body). User input: its work goes to state().ledger.externalWork.
  void setExternalForce(std::uint32_t body, const Vec3& force, const Vec3& applicationPointWorld);
  void clearExternalForce(std::uint32_t body);
  void clearExternalForces();
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
  // Lets step() run again after a divergence (call restore() first to leave the bad state).
  void clearDivergence();
  // Everything the next steps depend on. restore() followed by N steps gives the same bits as the
  // N steps that followed checkpoint() (settings included: edit after restoring). A checkpoint
  // restores only into the world that made it (same templates); else std::invalid_argument.
  WorldCheckpoint checkpoint() const;
  // What checkpoint() would hold [bytes] (WorldCheckpoint::memoryBytes), without making one.
  std::size_t checkpointBytes() const;
  void restore(const WorldCheckpoint& checkpoint);

  // Evaluates the forces at the current state into bodies().force/torque (first step, after an
  // edit, or for a caller that reads them between steps): contact history does not advance and no
  // step of dissipated work is added for them here, since the state has not moved (a spring that
  // an edit shortened, e.g. lower friction, counts its loss).
  void refreshForces();

  // --- access ---------------------------------------------------------------------------------
  BodyState& bodies() { return state_.bodies; }
  const BodyState& bodies() const { return state_.bodies; }
  // Call after editing bodies() from outside: forgets cached forces and integrator history.
  void stateChanged();
  // The model and the state as values (WorldModel.hpp, WorldState.hpp): what a checkpoint copies.
  // Everything a run reads or produces is there: model().templates, .walls, .contact, .settings;
  // state().ledger (dissipated, external, wall and inserted work), .wallImpulse, .contacts,
  // .meshContacts, .pebbles, .loads, .inlets, .divergence.
  const WorldModel& model() const { return model_; }
  const WorldState& state() const { return state_; }
  double time() const { return state_.clock.time; }
  std::uint64_t stepCount() const { return state_.clock.steps; }
  std::size_t pebbleCount() const { return state_.pebbles.position.size(); }
  std::size_t contactCount() const { return state_.pebbleContacts + state_.wallContacts; }
  // Where the contactCount() contacts touch [m], world, appended to `out`: pebble pairs and plane
  // walls, then mesh walls (the last force evaluation), or what cim / rk4 found at the step's end.
  void appendContactPoints(std::vector<Vec3>& out) const;
  // A flag that, once set (from any thread), abandons a step that may take long (the cluster
  // integration's adaptive steps: a minute for a stiff contact at a large step): step() returns
  // false with no divergence and the world as it was before the step, which can be taken again
  // with the same result. The app so stops, pauses or replaces a world without waiting for the
  // step. Null (the default): never.
  void setStepCancel(const std::atomic<bool>* cancel) { stepCancel_ = cancel; }
  const NeighborList& neighbors() const { return neighbors_; }
  // What the neighbour list is built from: the pebbles, bodies, templates, walls and periodic axes.
  BroadPhaseInput broadPhaseInput() const;
  // Places the pebbles at the bodies' current poses and rebuilds the neighbour list if they moved
  // beyond its skin, as the next force evaluation would do first: for outputs that read state().pebbles
  // and neighbors() between steps (the benchmark's final overlaps). The pebbles otherwise holds the
  // positions of the last force evaluation.
  void syncPebbles();
  // The largest stable step estimate [s] (`critical`): the stiffest mode a body of a template in play
  // can meet (a flat face of it or one pebble, pressed from both sides, with the dashpots;
  // TimeStepEstimate.hpp), and the recommended step (`recommended`: the critical one, or a tenth of a
  // pebble's contact if that is shorter). A template whose bodies were all removed (Step back past a
  // spawn) no longer limits them; one body alone in free space has no limit (infinite).
  TemplateSteps timeSteps() const;
  // Seconds spent per stage since construction.
  const std::array<double, static_cast<int>(Stage::Count)>& stageSeconds() const { return stageSeconds_; }

 private:
  // --- the ForceStage of the force-stage integrators (StepContext.hpp) ------------------------
  // evaluate(): all forces at the current body state into bodies().force/torque, advancing contact
  // history (tangential springs) by one time step; the energy the springs lose counts as
  // dissipated at once, and step() books the work of the evaluation's dissipative forces once the
  // integrator has produced the velocities they act on. An integrator makes exactly one such
  // evaluation per step, at its forceTimeFraction(). The springs advance from the time of the last
  // evaluation with the `drift` velocities (DriftVelocities; the bodies' own when not given).
  void evaluate(const DriftVelocities& drift) override;
  void refreshIfStale() override;
  // For a kick of duration h [s] of body b: the Boris rotation vector t = q h B / (2 m) of the
  // magnetic Lorentz force (zero for an uncharged body; in the 2D mode B's normal part, the rest
  // only pushes against the plane). See VelocityKick.hpp.
  Vec3 lorentzRotation(std::size_t b, double h) const override;
  // Whether lorentzRotation can be non-zero for some body: a magnetic field acts and a body is
  // charged (or carries point properties).
  bool hasLorentzKicks() const override;
  // What the integrators work on (StepContext.hpp).
  StepContext stepContext() { return {model_, state_.bodies, state_.loads, pool_, stepCancel_}; }
  WorldView view() const { return {model_, state_.bodies, state_.loads}; }

  // A step of an integrator with forces of its own (cim, rk4): it advances the bodies, World books
  // what it reports (WorldOwnForces.cpp).
  bool stepOwnForces();
  // Takes `integrator` as integrator_ and notes which kind it is.
  void setIntegratorObject(std::unique_ptr<Integrator> integrator);
  // Throws std::invalid_argument when a mesh wall meets spherocylinders or cim / rk4 (ownForces).
  void requireMeshWallSupport(bool ownForces) const;
  // Throws std::invalid_argument when a body cannot have these blocked degrees of freedom here.
  void requireBlockedSupport(std::uint8_t blocked) const;
  // Stages of a force evaluation; `advance`: at the integrator's force time of this step, contact
  // history advancing from the last evaluation with `drift` (false: a refresh of the current state).
  void evaluateForces(bool advance, const DriftVelocities& drift);
  void withdrawContactsOf(std::uint32_t body);
  // Aborts with a message where an invariant of the state is broken (WorldInvariants.cpp); called
  // only in builds with CLUMPLAB_ASSERTIONS.
  void checkInvariants() const;
  BroadPhaseInput broadPhaseInputFor(const PebbleArrays& pebbles) const;
  // The bodies' pebbles as the pebble stage places them (PebbleStage.hpp): into state().pebbles.
  PebblePlacement pebblePlacement() { return {state_.bodyFirstPebble, model_.templates, state_.pebbles}; }
  // The periodic wrap (PeriodicWrap.hpp) of this world's bodies and what follows them.
  void wrapIntoBox(std::size_t first = 0);
  // What the work booking (WorkBooking.hpp) reads and books into.
  WorkBooking::Forces workForces();
  WorkBooking::Books workBooks() { return {state_.ledger, state_.wallImpulse}; }
  double forceStageSeconds() const;  // the force stages' seconds so far
  // A stage's running total in stageSeconds() [s], for a StageTimer (StageClock.hpp).
  double& stageTotal(Stage s) { return stageSeconds_[static_cast<int>(s)]; }
  bool checkDivergence();
  // The first body with a NaN or an infinity in its position, velocities or orientation; size() if none.
  std::size_t firstNonFiniteBody() const;
  // A setting that changes the energy without booking it (gravity, stiffness, the step): forces
  // are evaluated again and the energy watch starts again.
  // stateChanged() without forgetting the integrator's history (addBody: the integrator extends it).
  // From body `first` on (addBody: the new one; a pass over all per added body made loading quadratic).
  void bodiesChanged(std::size_t first = 0);
  // pointProperties_ again, from body `first` on (0: all of them afresh).
  void notePointProperties(std::size_t first);
  void forcesChanged() {
    state_.forcesCurrent = false;
    energyWatch_.reset();
  }
  // The contact stage's history (tangential springs, Mutze's largest overlaps) forgotten: what it
  // holds means nothing to a law that reads it otherwise, nor after a spell of cim or rk4 (their own).
  void clearContactHistory();
  // Loads changed: forces are evaluated again (their work is booked, the watch goes on).
  void loadsChanged() { state_.forcesCurrent = false; }
  // The energy report inside step() for the energy watch: the pebbles placed in the world's own
  // arrays; nothing when the neighbour list needs a rebuild (which would move the list's reference
  // positions: the watch must not change the trajectory).
  std::optional<EnergyReport> stepEnergy();
  // Elastic and field energy of pebbles placed at `placed` with contacts from `list`.
  void addPotentialEnergy(EnergyReport& e, const PebbleArrays& placed, const ContactHistory& list) const;
  // Every EnergyWatch::kEveryWorldSteps steps: a sample for the watch; true on a blow-up (then
  // the divergence is set, its message still to write).
  bool energyBlewUp();
  double minPebbleRadius() const;  // over the templates [m]; infinity without any
  void insertFromInlets();         // the "inlets" stage of step() (WorldInlets.cpp)
  // The templates of the bodies and the inlets (every template when there are none).
  std::vector<const ClumpTemplate*> templatesInPlay() const;
  std::vector<bool> templatesInPlayMask() const;  // the same, per index of model().templates

  WorldModel model_;
  WorldState state_;
  NeighborList neighbors_;
  MeshNearCache meshNear_;  // the pebbles' near triangles on mesh walls: not state
  ThreadPool pool_;
  const std::atomic<bool>* stepCancel_ = nullptr;
  std::unique_ptr<Integrator> integrator_;
  // integrator_ as the one of its two kinds it is (the other null): set by setIntegratorObject.
  ForceStageIntegrator* forceStage_ = nullptr;
  cim::SelfForcedIntegrator* selfForced_ = nullptr;
  WorkBooking workBooking_;  // its scratch and the last step's powers: not state
  // The critical step's cache (the templates' faces, their steps under the contact law): filled by
  // criticalTimeStep on the thread that steps the world.
  mutable std::shared_ptr<TimeStepEstimate> stepEstimate_;
  EnergyWatch energyWatch_;  // starts again after edits (stateChanged, forcesChanged, restore)
  // Whether some body carries a charge, dipole or point mass (hasPointProperties): kept as bodies
  // come, go and change (bodiesChanged, setPointProperties, removeBody, restore), not found by a
  // pass over every body's properties at every force evaluation.
  bool pointProperties_ = false;
  std::optional<EnergyBlowUp> blowUp_;  // what the watch found, for the divergence message
  std::array<double, static_cast<int>(Stage::Count)> stageSeconds_{};
};

// A copy of everything a World's next steps depend on (World::checkpoint, World::restore): the
// model and the state (bodies, pebbles, forces, clock, ledger, loads, inlets, contacts with their
// history, the integrator's history, divergence). Not the broad phase's bookkeeping, which restore()
// builds again around the history (ContactHistory.hpp: the same bits follow), nor stage times or the
// thread count. Plain data (copyable).
struct WorldCheckpoint {
  WorldModel model;  // its templates identify the world
  WorldState state;  // its contact history holds only the pairs that hold something

  double time() const { return state.clock.time; }  // [s]
  std::uint64_t stepCount() const { return state.clock.steps; }
  std::size_t bodyCount() const { return state.bodies.size(); }
  // Memory the checkpoint holds [bytes]: its arrays (element sizes times counts, which is what a
  // copy allocates), the contact records of both kinds and the integrator's history.
  // For bounding a history of them.
  std::size_t memoryBytes() const;
};

}  // namespace clumplab
