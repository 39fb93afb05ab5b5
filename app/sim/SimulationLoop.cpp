#include "sim/SimulationLoop.hpp"

#include <pthread.h>
#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

#include "core/base/VectorState.hpp"
#include "core/world/MotionEnergy.hpp"
#include "core/world/Placement.hpp"

// The simulation thread itself: building the world, taking the GUI's commands between steps,
// stepping at the pace RunPacing sets, and publishing frames and energy samples.
namespace clumplab::sim {

namespace {
// The divergence's likely cause, said after the engine's own explanation.
std::string causeSentence(DivergenceCause cause) {
  switch (cause) {
    case DivergenceCause::SpawnedBodies:
      return " It began right after bodies were added by hand: undo that to go on from before it.";
    case DivergenceCause::ParameterEdit:
      return " It began right after a parameter was changed: undo that change to go on.";
    case DivergenceCause::TimeStep:
    case DivergenceCause::Unknown:
      break;
  }
  return {};
}
}  // namespace

SimulationLoop::SimulationLoop() : thread_([this] { run(); }) {}

SimulationLoop::~SimulationLoop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cancelStep_ = true;  // a cluster-integration step can take a minute: the world is not needed any more
  wake_.notify_all();
  thread_.join();
}

void SimulationLoop::finishTrajectory(const std::string& problem) {
  if (!trajectory_) return;
  trajectoryStatus_.lastFrames = trajectory_->frames();
  try {
    trajectory_->finish();
    // An end the user did not ask for (the file is complete all the same).
    trajectoryStatus_.problem = problem.empty()
                                    ? problem
                                    : problem + "; " + trajectory_->plan().path + " is complete with " +
                                          std::to_string(trajectory_->frames()) + " frames";
  } catch (const std::exception& e) {
    trajectoryStatus_.problem = e.what();
  }
  trajectory_.reset();
  trajectoryStatus_.recording = false;
  ++trajectoryStatus_.finishedCount;
  dirty_ = true;
}

bool SimulationLoop::afterStep() {
  history_.afterStep(*world_);
  if (!trajectory_) return true;
  try {
    trajectory_->afterStep(*world_);
    return true;
  } catch (const std::exception& e) {
    // A full disk or a lost folder: the recording stops (what was written stays in the .partial
    // file) and the run pauses, so the user reads why before more goes unrecorded.
    trajectoryStatus_.problem = std::string(e.what()) + "; the recording stopped after " +
                                std::to_string(trajectory_->frames()) + " frames (kept in " +
                                trajectory_->plan().path + ".partial)";
    trajectoryStatus_.lastFrames = trajectory_->frames();
    trajectory_.reset();  // the writer has closed its file
    trajectoryStatus_.recording = false;
    ++trajectoryStatus_.finishedCount;
    running_ = false;
    pendingSteps_ = 0;
    dirty_ = true;
    return false;
  }
}

void SimulationLoop::takeCheckpoint() {
  lastGood_ = world_->checkpoint();
  lastCheckpoint_ = Clock::now();
}

void SimulationLoop::buildWorld() {
  finishTrajectory("");  // the file holds the run that ends here
  history_.clear();
  edits_.clear();
  advisedTimeStep_ = 0.0;
  drag_.reset();
  energyDivergence_.clear();
  lastGood_.reset();
  errorMessage_.clear();
  pendingSteps_ = 0;
  runUntil_.reset();
  holdAt_.reset();  // a new clock (a recording that held it ends: its time went back)
  world_.reset();
  ++sceneGeneration_;
  ++layoutGeneration_;
  ++bodyIndexGeneration_;
  dirty_ = true;
  if (!scene_) return;
  Scene scene = *scene_;
  parameters_.writeTo(scene.model.settings, scene.model.contact);
  try {
    world_ = clumplab::buildWorld(scene);
    world_->setStepCancel(&cancelStep_);
  } catch (const std::exception& e) {
    stopWithError(std::string("could not build the scene: ") + e.what());
    return;
  }
  pacing_.restart(Clock::now(), world_->time());
  takeCheckpoint();
  restartSpinWatch();
  history_.push(world_->checkpoint());
  publish();  // the initial state is the first point of every plot
}

