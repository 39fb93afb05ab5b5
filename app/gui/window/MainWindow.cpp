#include "gui/window/MainWindow.hpp"

#include <QCloseEvent>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cstdio>

#include "core/base/ResourceLimits.hpp"
#include "gui/analysis/OrderAnalysisDialog.hpp"
#include "gui/docks/EnergyPlotDock.hpp"
#include "gui/docks/InspectorDock.hpp"
#include "gui/docks/ParameterEditCommand.hpp"
#include "gui/docks/ParametersDock.hpp"
#include "gui/docks/TemplateLibraryDock.hpp"
#include "gui/document/DocumentController.hpp"
#include "gui/document/MeshRepairChoice.hpp"
#include "gui/document/SceneSwitches.hpp"
#include "gui/dzhanibekov/DzhanibekovDock.hpp"
#include "gui/lessons/LessonController.hpp"
#include "gui/lessons/LessonDock.hpp"
#include "gui/recording/RecordingController.hpp"
#include "gui/recording/TrajectoryControls.hpp"
#include "gui/replay/ReplayController.hpp"
#include "gui/spawn/SpawnController.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/widgets/InletStatusLabel.hpp"
#include "gui/widgets/RunSpeeds.hpp"
#include "gui/window/DivergenceBanner.hpp"
#include "gui/window/MeshNoticeBar.hpp"
#include "gui/window/StepAdviceBar.hpp"
#include "gui/window/WindowActions.hpp"
#include "gui/wizard/ClumpWizard.hpp"
#include "gui/wizard/FinishPage.hpp"

// The window itself: its docks and controllers put together, the frame shown at display rate, the
// run, speed and parameters sent to the simulation thread, the settings kept between sessions.
namespace clumplab::gui {

namespace {
constexpr int kSpeedCount = static_cast<int>(kRunSpeeds.size());
}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), loop_(std::make_unique<sim::SimulationLoop>()) {
  setWindowTitle(QStringLiteral("ClumpLab"));
  // Its messages offer their own actions (a limit raised from the dialog), never command-line advice.
  setLimitAdvice(LimitAdvice::None);
  autosave_ = std::make_unique<Autosave>(
      Autosave::defaultFolder(),
      [this](const std::string& path, std::function<void(const std::string&)> done) {
        loop_->saveScene(path, std::move(done), sim::SimulationLoop::StepInProgress::WaitForIt);
      },
      Autosave::defaultIntervalSeconds());
  setAcceptDrops(true);
  setDockNestingEnabled(true);
  createCentralArea();
  createDocks();
  createControllers();
  connectPanelsAndView();
  restoreSettings();
  loop_->setSpeed(speed_, asFast_);
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, &MainWindow::tick);
  timer_.start(16);
}

void MainWindow::createCentralArea() {
  auto* central = new QWidget;
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  banner_ = new DivergenceBanner;
  connect(banner_, &DivergenceBanner::halveStepRequested, this, &MainWindow::recoverWithHalfStep);
  connect(banner_, &DivergenceBanner::safeStepRequested, this, &MainWindow::recoverWithSafeStep);
  connect(banner_, &DivergenceBanner::undoEditRequested, this, &MainWindow::recoverByUndoingTheEdit);
  connect(banner_, &DivergenceBanner::resetRequested, this, [this] { loop_->reset(); });
  layout->addWidget(banner_);
  stepAdvice_ = new StepAdviceBar;
  connect(stepAdvice_, &StepAdviceBar::useSafeStepRequested, this, [this](double safe) {
    EditableModel changed = parameters_;
    changed.timeStep = safe;
    onParametersEdited(changed, tr("time step, set to the safe %1 s after an edit").arg(safe, 0, 'g', 4));
    setRunning(true);
  });
  connect(stepAdvice_, &StepAdviceBar::keepStepRequested, this, [this] { setRunning(true); });
  layout->addWidget(stepAdvice_);
  meshNotice_ = new MeshNoticeBar;
  layout->addWidget(meshNotice_);
  viewport_ = new Viewport;
  layout->addWidget(viewport_, 1);
  setCentralWidget(central);
}

