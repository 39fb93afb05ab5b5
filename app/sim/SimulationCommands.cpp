#include "sim/SimulationLoop.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "core/io/SceneWriter.hpp"
#include "core/world/ClearSpot.hpp"

// The commands: each posts a function the simulation thread runs between two steps (applyCommands).
namespace clumplab::sim {

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
    parameters_ = EditableModel::of(scene_->model.settings, scene_->model.contact);
    running_ = run;
    spin_.stop();  // body indices belong to the old scene
    buildWorld();
  });
}

void SimulationLoop::setParameters(const EditableModel& parameters) {
  // At once, also during a long step: an edit is often the fix for it (a softer contact).
  postInterrupting([this, parameters] {
    dirty_ = true;
    if (!world_) {
      parameters_ = parameters;
      return;
    }
    const double safeBefore = world_->timeSteps().recommended;
    try {
      world_->setModel(parameters);  // checked as a whole: refused, the world keeps the set that worked
    } catch (const std::exception& e) {
      stopWithError(std::string("the engine refused the parameters: ") + e.what());
      return;
    }
    if (!diverged() && !(parameters == parameters_)) edits_.parametersChanged(world_->time());
    parameters_ = parameters;
    // Resuming after a divergence must not undo this edit.
    if (!diverged()) takeCheckpoint();
    advisedTimeStep_ = 0.0;  // a new step chosen, or another edit: advised afresh
    if (!diverged()) adviseOnStep(safeBefore);
  });
}

void SimulationLoop::setRunning(bool running) {
  // A pause comes at once, not after a long step (which is then taken again on Run).
  auto command = [this, running] {
    if (running) errorMessage_.clear();   // the user has read it and goes on
    if (running) advisedTimeStep_ = 0.0;  // and runs on at the step they chose
    runUntil_.reset();
    running_ = running;
    pacing_.restart(Clock::now(), world_ ? world_->time() : 0.0);
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
    pacing_.setSpeed(speed, asFastAsPossible);
    pacing_.restart(Clock::now(), world_ ? world_->time() : 0.0);
    dirty_ = true;
  });
}

void SimulationLoop::spawn(const BodyInit& body, const std::optional<Vec3>& aimedAt, std::uint64_t serial) {
  spawn(std::vector<BodyInit>{body}, nullptr, aimedAt, serial);
}

void SimulationLoop::spawn(std::vector<BodyInit> bodies, TemplatePtr newTemplate,
                           const std::optional<Vec3>& aimedAt, std::uint64_t serial) {
  postInterrupting(
      [this, bodies = std::move(bodies), newTemplate = std::move(newTemplate), aimedAt, serial]() mutable {
        if (!world_ || diverged()) return;
        const double safeBefore = world_->timeSteps().recommended;
        // A redo of the same spawn finds its template in the world already.
        const auto& known = world_->model().templates;
        if (const auto same = std::find(known.begin(), known.end(), newTemplate);
            newTemplate && same != known.end()) {
          for (BodyInit& b : bodies) b.templateIndex = static_cast<std::uint32_t>(same - known.begin());
          newTemplate.reset();
        }
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
        // Each body where it overlaps nothing, the ones placed before it in this spawn included.
        std::size_t noRoom = 0;
        const std::size_t first = world_->bodies().size();
        ClearSpotFinder spots = clearSpots();
        for (BodyInit body : bodies) {
          if (body.templateIndex >= world_->model().templates.size()) continue;
          const ClumpTemplate& shape = *world_->model().templates[body.templateIndex];
          body.orientation.normalize();
          std::optional<Vec3> start;
          if (aimedAt) start = spots.shotStart(body.position, *aimedAt, shape, body.orientation);
          if (!start) start = spots.dropAbove(aimedAt.value_or(body.position), shape, body.orientation);
          if (!start) {
            ++noRoom;
            continue;
          }
          body.position = *start;
          world_->addBody(body);
          spots.add({body.position, body.orientation, &shape});
        }
        if (noRoom > 0) {
          const std::string& name = world_->model().templates[bodies.front().templateIndex]->name;
          notify(noRoom == bodies.size()
                     ? "No room for " + name + " there: every pose near it overlaps a body or a wall"
                     : std::to_string(noRoom) + " of " + std::to_string(bodies.size()) + " copies of " +
                           name + " found no room and were not added");
        }
        edits_.spawned(serial, first, world_->bodies().size() - first, world_->time());
        adviseOnStep(safeBefore);
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
    eraseBody(body.index);
    ++layoutGeneration_;
    ++bodyIndexGeneration_;
    takeCheckpoint();
    dirty_ = true;
  });
}

