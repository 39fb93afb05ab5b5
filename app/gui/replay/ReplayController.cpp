#include "gui/replay/ReplayController.hpp"

#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QLayout>
#include <QMainWindow>
#include <algorithm>
#include <cmath>

#include "gui/docks/InspectorDock.hpp"
#include "gui/replay/TimelineBar.hpp"
#include "gui/widgets/Shortcuts.hpp"

namespace clumplab::gui {

namespace {
// Replay frames carry generations far above the simulation's, so the view tells them apart (a
// replay is framed when it opens; the live scene's camera is put back when it closes).
constexpr std::uint64_t kGenerationBase = std::uint64_t{1} << 62;
constexpr int kPlaybackIntervalMs = 15;
}  // namespace

ReplayController::ReplayController(ReplayHost& host, QMainWindow& window)
    : QObject(&window), host_(host), window_(window) {
  timeline_ = new TimelineBar;
  timeline_->hide();
  window_.centralWidget()->layout()->addWidget(timeline_);
  connect(timeline_, &TimelineBar::leaveRequested, this, &ReplayController::leave);
  connect(timeline_, &TimelineBar::seekRequested, this, &ReplayController::showFrame);
  connect(timeline_, &TimelineBar::stepRequested, this, &ReplayController::step);
  connect(timeline_, &TimelineBar::playToggled, this, &ReplayController::setPlaying);
  connect(timeline_, &TimelineBar::speedChanged, this, &ReplayController::setSpeed);
  connect(timeline_, &TimelineBar::loopToggled, this, &ReplayController::setLoop);
  playTimer_.setTimerType(Qt::PreciseTimer);
  connect(&playTimer_, &QTimer::timeout, this, &ReplayController::advancePlayback);
  // After the window's own handler (made earlier), so a click in a replay inspects the replay.
  connect(host_.viewport(), &Viewport::selectionChanged, this, [this](int body) {
    if (active_) host_.inspectorDock()->show(frame_.snapshot, body, frame_.sceneGeneration);
  });

  addAction(tr("Play / pause the replay"), {keys::playPause},
            [](ReplayController& r) { r.setPlaying(!r.playing()); });
  addAction(tr("Next frame"), {keys::step}, [](ReplayController& r) { r.step(+1); });
  addAction(tr("Previous frame"), {keys::replayPrevious, keys::stepBack},
            [](ReplayController& r) { r.step(-1); });
  addAction(tr("First frame"), {keys::replayFirst}, [](ReplayController& r) { r.showFrame(0); });
  addAction(tr("Last frame"), {keys::replayLast}, [](ReplayController& r) {
    r.showFrame(static_cast<int>(r.document_ ? r.document_->frameCount() : 1) - 1);
  });
  addAction(tr("Play faster"), {keys::faster, keys::fasterAlt},
            [](ReplayController& r) { r.changeSpeed(+1); });
  addAction(tr("Play slower"), {keys::slower}, [](ReplayController& r) { r.changeSpeed(-1); });
  addAction(tr("Back to the live scene"), {keys::leaveReplay}, [](ReplayController& r) { r.leave(); });
}

ReplayController::~ReplayController() = default;

void ReplayController::addAction(const QString& text, const QList<QKeySequence>& keys,
                                 void (*run)(ReplayController&)) {
  auto* action = new QAction(text, this);
  action->setShortcuts(keys);
  action->setEnabled(false);
  connect(action, &QAction::triggered, this, [this, run] { run(*this); });
  window_.addAction(action);
  actions_.push_back(action);
}

QString ReplayController::open(const QString& path) {
  std::unique_ptr<ReplayDocument> document;
  QApplication::setOverrideCursor(Qt::WaitCursor);
  QString error;
  try {
    document = std::make_unique<ReplayDocument>(path.toStdString());
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
  }
  QApplication::restoreOverrideCursor();
  if (!document) return error;
  setPlaying(false);
  document_ = std::move(document);
  ++generation_;
  current_ = -1;
  if (!active_) enter();
  host_.viewport()->setSelectedBody(-1);
  timeline_->setTrajectory(QFileInfo(path).fileName(), static_cast<int>(document_->frameCount()),
                           document_->startTime(), document_->endTime());
  showFrame(0);
  return QString();
}

void ReplayController::enter() {
  active_ = true;
  Viewport* view = host_.viewport();
  liveWasRunning_ = host_.running();
  host_.setRunning(false);  // the live run waits, as it is, behind the replay
  liveView_ = view->viewState();
  liveSelection_ = view->selectedBody();
  view->setSelectedBody(-1);
  view->setBodyDragEnabled(false);
  host_.setLiveControlsEnabled(false);
  for (QAction* a : actions_) a->setEnabled(true);
  timeline_->show();
  emit activeChanged(true);
}

void ReplayController::leave() {
  if (!active_) return;
  setPlaying(false);
  active_ = false;
  for (QAction* a : actions_) a->setEnabled(false);
  timeline_->hide();
  Viewport* view = host_.viewport();
  view->setStatusLines({});
  view->setBodyDragEnabled(true);
  view->setViewState(liveView_);
  const sim::SimulationFrame* live = host_.currentFrame();
  view->setFrame(live);
  view->setSelectedBody(
      live && liveSelection_ < static_cast<int>(live->snapshot.bodies.size()) ? liveSelection_ : -1);
  if (live) host_.inspectorDock()->show(live->snapshot, view->selectedBody(), live->sceneGeneration);
  host_.setLiveControlsEnabled(true);
  host_.setRunning(liveWasRunning_);
  document_.reset();
  current_ = -1;
  emit activeChanged(false);
}

void ReplayController::showFrame(int k) {
  if (!document_) return;
  k = std::clamp(k, 0, static_cast<int>(document_->frameCount()) - 1);
  playTime_ = document_->frame(static_cast<std::size_t>(k)).time;
  playClock_.restart();
  display(k);
}

void ReplayController::display(int k) {
  const auto index = static_cast<std::size_t>(k);
  // A new layout when the bodies change or the view jumps (trails start again).
  const bool sameBodies =
      current_ >= 0 && document_->frame(static_cast<std::size_t>(current_)).bodies.templateIndex ==
                           document_->frame(index).bodies.templateIndex;
  if (!sameBodies || std::abs(k - current_) > 1) ++layoutGeneration_;
  current_ = k;
  document_->snapshot(index, frame_.snapshot);
  frame_.snapshot.layoutGeneration = kGenerationBase + layoutGeneration_;
  frame_.loadGeneration = kGenerationBase + generation_;
  frame_.sceneGeneration = kGenerationBase + generation_;
  frame_.sceneFile = document_->path();
  frame_.stats = sim::SimulationStats{};
  frame_.stats.paused = !playing();
  frame_.stats.targetSpeed = speed_;
  Viewport* view = host_.viewport();
  view->setFrame(&frame_);
  host_.inspectorDock()->show(frame_.snapshot, view->selectedBody(), frame_.sceneGeneration);
  timeline_->showFrame(k, frame_.snapshot.time);
  updateStatusLines();
  emit frameChanged(k);
}

void ReplayController::updateStatusLines() {
  if (!document_ || current_ < 0) return;
  const Snapshot& s = frame_.snapshot;
  QStringList lines;
  lines << tr("REPLAY  %1").arg(QFileInfo(QString::fromStdString(document_->path())).fileName());
  lines << tr("t = %1 s · frame %2 / %3 · step %4")
               .arg(s.time, 0, 'f', s.timeStep < 1e-4 ? 5 : 4)
               .arg(current_ + 1)
               .arg(document_->frameCount())
               .arg(s.steps);
  lines << (playing() ? tr("playing at %1×%2").arg(speed_).arg(loop_ ? tr(" · loop") : QString())
                      : tr("paused  (Space plays)"));
  lines << tr("%1 bodies · %2 pebbles · KE %3 J")
               .arg(s.bodies.size())
               .arg(s.pebbles)
               .arg(s.energy.keTranslational + s.energy.keRotational, 0, 'g', 4);
  if (const sim::SimulationFrame* live = host_.currentFrame()) {
    lines << tr("Esc: back to the live scene (t = %1 s)").arg(live->snapshot.time, 0, 'f', 4);
  }
  host_.viewport()->setStatusLines(lines);
}

void ReplayController::step(int frames) {
  setPlaying(false);
  showFrame(current_ + frames);
}

void ReplayController::setPlaying(bool playing) {
  if (playing && document_) {
    if (current_ >= static_cast<int>(document_->frameCount()) - 1) showFrame(0);  // from the start again
    playTime_ = document_->frame(static_cast<std::size_t>(std::max(current_, 0))).time;
    playClock_.restart();
    playTimer_.start(kPlaybackIntervalMs);
  } else {
    playTimer_.stop();
  }
  timeline_->showPlaying(playTimer_.isActive());
  frame_.stats.paused = !playTimer_.isActive();
  updateStatusLines();
}

void ReplayController::advancePlayback() {
  if (!document_) return;
  const double wall = static_cast<double>(playClock_.nsecsElapsed()) * 1e-9;
  playClock_.restart();
  playTime_ += wall * speed_;
  if (playTime_ > document_->endTime()) {
    if (!loop_) {
      display(static_cast<int>(document_->frameCount()) - 1);
      setPlaying(false);
      return;
    }
    playTime_ = document_->startTime();
  }
  const int k = static_cast<int>(document_->frameAt(playTime_));
  if (k != current_) display(k);
}

void ReplayController::setSpeed(double speed) {
  speed_ =
      std::clamp(speed, TimelineBar::kSpeeds[0], TimelineBar::kSpeeds[std::size(TimelineBar::kSpeeds) - 1]);
  timeline_->setSpeed(speed_);
  updateStatusLines();
}

void ReplayController::changeSpeed(int direction) {
  const auto& speeds = TimelineBar::kSpeeds;
  const auto at = std::find_if(std::begin(speeds), std::end(speeds),
                               [this](double s) { return s >= speed_ * (1 - 1e-9); });
  const int index = static_cast<int>(at - std::begin(speeds));
  setSpeed(speeds[std::clamp(index + direction, 0, static_cast<int>(std::size(speeds)) - 1)]);
}

void ReplayController::setLoop(bool on) {
  loop_ = on;
  timeline_->setLoop(on);
  updateStatusLines();
}

}  // namespace clumplab::gui