void MainWindow::createDocks() {
  parametersDock_ = new ParametersDock(this);
  addDockWidget(Qt::LeftDockWidgetArea, parametersDock_);
  inspectorDock_ = new InspectorDock(this);
  addDockWidget(Qt::RightDockWidgetArea, inspectorDock_);
  energyDock_ = new EnergyPlotDock(this);
  addDockWidget(Qt::BottomDockWidgetArea, energyDock_);
  lessonDock_ = new LessonDock(this);
  addDockWidget(Qt::LeftDockWidgetArea, lessonDock_);
  tabifyDockWidget(parametersDock_, lessonDock_);
  parametersDock_->raise();
  lessonDock_->setLessons(builtinLessons());
  connect(lessonDock_, &LessonDock::openRequested, this, [this](int index) { openLesson(index); });
  connect(lessonDock_, &LessonDock::restartRequested, this, [this](int index) { openLesson(index); });
  connect(lessonDock_, &LessonDock::closeRequested, this, &MainWindow::closeLesson);
  lessons_ = new LessonController(*this, *this);
  templateLibrary_ = new TemplateLibraryDock(this);
  addDockWidget(Qt::RightDockWidgetArea, templateLibrary_);
  connect(templateLibrary_, &TemplateLibraryDock::spawnRequested, this,
          [this](const QString& path) { spawn_->spawnLibraryTemplate(path, viewport_->rect().center()); });
  connect(templateLibrary_, &TemplateLibraryDock::refineRequested, this, [this](const QString& path) {
    const QString error = openClumpWizard()->loadTemplateFile(path);
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Refine in the clump wizard"), error);
  });
  createDzhanibekovDock();
  resizeDocks({parametersDock_, inspectorDock_}, {340, 380}, Qt::Horizontal);
  resizeDocks({inspectorDock_, templateLibrary_}, {330, 270}, Qt::Vertical);
  resizeDocks({energyDock_}, {260}, Qt::Vertical);
}

void MainWindow::createDzhanibekovDock() {
  dzhanibekovDock_ = new DzhanibekovDock([this] { return loop_.get(); }, this);
  addDockWidget(Qt::BottomDockWidgetArea, dzhanibekovDock_);
  tabifyDockWidget(energyDock_, dzhanibekovDock_);
  energyDock_->raise();
  dzhanibekovDock_->hide();
  dzhanibekovDock_->placeInsetOver(viewport_);
  // The L-space inset keeps clear of the bodies on screen (their bounding discs).
  dzhanibekovDock_->setAreasToKeepClear([this] {
    std::vector<QRectF> areas;
    const sim::SimulationFrame* f = currentFrame();
    if (f == nullptr) return areas;
    const render::Camera& camera = viewport_->camera();
    const Snapshot& s = f->snapshot;
    for (std::size_t b = 0; b < s.bodies.size(); ++b) {
      const Vec3& x = s.bodies.position[b];
      const double r = s.templates[s.bodies.templateIndex[b]]->boundingRadius * camera.pixelsPerMeterAt(x);
      const Eigen::Vector2d c = camera.project(x);
      areas.emplace_back(c.x() - r, c.y() - r, 2.0 * r, 2.0 * r);
    }
    return areas;
  });
  connect(dzhanibekovDock_, &DzhanibekovDock::gyroscopicToggled, this, [this](bool on) {
    EditableModel p = parameters_;
    p.gyroscopic = on;
    onParametersEdited(p, on ? tr("gyroscopic term on") : tr("gyroscopic term off"));
  });
}

void MainWindow::createControllers() {
  trajectory_ = new TrajectoryControls(*this, *this);
  spawn_ = new SpawnController(*this, *this);
  document_ = new DocumentController(*this, *this);
  connect(document_, &DocumentController::opened, this, &MainWindow::showScene);
  connect(document_, &DocumentController::opened, meshNotice_, &QWidget::hide);  // notes of another file
  connect(document_, &DocumentController::meshNotes, meshNotice_, &MeshNoticeBar::showNotes);
  connect(meshNotice_, &MeshNoticeBar::repairRequested, this, [this](const QString& path) {
    rememberRepairChoice(path, true);
    document_->openInBackground(path);
  });
  connect(meshNotice_, &MeshNoticeBar::wizardRequested, this,
          [this](const QString& path) { openClumpWizard()->setMeshFile(path); });
  switches_ = new SceneSwitches(*document_, *parametersDock_, this);
  actions_ = new WindowActions(*this);
  actions_->createToolBar();
  actions_->createMenus();
  statusBar()->showMessage(tr("Ready"), 2000);
  recording_ = new RecordingController(*this, *this, actions_->record());
  inletStatus_ = new InletStatusLabel(statusBar());
  statusBar()->addPermanentWidget(inletStatus_);

  replay_ = new ReplayController(*this, *this);  // after the view's handlers above
}