void SimulationLoop::removeSpawn(std::uint64_t serial) {
  postInterrupting([this, serial] {
    if (!world_ || diverged()) return;
    const std::optional<SpawnRange> range = edits_.spawn(serial);
    edits_.forget(serial);
    if (!range) {
      notify("Nothing to undo: the bodies of that spawn are gone already");
      return;
    }
    drag_.reset();
    world_->clearExternalForces();
    for (std::size_t k = range->count; k-- > 0;) eraseBody(static_cast<std::uint32_t>(range->first + k));
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
    if (!running_) {
      dragSpring().moveBody(*world_);
      dirty_ = true;
    }
  });
}

void SimulationLoop::endDrag() {
  post([this] {
    drag_.reset();
    if (world_) world_->clearExternalForces();
    dirty_ = true;
  });
}

void SimulationLoop::recoverFromDivergence(const EditableModel& parameters, bool run) {
  post([this, parameters, run] {
    if (!world_ || !lastGood_ || !diverged()) return;
    energyDivergence_.clear();
    // The checkpoint brings back its settings and loads too: apply the current parameters (with
    // the smaller step) over it, and drop any drag.
    world_->restore(*lastGood_);
    edits_.restored(world_->bodies().size());
    world_->clearDivergence();
    world_->clearExternalForces();
    drag_.reset();
    parameters_ = parameters;
    world_->setModel(parameters_);
    restartSpinWatch();
    errorMessage_.clear();
    running_ = run;
    pacing_.restart(Clock::now(), world_->time());
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
    edits_.clear();  // a state from before some edits: their records name other bodies
    advisedTimeStep_ = 0.0;
    // The checkpoint brings back its settings: the current parameters go over it (setModel sets only
    // what differs, so an unedited run continues to the same bits). A drag or divergence ends.
    world_->restore(*back);
    world_->clearDivergence();
    world_->clearExternalForces();
    world_->setModel(parameters_);
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

ClearSpotFinder SimulationLoop::clearSpots() const {
  // Against the bodies' poses now and the mesh walls where their motion has them now.
  double reach = 0.0;
  for (const TemplatePtr& t : world_->model().templates) reach = std::max(reach, t->boundingRadius);
  std::vector<PlacedBody> placed;
  const BodyState& b = world_->bodies();
  placed.reserve(b.size());
  for (std::size_t i = 0; i < b.size(); ++i)
    placed.push_back({b.position[i], b.orientation[i], world_->model().templates[b.templateIndex[i]].get()});
  const Vec3 gravity = world_->model().settings.gravity;
  const Vec3 up = gravity.norm() > 0.0 ? Vec3(-gravity.normalized()) : Vec3::UnitZ();
  return ClearSpotFinder(placed, world_->model().walls, world_->time(), world_->model().settings.periodic, up,
                         reach, world_->model().settings.plane);
}

void SimulationLoop::eraseBody(std::uint32_t index) {
  world_->removeBody(index);
  spin_.bodyRemoved(index);
  edits_.bodyRemoved(index);
}

void SimulationLoop::adviseOnStep(double safeBefore) {
  // Advised when the edit made the step unsafe (it was within the safe step before), or halved the
  // safe step under a step the user had already put above it.
  const double safe = world_->timeSteps().recommended;
  const double dt = world_->model().settings.timeStep;
  if (!(safe > 0.0) || !(safe < dt) || !(safe < safeBefore)) return;
  if (!(dt <= safeBefore) && !(safe < 0.5 * safeBefore)) return;
  advisedTimeStep_ = safe;
  running_ = false;
  runUntil_.reset();
  dirty_ = true;
}

void SimulationLoop::notify(std::string text) {
  notice_ = std::move(text);
  ++noticeCount_;
  dirty_ = true;
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

}  // namespace clumplab::sim