bool SimulationLoop::applyCommands() {
  std::vector<std::function<void()>> commands;
  bool interrupting = false;
  {
    std::lock_guard lock(mutex_);
    commands.swap(commands_);
    // The commands that asked for a cancelled step are taken now; stop_ keeps cancelling.
    interrupting = cancelStep_.load();
    if (!stop_) cancelStep_ = false;
  }
  for (auto& c : commands) {
    // A command that fails (a bad value the engine refuses, memory) must not end the thread: the
    // run pauses and the window says why.
    try {
      c();
    } catch (const std::exception& e) {
      stopWithError(std::string("the last command failed: ") + e.what());
    }
    ++commandsApplied_;
  }
  if (!commands.empty()) dirty_ = true;
  return interrupting;
}

void SimulationLoop::stopWithError(const std::string& message) {
  errorMessage_ = message;
  running_ = false;
  pendingSteps_ = 0;
  dirty_ = true;
}

DragSpring SimulationLoop::dragSpring() const {
  return {drag_->body.index, drag_->anchorInBody, drag_->target};
}

void SimulationLoop::integrateKinetic(const EnergyReport& energy, double span) {
  // A world rebuilt or restored to an earlier state starts the integrals again.
  if (world_->stepCount() < kineticIntegralSteps_)
    rotationalKineticIntegral_ = translationalKineticIntegral_ = 0.0;
  kineticIntegralSteps_ = world_->stepCount();
  rotationalKineticIntegral_ += span * energy.keRotational;
  translationalKineticIntegral_ += span * energy.keTranslational;
}

bool SimulationLoop::stepOnce() {
  if (drag_) dragSpring().pull(*world_);
  if (world_->step()) {
    spin_.observe(*world_);
    if (!afterStep()) return false;
    // The kinetic energy's time integrals are summed as densely as the World's energy watch samples
    // (a blow-up is a divergence the World reports, core/energy/EnergyWatch.hpp).
    if (world_->stepCount() % kKineticIntegralEverySteps == 0) {
      integrateKinetic(motionEnergy(world_->model(), world_->state()),
                       kKineticIntegralEverySteps * world_->model().settings.timeStep);
    }
    return true;
  }
  if (cancelStep_.load()) return false;  // abandoned (World::setStepCancel) for a command: it comes first
  running_ = false;
  pendingSteps_ = 0;
  dirty_ = true;
  return false;
}

void SimulationLoop::advance() {
  const auto sliceStart = Clock::now();
  const auto budget = std::chrono::duration<double>(kFrameSeconds * kStepShareOfFrame);
  bool stepped = false;
  if (pendingSteps_ > 0) {
    // Single steps: each one is recorded, so N presses give N points in the energy plot.
    // Within the frame budget; the rest follow in the next slice (the thread does not sleep).
    while (pendingSteps_ > 0 && !diverged() && Clock::now() - sliceStart < budget) {
      --pendingSteps_;
      if (!stepOnce()) {
        if (cancelStep_.load()) ++pendingSteps_;  // abandoned, not taken: still due after the command
        break;
      }
      publish();
    }
    return;
  }
  if (!running_) return;
  const double dt = world_->model().settings.timeStep;
  double target = std::numeric_limits<double>::infinity();
  if (runUntil_) {
    target = *runUntil_;
    if (world_->time() + 0.5 * dt >= target) {  // reached: pause there
      runUntil_.reset();
      running_ = false;
      dirty_ = true;
      return;
    }
  } else if (!pacing_.asFastAsPossible()) {
    target = pacing_.realTimeTarget(sliceStart, world_->time(), dt);
  }
  if (holdAt_) target = std::min(target, *holdAt_);
  pacing_.setFallingBehind(false);
  while (world_->time() + 0.5 * dt < target) {
    if (Clock::now() - sliceStart > budget) {
      pacing_.setFallingBehind(!pacing_.asFastAsPossible() && !runUntil_);
      break;
    }
    if (!stepOnce()) break;
    stepped = true;
  }
  if (runUntil_ && world_->time() + 0.5 * dt >= *runUntil_) {  // reached: pause there
    runUntil_.reset();
    running_ = false;
    dirty_ = true;
  }
  if (holdAt_ && running_ && world_->time() + 0.5 * dt >= *holdAt_) {  // held there: pause
    running_ = false;
    dirty_ = true;
  }
  if (stepped) {
    dirty_ = true;
    if (!diverged() &&
        Clock::now() - lastCheckpoint_ > std::chrono::duration<double>(kCheckpointEverySeconds)) {
      takeCheckpoint();
    }
  }
}