void MainWindow::connectPanelsAndView() {
  connect(parametersDock_, &ParametersDock::edited, this, &MainWindow::onParametersEdited);
  connect(parametersDock_, &ParametersDock::runSpeedChosen, this, &MainWindow::setSpeed);
  connect(parametersDock_, &ParametersDock::motionChosen, this,
          [this](MotionChoice choice) { setMotion(choice); });
  connect(viewport_, &Viewport::dragMoved, this, [this](const sim::DragTarget& d) { loop_->drag(d); });
  connect(viewport_, &Viewport::dragEnded, this, [this] { loop_->endDrag(); });
  connect(viewport_, &Viewport::selectionChanged, this, [this](int) {
    if (auto* f = currentFrame())
      inspectorDock_->show(f->snapshot, viewport_->selectedBody(), f->sceneGeneration);
  });
  // Queued: the message box must not open inside initializeGL.
  connect(
      viewport_, &Viewport::glError, this,
      [this](const QString& message) {
        std::fprintf(stderr, "clumplab: the 3D view cannot be drawn: %s\n", qPrintable(message));
        QMessageBox::critical(this, tr("OpenGL"), tr("The 3D view cannot be drawn:\n%1").arg(message));
      },
      Qt::QueuedConnection);
}

MainWindow::~MainWindow() {
  delete dzhanibekovDock_;  // while the simulation thread it talks to still exists
}

void MainWindow::closeEvent(QCloseEvent* event) {
  saveSettings();
  timer_.stop();
  loop_.reset();  // stops and joins the simulation thread before any widget goes away
  loop_ = std::make_unique<sim::SimulationLoop>();  // an idle loop, so late signals find a valid object
  haveFrame_ = false;
  viewport_->setFrame(nullptr);
  event->accept();
}

void MainWindow::restoreSettings() {
  QSettings settings;
  if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) resize(1500, 920);
  restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
  speed_ = std::clamp(settings.value(QStringLiteral("simulation/speed"), 1.0).toDouble(), 1e-3, 1.0);
  asFast_ = settings.value(QStringLiteral("simulation/asFastAsPossible"), false).toBool();
  showRunSpeed(*actions_->speedBox(), speed_, asFast_);
  parametersDock_->showRunSpeed(speed_, asFast_);
  const QString view = QStringLiteral("view/");
  actions_->pebbles()->setChecked(settings.value(view + QStringLiteral("pebbles"), true).toBool());
  actions_->wireframe()->setChecked(settings.value(view + QStringLiteral("wireframe"), false).toBool());
  actions_->mesh()->setChecked(settings.value(view + QStringLiteral("mesh"), false).toBool());
  actions_->coloringBox()->setCurrentIndex(settings.value(view + QStringLiteral("coloring"), 0).toInt());
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
  // In a lesson: the user's own choices from before it, not the lesson's.
  const std::optional<LessonController::Before>& before = lessons_->before();
  const render::ViewOptions& o = before ? before->view : viewport_->options();
  settings.setValue(QStringLiteral("simulation/speed"), before ? before->speed : speed_);
  settings.setValue(QStringLiteral("simulation/asFastAsPossible"), before ? before->asFast : asFast_);
  const QString view = QStringLiteral("view/");
  settings.setValue(view + QStringLiteral("pebbles"), o.pebbles);
  settings.setValue(view + QStringLiteral("wireframe"), o.wireframe);
  settings.setValue(view + QStringLiteral("mesh"), o.sourceMesh);
  settings.setValue(view + QStringLiteral("coloring"),
                    actions_->coloringBox()->findData(static_cast<int>(o.coloring)));
}

