#include "SimulationLoop.hpp"

#include <pthread.h>
#include <algorithm>
#include <cmath>
#include <exception>

#include "core/base/Errors.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/world/Placement.hpp"

namespace clumplab::gui {

namespace {
constexpr double kRateWindowSeconds = 0.5;
// Falling behind by more than this many wall seconds of the target drops the backlog (re-sync)
// instead of trying to catch up, so the view never races to make up for lost time.
constexpr double kMaxLagSeconds = 0.1;
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

void SimulationLoop::post(std::function<void()> fn, StepInProgress step) {
  {
    std::lock_guard lock(mutex_);
    commands_.push_back(std::move(fn));
    ++commandsPosted_;
    // Under the lock: the thread clears it only when it takes this command (applyCommands).
    if (step == StepInProgress::Abandon) cancelStep_ = true;
  }
  wake_.notify_all();
}

std::uint64_t SimulationLoop::commandsPosted() {
  std::lock_guard lock(mutex_);
  return commandsPosted_;
}

void SimulationLoop::loadScene(std::shared_ptr<const Scene> scene, bool run) {
  postInterrupting([this, scene = std::move(scene), run] {
    scene_ = scene;
    ++loadGeneration_;
    parameters_ = SceneParameters::fromScene(*scene_);
    running_ = run;
    spin_.stop();  // body indices belong to the old scene
    buildWorld();
  });
}

void SimulationLoop::setParameters(const SceneParameters& parameters) {
  // At once, also during a long step: an edit is often the fix for it (a softer contact).
  postInterrupting([this, parameters] {
    dirty_ = true;
    if (!world_) {
      parameters_ = parameters;
      return;
    }
    try {
      parameters.applyTo(*world_);
    } catch (const std::exception& e) {
      parameters_.applyTo(*world_);  // back to the set that worked (each setter checks before it sets)
      stopWithError(std::string("the engine refused the parameters: ") + e.what());
      return;
    }
    parameters_ = parameters;
    // Resuming after a divergence must not undo this edit.
    if (!diverged()) takeCheckpoint();
  });
}

void SimulationLoop::setRunning(bool running) {
  // A pause comes at once, not after a long step (which is then taken again on Run).
  auto command = [this, running] {
    if (running) errorMessage_.clear();  // the user has read it and goes on
    runUntil_.reset();
    running_ = running;
    anchorWall_ = Clock::now();
    anchorSim_ = world_ ? world_->time() : 0.0;
    rateWindow_.clear();
    dirty_ = true;
  };
  post(command, running ? StepInProgress::WaitForIt : StepInProgress::Abandon);
}

void SimulationLoop::singleStep(int steps) {
  post([this, steps] {
    running_ = false;
    dirty_ = true;
    if (!world_ || diverged()) return;  // nothing to step until resumed or reset
    pendingSteps_ += std::max(0, steps);
  });
}

void SimulationLoop::runUntil(double time) {
  post([this, time] {
    dirty_ = true;
    if (!world_ || diverged()) return;
    runUntil_ = time;
    running_ = true;
  });
}

void SimulationLoop::holdAt(std::optional<double> time) {
  post([this, time] {
    holdAt_ = time;
    dirty_ = true;
  });
}

void SimulationLoop::reset() {
  postInterrupting([this] { buildWorld(); });
}

void SimulationLoop::setSpeed(double speed, bool asFastAsPossible) {
  post([this, speed, asFastAsPossible] {
    speed_ = std::clamp(speed, 1e-3, 1.0);
    asFast_ = asFastAsPossible;
    anchorWall_ = Clock::now();
    anchorSim_ = world_ ? world_->time() : 0.0;
    rateWindow_.clear();
    dirty_ = true;
  });
}

void SimulationLoop::spawn(const BodyInit& body) {
  spawn(std::vector<BodyInit>{body}, nullptr);
}

void SimulationLoop::spawn(std::vector<BodyInit> bodies, TemplatePtr newTemplate) {
  postInterrupting([this, bodies = std::move(bodies), newTemplate = std::move(newTemplate)]() mutable {
    if (!world_ || diverged()) return;
    if (newTemplate && trajectory_) {
      // The file's template list was written at its start: a template it lacks ends it.
      finishTrajectory("a new template joined the scene, which ends the trajectory at t = " +
                       std::to_string(world_->time()) +
                       " s (a trajectory keeps the templates it began with)");
    }
    if (newTemplate) {
      const std::uint32_t index = world_->addTemplate(std::move(newTemplate));
      for (BodyInit& b : bodies) b.templateIndex = index;
    }
    for (const BodyInit& requested : bodies) {
      if (requested.templateIndex >= world_->templates().size()) continue;
      world_->addBody(clearOfOverlaps(requested));
    }
    takeCheckpoint();  // a checkpoint restores only the bodies it knew
    ++layoutGeneration_;
    dirty_ = true;
  });
}

bool SimulationLoop::current(BodyRef body) const {
  return world_ && body.generation == bodyIndexGeneration_ && body.index < world_->bodies().size();
}

void SimulationLoop::removeBody(BodyRef body) {
  postInterrupting([this, body] {
    if (!current(body) || diverged()) return;
    drag_.reset();  // the GUI's drag names a body by its index, which shifts
    world_->clearExternalForces();
    world_->removeBody(body.index);
    spin_.bodyRemoved(body.index);
    ++layoutGeneration_;
    ++bodyIndexGeneration_;
    takeCheckpoint();
    dirty_ = true;
  });
}

void SimulationLoop::watchSpin(BodyRef body, int axis) {
  post([this, body, axis] {
    if (current(body)) spin_.start(*world_, body.index, axis);
  });
}

void SimulationLoop::stopWatchingSpin() {
  post([this] { spin_.stop(); });
}

void SimulationLoop::setBodySpin(BodyRef body, const Vec3& omegaBody, int watchAxis) {
  post([this, body, omegaBody, watchAxis] {
    if (!current(body) || diverged() || !omegaBody.allFinite()) return;
    BodyState& b = world_->bodies();
    b.angularVelocity[body.index] = b.orientation[body.index] * omegaBody;
    world_->stateChanged();
    takeCheckpoint();  // resuming after a divergence must not undo the spin
    spin_.start(*world_, body.index, watchAxis);
    dirty_ = true;
  });
}

void SimulationLoop::restartSpinWatch() {
  if (spin_.active()) spin_.start(*world_, spin_.report().body, spin_.report().axis);
}

void SimulationLoop::drag(const DragTarget& drag) {
  post([this, drag] {
    // A drag begun on another layout (the body was deleted, the scene reset) names another body.
    if (!current(drag.body)) return;
    drag_ = drag;
    if (!running_) moveDraggedBody();
  });
}

void SimulationLoop::endDrag() {
  post([this] {
    drag_.reset();
    if (world_) world_->clearExternalForces();
    dirty_ = true;
  });
}

void SimulationLoop::recoverFromDivergence(const SceneParameters& parameters) {
  post([this, parameters] {
    if (!world_ || !lastGood_ || !diverged()) return;
    energyDivergence_.clear();
    // The checkpoint brings back its settings and loads too: apply the current parameters (with
    // the smaller step) over it, and drop any drag.
    world_->restore(*lastGood_);
    world_->clearDivergence();
    world_->clearExternalForces();
    drag_.reset();
    parameters_ = parameters;
    parameters_.applyTo(*world_);
    restartSpinWatch();
    errorMessage_.clear();
    running_ = true;
    anchorWall_ = Clock::now();
    anchorSim_ = world_->time();
    rateWindow_.clear();
    dirty_ = true;
  });
}

void SimulationLoop::stepBack() {
  postInterrupting([this] {
    running_ = false;
    pendingSteps_ = 0;
    runUntil_.reset();
    holdAt_.reset();  // time goes back: a recording that held it ends
    dirty_ = true;
    if (!world_) return;
    std::optional<WorldCheckpoint> back = history_.stepBack(world_->stepCount());
    if (!back) return;
    if (trajectory_) finishTrajectory("stepping back ended the trajectory (its frames go forward in time)");
    // The checkpoint brings back its settings: the current parameters go over it (applyTo sets only
    // what differs, so an unedited run continues to the same bits). A drag or divergence ends.
    world_->restore(*back);
    world_->clearDivergence();
    world_->clearExternalForces();
    parameters_.applyTo(*world_);
    drag_.reset();
    energyDivergence_.clear();
    errorMessage_.clear();
    ++layoutGeneration_;  // bodies spawned or deleted since come and go with the state
    ++bodyIndexGeneration_;
    takeCheckpoint();
    restartSpinWatch();  // time went back: the flips counted are in the future
  });
}

void SimulationLoop::setHistoryLimits(std::size_t capBytes, std::size_t maxStates) {
  post([this, capBytes, maxStates] {
    history_.setLimits(capBytes, maxStates);
    dirty_ = true;
  });
}

void SimulationLoop::startTrajectory(const TrajectoryPlan& plan) {
  post([this, plan] {
    dirty_ = true;
    if (trajectory_) finishTrajectory("");
    trajectoryStatus_.path = plan.path;
    try {
      if (!world_ || !scene_) throw std::runtime_error(plan.path + ": there is no scene to record");
      trajectory_ = std::make_unique<TrajectoryRecording>(plan, *world_, *scene_);
      trajectoryStatus_.recording = true;
      trajectoryStatus_.problem.clear();
    } catch (const std::exception& e) {
      trajectory_.reset();
      trajectoryStatus_.recording = false;
      trajectoryStatus_.problem = e.what();
      trajectoryStatus_.lastFrames = 0;
      ++trajectoryStatus_.finishedCount;
    }
  });
}

void SimulationLoop::stopTrajectory() {
  post([this] {
    if (trajectory_) finishTrajectory("");
  });
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

BodyInit SimulationLoop::clearOfOverlaps(BodyInit body) const {
  // Lift a new body until none of its pebbles overlaps a pebble or a wall (a spawn onto a pile
  // lands on top of it), by half bounding radii, at most 50 bounding radii. The overlap test is the
  // one generation and inlets use (core/Placement.hpp), against the bodies' poses (bodies spawned just
  // before are among them) and the mesh walls where their motion has them now.
  const ClumpTemplate& t = *world_->templates()[body.templateIndex];
  double reach = 0.0;
  for (const TemplatePtr& shape : world_->templates()) reach = std::max(reach, shape->boundingRadius);
  PlacementSet occupied(reach, world_->settings().periodic);
  const BodyState& b = world_->bodies();
  for (std::size_t i = 0; i < b.size(); ++i)
    occupied.add({b.position[i], b.orientation[i], world_->templates()[b.templateIndex[i]].get()});
  const auto overlaps = [&](const Vec3& at) {
    const PlacedBody candidate{at, body.orientation.normalized(), &t};
    return !clearOfWalls(candidate, world_->walls(), world_->time()) || occupied.overlapsAny(candidate);
  };
  const Vec3 gravity = world_->settings().gravity;
  const Vec3 up = gravity.norm() > 0.0 ? Vec3(-gravity.normalized()) : Vec3::UnitZ();
  for (int k = 0; k < 100 && overlaps(body.position); ++k) body.position += 0.5 * t.boundingRadius * up;
  return body;
}

void SimulationLoop::saveScene(const std::string& path, std::function<void(const std::string&)> done,
                               StepInProgress step) {
  auto command = [this, path, done = std::move(done)] {
    std::string error;
    try {
      if (!world_ || !scene_) throw std::runtime_error("there is no scene to save");
      if (diverged()) {
        throw std::runtime_error(path +
                                 ": not saved: the simulation diverged. Resume with a smaller time "
                                 "step or reset it first, so the file holds a state that runs.");
      }
      Scene saved = sceneFromWorld(*world_, *scene_);
      clumplab::saveScene(saved, path);
    } catch (const std::exception& e) {
      error = e.what();
    }
    done(error);
  };
  post(std::move(command), step);  // Abandon (the user's save): the file holds the state on show
}

void SimulationLoop::takeEnergySamples(std::vector<EnergySample>& out) {
  std::lock_guard lock(mutex_);
  out.insert(out.end(), samples_.begin(), samples_.end());
  samples_.clear();
}

void SimulationLoop::buildWorld() {
  finishTrajectory("");  // the file holds the run that ends here
  history_.clear();
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
  parameters_.writeTo(scene);
  try {
    world_ = clumplab::buildWorld(scene);
    world_->setStepCancel(&cancelStep_);
  } catch (const std::exception& e) {
    stopWithError(std::string("could not build the scene: ") + e.what());
    return;
  }
  anchorWall_ = Clock::now();
  anchorSim_ = world_->time();
  rateWindow_.clear();
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

void SimulationLoop::applyDragForce() {
  if (!drag_) return;
  // A critically damped spring on the grabbed point, scaled by the body's mass so every body
  // follows the cursor alike: F = m (w^2 (target - p) - 2 w v_p), capped at a multiple of its weight.
  const BodyState& b = world_->bodies();
  const std::uint32_t i = drag_->body.index;
  const Vec3 arm = b.orientation[i] * drag_->anchorInBody;
  const Vec3 point = b.position[i] + arm;
  const Vec3 pointVelocity = b.velocity[i] + b.angularVelocity[i].cross(arm);
  const double w = kDragAngularFrequency;
  // Across a periodic face the cursor pulls towards the image of the target nearest the body.
  const Vec3 toTarget = world_->settings().periodic.minimumImage(drag_->target - point);
  Vec3 force = b.mass[i] * (w * w * toTarget - 2.0 * w * pointVelocity);
  const double cap = kDragForceCapInWeights * b.mass[i] * std::max(9.81, world_->settings().gravity.norm());
  if (force.norm() > cap) force *= cap / force.norm();
  world_->setExternalForce(i, force, point);
}

void SimulationLoop::moveDraggedBody() {
  BodyState& b = world_->bodies();
  const std::uint32_t i = drag_->body.index;
  b.position[i] = drag_->target - b.orientation[i] * drag_->anchorInBody;
  b.velocity[i].setZero();
  b.angularVelocity[i].setZero();
  world_->stateChanged();
  dirty_ = true;
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
  applyDragForce();
  if (world_->step()) {
    spin_.observe(*world_);
    if (!afterStep()) return false;
    // The kinetic energy's time integrals are summed as densely as the World's energy watch samples
    // (a blow-up is a divergence the World reports, core/EnergyWatch.hpp).
    if (world_->stepCount() % kKineticIntegralEverySteps == 0) {
      integrateKinetic(world_->motionEnergy(), kKineticIntegralEverySteps * world_->settings().timeStep);
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
  const double dt = world_->settings().timeStep;
  double target = std::numeric_limits<double>::infinity();
  if (runUntil_) {
    target = *runUntil_;
    if (world_->time() + 0.5 * dt >= target) {  // reached: pause there
      runUntil_.reset();
      running_ = false;
      dirty_ = true;
      return;
    }
  } else if (!asFast_) {
    target = anchorSim_ + std::chrono::duration<double>(sliceStart - anchorWall_).count() * speed_;
    // Never re-sync before a step was even due (slow speeds: a step may span many frames).
    if (target - world_->time() > std::max(kMaxLagSeconds * speed_, 2.0 * dt)) {
      anchorSim_ = world_->time();
      anchorWall_ = sliceStart;
      target = world_->time() + std::max(kFrameSeconds * speed_, dt);
    }
  }
  if (holdAt_) target = std::min(target, *holdAt_);
  stats_.fallingBehind = false;
  while (world_->time() + 0.5 * dt < target) {
    if (Clock::now() - sliceStart > budget) {
      stats_.fallingBehind = !asFast_ && !runUntil_;
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

void SimulationLoop::updateRates(Clock::time_point now) {
  const double sim = world_ ? world_->time() : 0.0;
  const std::uint64_t steps = world_ ? world_->stepCount() : 0;
  rateWindow_.push_back({now, sim, steps});
  while (rateWindow_.size() > 2 &&
         std::chrono::duration<double>(now - rateWindow_.front().wall).count() > kRateWindowSeconds) {
    rateWindow_.pop_front();
  }
  const RatePoint& first = rateWindow_.front();
  const double wall = std::chrono::duration<double>(now - first.wall).count();
  if (wall > 0.05 && running_) {
    stats_.measuredSpeed = (sim - first.sim) / wall;
    stats_.stepsPerSecond = static_cast<double>(steps - first.steps) / wall;
  } else if (!running_) {
    stats_.measuredSpeed = 0.0;
    stats_.stepsPerSecond = 0.0;
  }
}

void SimulationLoop::publish() {
  SimulationFrame& f = frames_.writeSlot();
  EnergyReport energy;
  if (world_) {
    energy = world_->energy();
  }
  stats_.paused = !running_;
  stats_.asFastAsPossible = asFast_;
  stats_.targetSpeed = speed_;
  f.stats = stats_;
  f.parameters = parameters_;
  f.sceneGeneration = sceneGeneration_;
  f.bodyIndexGeneration = bodyIndexGeneration_;
  f.loadGeneration = loadGeneration_;
  f.commandsApplied = commandsApplied_;
  f.sceneFile = scene_ ? scene_->file : std::string();
  f.diverged = diverged();
  f.problem = !f.diverged                     ? errorMessage_
              : world_->divergence().happened ? world_->divergence().message
                                              : energyDivergence_;
  f.canRecover = f.diverged && lastGood_.has_value();
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
    f.criticalTimeStep = world_->criticalTimeStep();
    f.recommendedTimeStep = world_->recommendedTimeStep();
    if (world_->stepCount() < kineticIntegralSteps_) integrateKinetic(energy, 0.0);  // restarts them
    sample = {sceneGeneration_,       world_->stepCount(),        energy,
              world_->wallImpulses(), rotationalKineticIntegral_, translationalKineticIntegral_};
  } else {
    f.snapshot = Snapshot{};
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
    updateRates(now);
    if (dirty_ || (running_ && world_)) publish();
    // Sleep until the next display frame unless there is work: a command, single steps, or a
    // simulation that is behind its target (then the next slice starts at once).
    nextFrame = std::max(
        nextFrame + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kFrameSeconds)),
        now);
    const bool stepping = world_ && !diverged();
    const bool busy =
        stepping && (pendingSteps_ > 0 || (running_ && (asFast_ || runUntil_ || stats_.fallingBehind)));
    std::unique_lock lock(mutex_);
    if (!busy) {
      wake_.wait_until(lock, running_ ? nextFrame : now + std::chrono::milliseconds(250),
                       [this] { return stop_ || !commands_.empty(); });
    }
  }
  finishTrajectory("");  // closing the app completes the file
}

}  // namespace clumplab::gui
