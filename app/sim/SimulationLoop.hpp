#pragma once
// The simulation thread (after MuJoCo's simulate): the only code that touches the World. It paces
// itself against wall-clock time x the chosen speed, spends at most a bounded slice of each display
// frame stepping, applies the GUI's commands between steps, and publishes immutable frames through
// a triple buffer. Plain C++ (no Qt), so it can be tested and sanitised on its own. The commands
// are in SimulationCommands.cpp, the thread in SimulationLoop.cpp; its pacing is RunPacing's and the
// drag's force DragSpring's.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/scene/Scene.hpp"
#include "core/world/ClearSpot.hpp"
#include "core/world/World.hpp"
#include "sim/DragSpring.hpp"
#include "sim/EditLog.hpp"
#include "sim/RecentStageTimes.hpp"
#include "sim/RunPacing.hpp"
#include "sim/SimulationFrame.hpp"
#include "sim/SpinProbe.hpp"
#include "sim/StateHistory.hpp"
#include "sim/TrajectoryRecording.hpp"
#include "sim/TripleBuffer.hpp"

namespace clumplab::sim {

class SimulationLoop {
 public:
  SimulationLoop();
  ~SimulationLoop();  // stops and joins the thread
  SimulationLoop(const SimulationLoop&) = delete;
  SimulationLoop& operator=(const SimulationLoop&) = delete;

  // --- commands (any thread; applied by the simulation thread between steps) -------------------
  // Replaces the running scene (the world is built on the simulation thread). Paused or not as asked.
  void loadScene(std::shared_ptr<const Scene> scene, bool run);
  void setParameters(const EditableModel& parameters);
  void setRunning(bool running);
  void singleStep(int steps = 1);
  // Runs as fast as possible until the simulated time reaches `time` [s], then pauses (movies).
  void runUntil(double time);
  // A time [s] the run does not pass until lifted (std::nullopt): a deterministic recording's next
  // frame, so that a Run pressed during the recording stops there (paused) instead of running on.
  void holdAt(std::optional<double> time);
  // Rebuilds the world from the loaded scene with the current parameters.
  void reset();
  // Speed: simulated seconds per wall second in (0, 1]; or as fast as possible.
  void setSpeed(double speed, bool asFastAsPossible);
  // Adds bodies, none overlapping a body or a wall (ClearSpotFinder): each dropped at its position (the
  // lowest clear pose above it, or in the nearest column with room), or, with `aimedAt` [m], shot
  // from its position towards that point (from the first clear pose on the way). With `newTemplate`,
  // that template joins the world first (once) and every body uses it. A body with no room anywhere
  // near is not added, and a notice says so (SimulationFrame::notice).
  // `serial` names the spawn for removeSpawn (undo) and for the cause of a divergence (0: none).
  void spawn(const BodyInit& body, const std::optional<Vec3>& aimedAt = std::nullopt,
             std::uint64_t serial = 0);
  void spawn(std::vector<BodyInit> bodies, TemplatePtr newTemplate,
             const std::optional<Vec3>& aimedAt = std::nullopt, std::uint64_t serial = 0);
  // Deletes the bodies spawn `serial` added that are still there (undo of a spawn); a notice says
  // so when none is (deleted by hand, or gone with a step back).
  void removeSpawn(std::uint64_t serial);
  void removeBody(BodyRef body);
  // Mouse drag: a mass-scaled critically damped spring from the anchor to the target, force capped.
  // While paused, the body is moved so that the anchor sits on the target.
  void drag(const DragTarget& drag);
  void endDrag();
  // After a divergence: back to the last good state (at most kCheckpointEverySeconds of wall time
  // old, or the last edit), with `parameters` (a smaller step, or the parameters before an edit
  // undone), running (or paused, for a fix that comes in a command after it).
  void recoverFromDivergence(const EditableModel& parameters, bool run = true);
  // While paused: back to the newest held state older than the current one (StateHistory), with
  // the current parameters; stepping on from there reproduces the run bit for bit. Pauses.
  void stepBack();
  // Bounds of the step-back history: memory [bytes] and number of states.
  void setHistoryLimits(std::size_t capBytes, std::size_t maxStates);
  // Records the world's poses to a trajectory file from now on, at step boundaries (see
  // TrajectoryRecording); a recording in progress is finished first. Errors reach the frames'
  // `trajectory.problem`.
  void startTrajectory(const TrajectoryPlan& plan);
  // Finishes the recording (the file is complete when the frames say it is no longer recording).
  void stopTrajectory();
  // What a command does with a step in progress that may take long (a cim step: minutes for a stiff
  // contact at a large step). Abandon: the step stops (World::setStepCancel: the world stays as
  // before it) and is taken again after the command if the run goes on; for a user's discrete
  // actions (a new scene, a reset, a step back, a pause, a save, an edit, a spawn, a deletion). Not
  // for what comes in streams (a drag's moves) or on a timer (the autosave): a step longer than
  // their interval would never end.
  enum class StepInProgress { WaitForIt, Abandon };
  // Saves the live state as a scene file; `done` is called on the simulation thread with "" or an error.
  void saveScene(const std::string& path, std::function<void(const std::string& error)> done,
                 StepInProgress step = StepInProgress::Abandon);
  // Dzhanibekov mode: watches `body`'s spin about principal axis `axis` (0, 1, 2) every step from
  // now on (SpinProbe; a reset or load restarts the watch, deleting the body ends it).
  void watchSpin(BodyRef body, int axis);
  void stopWatchingSpin();
  // Sets `body`'s angular velocity to `omegaBody` [rad/s] in its principal frame (world: orientation
  // x omegaBody) between two steps, and restarts the watch on it about `watchAxis`.
  void setBodySpin(BodyRef body, const Vec3& omegaBody, int watchAxis);
  // Runs `fn` on the simulation thread between steps (tests and tools).
  void post(std::function<void()> fn, StepInProgress step = StepInProgress::WaitForIt);
  // Commands posted so far; a frame's `commandsApplied` reaching this number means the frame
  // reflects every one of them.
  std::uint64_t commandsPosted();