void MainWindow::tick() {
  if (!loop_) return;
  const bool fresh = loop_->acquireFrame();
  samples_.clear();
  loop_->takeEnergySamples(samples_);
  if (!fresh && samples_.empty()) return;
  haveFrame_ = true;
  const sim::SimulationFrame& f = loop_->frame();
  // Samples carry their scene generation: the first one of a new scene (load or reset) clears the plot.
  for (const sim::EnergySample& s : samples_) {
    if (s.sceneGeneration < shownGeneration_) continue;
    if (s.sceneGeneration > shownGeneration_) {
      shownGeneration_ = s.sceneGeneration;
      energyDock_->clear();
    }
    energyDock_->append(s);
  }
  if (f.sceneGeneration != shownFrameGeneration_) {
    shownFrameGeneration_ = f.sceneGeneration;
    shownLayout_ = ~std::uint64_t{0};
  }
  energyDock_->refresh();
  if (f.snapshot.layoutGeneration != shownLayout_) {
    shownLayout_ = f.snapshot.layoutGeneration;
    spawn_->updateTemplateList();
  }
  if (!replay_->active()) {  // else the view shows the replay's frame
    dzhanibekovDock_->showFrame(f, viewport_->selectedBody());
    viewport_->options().bodyCurves = dzhanibekovDock_->bodyCurves();
    viewport_->setFrame(&f);
    dzhanibekovDock_->keepInsetClear();
    lessons_->applyCamera(f);
    inspectorDock_->show(f.snapshot, viewport_->selectedBody(), f.sceneGeneration);
  } else {
    viewport_->options().bodyCurves.clear();  // the polhode belongs to the live body
  }
  trajectory_->show(f);
  inletStatus_->showInlets(f.snapshot, f.sceneGeneration);
  banner_->showProblem(
      {f.problem, f.canRecover, f.cause, undo_.undoText(), f.parameters.timeStep, f.recommendedTimeStep});
  stepAdvice_->showAdvice(f.stepAdvised && !f.diverged, f.parameters.timeStep, f.advisedTimeStep);
  if (f.noticeCount != shownNotices_) {
    shownNotices_ = f.noticeCount;
    statusBar()->showMessage(QString::fromStdString(f.notice), 8000);
  }
  // The thread decides whether it runs (a divergence or a single step pauses it): once it has seen
  // the window's last run command, the play button follows it.
  if (f.commandsApplied >= runTicket_ && running_ == f.stats.paused) showRunning(!f.stats.paused);
  parametersDock_->setTimeStepHints(f.criticalTimeStep, f.recommendedTimeStep);
  recording_->updateStatus();
  emit frameShown();
}

void MainWindow::showViewOptions() {
  actions_->showViewOptions(viewport_->options());
}

void MainWindow::singleStep() {
  showRunning(false);
  loop_->singleStep(1);  // pauses the thread too
  runTicket_ = loop_->commandsPosted();
}

void MainWindow::stepBack() {
  showRunning(false);
  loop_->stepBack();  // pauses the thread too
  runTicket_ = loop_->commandsPosted();
}

void MainWindow::setRunning(bool running) {
  showRunning(running);
  loop_->setRunning(running);
  runTicket_ = loop_->commandsPosted();
}

void MainWindow::showRunning(bool running) {
  running_ = running;
  actions_->showRunning(running);
}

void MainWindow::setSpeed(double speed, bool asFastAsPossible) {
  speed_ = std::clamp(speed, 1e-3, 1.0);
  asFast_ = asFastAsPossible;
  showRunSpeed(*actions_->speedBox(), speed_, asFast_);
  parametersDock_->showRunSpeed(speed_, asFast_);
  loop_->setSpeed(speed_, asFast_);
}

void MainWindow::changeSpeed(int direction) {
  int index = kSpeedCount - 1;
  for (int i = 0; i < kSpeedCount; ++i) {
    if (kRunSpeeds[i] <= speed_ * (1.0 + 1e-9)) index = i;
  }
  if (asFast_) {
    if (direction < 0) setSpeed(1.0, false);
    return;
  }
  if (direction > 0 && index == kSpeedCount - 1) {
    setSpeed(1.0, true);
    return;
  }
  setSpeed(kRunSpeeds[std::clamp(index + direction, 0, kSpeedCount - 1)], false);
}

void MainWindow::onParametersEdited(const EditableModel& edited, const QString& what) {
  undo_.push(new ParameterEditCommand(parameters_, edited, what,
                                      [this](const EditableModel& p) { applyParameters(p); }));
}

void MainWindow::applyParameters(const EditableModel& p) {
  parameters_ = p;
  parametersDock_->setParameters(p);
  loop_->setParameters(p);
}