void SimulationLoop::publish() {
  SimulationFrame& f = frames_.writeSlot();
  EnergyReport energy;
  if (world_) {
    energy = world_->energy();
  }
  f.stats = pacing_.stats(!running_);
  f.parameters = parameters_;
  f.sceneGeneration = sceneGeneration_;
  f.bodyIndexGeneration = bodyIndexGeneration_;
  f.loadGeneration = loadGeneration_;
  f.commandsApplied = commandsApplied_;
  f.sceneFile = scene_ ? scene_->file : std::string();
  f.diverged = diverged();
  f.problem = !f.diverged                           ? errorMessage_
              : world_->state().divergence.happened ? world_->state().divergence.message
                                                    : energyDivergence_;
  f.stepAdvised = advisedTimeStep_ > 0.0;
  f.advisedTimeStep = advisedTimeStep_;
  f.notice = notice_;
  f.noticeCount = noticeCount_;
  f.canRecover = f.diverged && lastGood_.has_value();
  f.cause = DivergenceCause::Unknown;
  f.causeSpawn = 0;
  if (f.diverged) {
    f.cause = edits_.cause(world_->time(),
                           world_->model().settings.timeStep > world_->timeSteps().recommended, f.causeSpawn);
    f.problem += causeSentence(f.cause);
  }
  f.spin = spin_.report();
  f.history = history_.stats(world_ ? world_->stepCount() : 0);
  f.trajectory = trajectoryStatus_;
  if (trajectory_) {
    f.trajectory.frames = trajectory_->frames();
    f.trajectory.bytes = trajectory_->bytes();
    f.trajectory.seconds = trajectory_->seconds();
  }
  EnergySample sample;
  if (world_) {
    captureSnapshot(*world_, energy, f.snapshot);
    stageTimes_.sample(Clock::now(), f.snapshot);
    f.recentStages = stageTimes_.perStep();
    const TemplateSteps steps = world_->timeSteps();
    f.criticalTimeStep = steps.critical;
    f.recommendedTimeStep = steps.recommended;
    if (world_->stepCount() < kineticIntegralSteps_) integrateKinetic(energy, 0.0);  // restarts them
    sample = {sceneGeneration_,           world_->stepCount(),          energy, world_->state().wallImpulse,
              rotationalKineticIntegral_, translationalKineticIntegral_};
  } else {
    f.snapshot = Snapshot{};
    stageTimes_.restart();
    f.recentStages = {};
  }
  f.snapshot.layoutGeneration = layoutGeneration_;
  // One sample per simulated instant: republishing a paused state adds no point to the plots. The
  // sample goes out before the frame, so a reader that sees the frame finds its sample too.
  if (world_ && (sample.steps != lastSampleSteps_ || sample.sceneGeneration != lastSampleGeneration_)) {
    lastSampleSteps_ = sample.steps;
    lastSampleGeneration_ = sample.sceneGeneration;
    std::lock_guard lock(mutex_);
    samples_.push_back(sample);
  }
  frames_.publish();
  dirty_ = false;
}

void SimulationLoop::run() {
  pthread_setname_np(pthread_self(), "simulation");  // as profilers and debuggers show it
  auto nextFrame = Clock::now();
  while (true) {
    {
      std::unique_lock lock(mutex_);
      if (stop_) break;
    }
    clearUpperVectorState();  // made by the GUI thread, whose AVX state would slow every step
    // What a command that would not wait shows at once, before a step (perhaps a long one, taken
    // again) runs on.
    if (applyCommands() && world_) publish();
    if (world_) {
      try {
        advance();
      } catch (const std::exception& e) {
        stopWithError(std::string("the simulation stopped: ") + e.what());
      }
    }
    const auto now = Clock::now();
    pacing_.updateRates(now, world_ ? world_->time() : 0.0, world_ ? world_->stepCount() : 0, running_);
    if (dirty_ || (running_ && world_)) publish();
    // Sleep until the next display frame unless there is work: a command, single steps, or a
    // simulation that is behind its target (then the next slice starts at once).
    nextFrame = std::max(
        nextFrame + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kFrameSeconds)),
        now);
    const bool stepping = world_ && !diverged();
    const bool busy =
        stepping && (pendingSteps_ > 0 ||
                     (running_ && (pacing_.asFastAsPossible() || runUntil_ || pacing_.fallingBehind())));
    std::unique_lock lock(mutex_);
    if (!busy) {
      wake_.wait_until(lock, running_ ? nextFrame : now + std::chrono::milliseconds(250),
                       [this] { return stop_ || !commands_.empty(); });
    }
  }
  finishTrajectory("");  // closing the app completes the file
}

}  // namespace clumplab::sim