  // --- reading (GUI thread only) --------------------------------------------------------------
  // Takes the newest published frame if there is one; returns true if it changed.
  bool acquireFrame() { return frames_.acquire(); }
  const SimulationFrame& frame() const { return frames_.readSlot(); }
  // Moves the energy samples recorded since the last call into `out` (appending).
  void takeEnergySamples(std::vector<EnergySample>& out);

  static constexpr double kFrameSeconds = RunPacing::kFrameSeconds;
  static constexpr double kStepShareOfFrame = 0.8;        // at most this share of a frame is spent stepping
  static constexpr double kCheckpointEverySeconds = 0.5;  // wall time between last-good-state copies
  static constexpr std::uint64_t kKineticIntegralEverySteps = 64;  // kinetic energies: O(bodies)

 private:
  using Clock = std::chrono::steady_clock;
  void run();
  // Applies the commands posted; true if one of them abandoned a step (StepInProgress::Abandon).
  bool applyCommands();
  void buildWorld();
  void advance();
  bool stepOnce();
  // The drag's spring on the body the GUI grabbed (DragSpring).
  DragSpring dragSpring() const;
  void publish();
  void stopWithError(const std::string& message);
  void takeCheckpoint();
  // post() for the user's discrete actions (StepInProgress::Abandon).
  void postInterrupting(std::function<void()> fn) { post(std::move(fn), StepInProgress::Abandon); }
  void restartSpinWatch();  // the world's state jumped (reset, recovery, step back): count afresh
  // The history's and the trajectory's share of a step; false if the recording failed (paused).
  bool afterStep();
  // Ends the recording; `problem` "" for a clean end (a failure to finish the file replaces it).
  void finishTrajectory(const std::string& problem);
  void integrateKinetic(const EnergyReport& energy, double span);
  bool diverged() const {
    return world_ && (world_->state().divergence.happened || !energyDivergence_.empty());
  }
  // The world's bodies and walls as a ClearSpotFinder (built once for all the bodies of a spawn).
  ClearSpotFinder clearSpots() const;
  // Deletes body `index` now (with the spin watch and the edit log); the caller bumps the
  // generations and takes the checkpoint once.
  void eraseBody(std::uint32_t index);
  void notify(std::string text);  // SimulationFrame::notice
  // After an edit that may change the safe step (`safeBefore` [s] before it): when the safe step
  // fell below the step and to less than half what it was, the run pauses and the frames advise
  // the safe step (SimulationFrame::stepAdvised).
  void adviseOnStep(double safeBefore);

  // Shared with other threads, under mutex_.
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::function<void()>> commands_;
  std::uint64_t commandsPosted_ = 0;
  std::uint64_t commandsApplied_ = 0;  // simulation thread
  std::vector<EnergySample> samples_;
  bool stop_ = false;
  // Abandons a long step (World::setStepCancel: a cluster-integration step can take minutes). Set
  // with stop_, so the thread joins without waiting for it, and with a command posted with
  // StepInProgress::Abandon; cleared when the thread takes that command.
  std::atomic<bool> cancelStep_{false};

  TripleBuffer<SimulationFrame> frames_;

  // Simulation-thread state.
  std::shared_ptr<const Scene> scene_;
  EditableModel parameters_;
  std::unique_ptr<World> world_;
  std::uint64_t sceneGeneration_ = 0;
  std::uint64_t loadGeneration_ = 0;
  std::uint64_t layoutGeneration_ = 0;
  std::uint64_t bodyIndexGeneration_ = 0;  // SimulationFrame::bodyIndexGeneration
  // The world's body `body` names, now (false: no world, or indices shifted since it was chosen).
  bool current(BodyRef body) const;
  bool running_ = false;
  int pendingSteps_ = 0;
  double rotationalKineticIntegral_ = 0.0, translationalKineticIntegral_ = 0.0;  // [J s]
  std::uint64_t kineticIntegralSteps_ = 0;  // the step count they reach (a smaller one restarts them)
  std::optional<double> runUntil_;          // a target time to reach as fast as possible, then pause
  std::optional<double> holdAt_;            // a time the run does not pass (holdAt) [s]
  std::optional<DragTarget> drag_;
  SpinProbe spin_;
  bool dirty_ = true;  // something changed that the GUI has not seen
  std::optional<WorldCheckpoint> lastGood_;
  StateHistory history_;
  std::unique_ptr<TrajectoryRecording> trajectory_;
  TrajectoryStatus trajectoryStatus_;
  Clock::time_point lastCheckpoint_{};
  std::string errorMessage_;
  EditLog edits_;                 // spawns and edits: undo, and the cause of a divergence
  std::string notice_;            // SimulationFrame::notice
  double advisedTimeStep_ = 0.0;  // [s]; 0: no advice (SimulationFrame::stepAdvised)
  std::uint64_t noticeCount_ = 0;
  std::string energyDivergence_;  // a refused command or failed build; divergences live in the World
  RunPacing pacing_;
  RecentStageTimes stageTimes_;  // SimulationFrame::recentStages
  std::uint64_t lastSampleSteps_ = ~std::uint64_t{0};
  std::uint64_t lastSampleGeneration_ = 0;

  std::thread thread_;  // last: starts after every member is constructed
};

}  // namespace clumplab::sim