bool MainWindow::divergenceBannerShown() const {
  return banner_->isVisible();
}

void MainWindow::setLiveControlsEnabled(bool on) {
  actions_->setLiveEnabled(on);
  for (QWidget* w : {static_cast<QWidget*>(parametersDock_), static_cast<QWidget*>(spawn_->templateBox()),
                     static_cast<QWidget*>(spawn_->shootSpeedBox()), static_cast<QWidget*>(banner_),
                     static_cast<QWidget*>(templateLibrary_)})
    w->setEnabled(on);
}

void MainWindow::openDzhanibekovPanel(int body) {
  viewport_->setSelectedBody(body);
  render::ViewOptions& o = viewport_->options();
  o.bodyAxes = o.angularVelocityArrows = o.angularMomentumArrows = true;
  dzhanibekovDock_->show();
  dzhanibekovDock_->raise();
  // Once laid out: room for the panel's plots in the bottom area.
  QTimer::singleShot(0, this, [this] { resizeDocks({energyDock_}, {330}, Qt::Vertical); });
  dzhanibekovDock_->setBody(body);
  viewport_->update();
}

ClumpWizard* MainWindow::openClumpWizard() {
  if (!clumpWizard_) {
    auto* wizard = new ClumpWizard(loop_.get(), this);
    clumpWizard_ = wizard;
    clumpWizard_->setAttribute(Qt::WA_DeleteOnClose);
    wizard->finishPage()->setSpawnCopies([this](std::vector<BodyInit> bodies, TemplatePtr clump) {
      const QString what = tr("add %n copies of %1", nullptr, static_cast<int>(bodies.size()))
                               .arg(QString::fromStdString(clump->name));
      spawnUndoable(std::move(bodies), std::move(clump), std::nullopt, what);
    });
    connect(clumpWizard_, &ClumpWizard::templateSaved, this, [this](const QString& path, int copies) {
      statusBar()->showMessage(tr("Saved %1; %n copies added", nullptr, copies).arg(path), 6000);
    });
  }
  // The fill page predicts a clump's cost in a pile under the scene's contact law as it is now.
  clumpWizard_->setContactLaw(parameters_.contact);
  clumpWizard_->show();
  clumpWizard_->raise();
  clumpWizard_->activateWindow();
  return clumpWizard_;
}

OrderAnalysisDialog* MainWindow::openOrderAnalysis() {
  if (!document_->scene()) return nullptr;
  auto scene = std::make_shared<Scene>(*document_->scene());
  parameters_.writeTo(scene->model.settings,
                      scene->model.contact);  // the parameters as edited, not as loaded
  auto* dialog = new OrderAnalysisDialog(scene, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(tr("Integrator order analysis — %1").arg(document_->displayName()));
  dialog->show();
  return dialog;
}

bool MainWindow::startRecording(RecordingPlan plan) {
  return recording_->start(std::move(plan));
}

bool MainWindow::recording() const {
  return recording_->recording();
}

void MainWindow::spawnAt(QPoint pixel, bool shoot) {
  spawn_->spawnAt(pixel, shoot);
}

void MainWindow::spawnTemplateAt(TemplatePtr clump, QPoint pixel) {
  spawn_->spawnTemplateAt(std::move(clump), pixel);
}

bool MainWindow::spawnLibraryTemplate(const QString& path, QPoint pixel) {
  return spawn_->spawnLibraryTemplate(path, pixel);
}

void MainWindow::deleteSelected() {
  spawn_->deleteSelected();
}

QString MainWindow::openLesson(int index, bool run) {
  return lessons_->open(index, run);
}

void MainWindow::closeLesson() {
  lessons_->close();
}

int MainWindow::findLesson(const QString& which) const {
  return lessons_->find(which);
}

QImage MainWindow::energyPlotImage(QSize size) const {
  return energyDock_->plotImage(size);
}

QImage MainWindow::bodyOmegaPlotImage(QSize size) const {
  return inspectorDock_->bodyOmegaPlotImage(size);
}

QMetaObject::Connection MainWindow::connectFrameShown(QObject* receiver, std::function<void()> onFrame) {
  return connect(this, &MainWindow::frameShown, receiver, std::move(onFrame));
}

}  // namespace clumplab::gui
