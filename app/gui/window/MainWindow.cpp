#include "gui/window/MainWindow.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalBlocker>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <cstdio>
#include <future>

#include "core/scene/SceneOverlap.hpp"
#include "core/scene/ScenePlane.hpp"
#include "core/scene/SphereSwitch.hpp"
#include "gui/analysis/OrderAnalysisDialog.hpp"
#include "gui/docks/EnergyPlotDock.hpp"
#include "gui/docks/InspectorDock.hpp"
#include "gui/docks/ParameterEditCommand.hpp"
#include "gui/docks/ParametersDock.hpp"
#include "gui/docks/TemplateLibraryDock.hpp"
#include "gui/document/DefaultScene.hpp"
#include "gui/document/DocumentLoader.hpp"
#include "gui/dzhanibekov/DzhanibekovDock.hpp"
#include "gui/lessons/LessonDock.hpp"
#include "gui/recording/MovieRecorder.hpp"
#include "gui/recording/RecordDialog.hpp"
#include "gui/recording/TrajectoryControls.hpp"
#include "gui/replay/ReplayController.hpp"
#include "gui/view/ImageFiles.hpp"
#include "gui/view/ViewChoices.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/widgets/InletStatusLabel.hpp"
#include "gui/widgets/RunSpeeds.hpp"
#include "gui/window/Shortcuts.hpp"
#include "gui/wizard/ClumpWizard.hpp"

namespace clumplab::gui {

namespace {
constexpr int kMaxRecentFiles = 10;
constexpr int kSpeedCount = static_cast<int>(kRunSpeeds.size());
}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), loop_(std::make_unique<sim::SimulationLoop>()) {
  setWindowTitle(QStringLiteral("ClumpLab"));
  autosave_ = std::make_unique<Autosave>(
      Autosave::defaultFolder(),
      [this](const std::string& path, std::function<void(const std::string&)> done) {
        loop_->saveScene(path, std::move(done), sim::SimulationLoop::StepInProgress::WaitForIt);
      },
      Autosave::defaultIntervalSeconds());
  setAcceptDrops(true);
  setDockNestingEnabled(true);

  auto* central = new QWidget;
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  createDivergenceBanner();
  layout->addWidget(banner_);
  viewport_ = new Viewport;
  layout->addWidget(viewport_, 1);
  setCentralWidget(central);

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
  templateLibrary_ = new TemplateLibraryDock(this);
  addDockWidget(Qt::RightDockWidgetArea, templateLibrary_);
  connect(templateLibrary_, &TemplateLibraryDock::spawnRequested, this,
          [this](const QString& path) { spawnLibraryTemplate(path, viewport_->rect().center()); });
  connect(templateLibrary_, &TemplateLibraryDock::refineRequested, this, [this](const QString& path) {
    const QString error = openClumpWizard()->loadTemplateFile(path);
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Refine in the clump wizard"), error);
  });
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
    sim::SceneParameters p = parameters_;
    p.gyroscopic = on;
    onParametersEdited(p, on ? tr("gyroscopic term on") : tr("gyroscopic term off"));
  });
  resizeDocks({parametersDock_, inspectorDock_}, {340, 380}, Qt::Horizontal);
  resizeDocks({inspectorDock_, templateLibrary_}, {330, 270}, Qt::Vertical);
  resizeDocks({energyDock_}, {260}, Qt::Vertical);

  trajectory_ = new TrajectoryControls(*this);
  createActions();
  createToolBar();
  createMenus();
  statusBar()->showMessage(tr("Ready"), 2000);
  recordStatus_ = new QLabel;
  recordStatus_->setStyleSheet(QStringLiteral("color: #d33;"));
  statusBar()->addPermanentWidget(recordStatus_);
  inletStatus_ = new InletStatusLabel(statusBar());
  statusBar()->addPermanentWidget(inletStatus_);

  replay_ = new ReplayController(*this);  // after the view's handlers above
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

  restoreSettings();
  loop_->setSpeed(speed_, asFast_);
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, &MainWindow::tick);
  timer_.start(16);
}

MainWindow::~MainWindow() {
  delete dzhanibekovDock_;  // while the simulation thread it talks to still exists
}

void MainWindow::createDivergenceBanner() {
  banner_ = new QWidget;
  banner_->setAutoFillBackground(true);
  banner_->setStyleSheet(
      QStringLiteral("QWidget { background: #5a1d1d; color: #ffe9e9; } "
                     "QPushButton { background: #7a2b2b; border: 1px solid #c86; padding: 4px 10px; }"));
  auto* row = new QHBoxLayout(banner_);
  bannerText_ = new QLabel;
  bannerText_->setWordWrap(true);
  bannerText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  row->addWidget(bannerText_, 1);
  bannerFix_ = new QPushButton(tr("Halve the time step and resume"));
  bannerFix_->setToolTip(
      tr("Go back to the last good state (at most half a second of wall time ago), halve Δt, run on"));
  connect(bannerFix_, &QPushButton::clicked, this, &MainWindow::recoverWithHalfStep);
  row->addWidget(bannerFix_);
  auto* reset = new QPushButton(tr("Reset"));
  connect(reset, &QPushButton::clicked, this, [this] { loop_->reset(); });
  row->addWidget(reset);
  banner_->hide();
}

void MainWindow::recoverWithHalfStep() {
  const sim::SimulationFrame* f = currentFrame();
  if (!f || !f->canRecover) return;
  sim::SceneParameters halved = parameters_;
  halved.timeStep *= 0.5;
  loop_->recoverFromDivergence(halved);
  // On the undo stack like any edit, so undo and redo stay consistent with what runs.
  undo_.push(new ParameterEditCommand(
      parameters_, halved, tr("time step, halved to %1 s after a divergence").arg(halved.timeStep, 0, 'g', 4),
      [this](const sim::SceneParameters& p) { applyParameters(p); }));
  banner_->hide();
  showRunning(true);
  runTicket_ = loop_->commandsPosted();
  statusBar()->showMessage(
      tr("Resumed from the last good state with Δt = %1 s").arg(halved.timeStep, 0, 'g', 4), 6000);
}

void MainWindow::showRunning(bool running) {
  running_ = running;
  const QSignalBlocker block(playAction_);
  playAction_->setChecked(running);
  playAction_->setText(running ? tr("Pause") : tr("Run"));
  playAction_->setIcon(style()->standardIcon(running ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

void MainWindow::createActions() {
  playAction_ = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this);
  playAction_->setCheckable(true);
  playAction_->setShortcut(keys::playPause);
  playAction_->setToolTip(tr("Play / pause (Space)"));
  connect(playAction_, &QAction::toggled, this, [this](bool on) {
    if (on != running_) setRunning(on);
  });
  stepAction_ = new QAction(style()->standardIcon(QStyle::SP_MediaSkipForward), tr("&Step"), this);
  stepAction_->setShortcut(keys::step);
  stepAction_->setToolTip(tr("One time step (→)"));
  connect(stepAction_, &QAction::triggered, this, [this] {
    showRunning(false);
    loop_->singleStep(1);  // pauses the thread too
    runTicket_ = loop_->commandsPosted();
  });
  stepBackAction_ = new QAction(style()->standardIcon(QStyle::SP_MediaSkipBackward), tr("Step &back"), this);
  stepBackAction_->setShortcut(keys::stepBack);
  stepBackAction_->setToolTip(
      tr("Back to an earlier state of the history (Shift+←); running on repeats the run"));
  connect(stepBackAction_, &QAction::triggered, this, [this] {
    showRunning(false);
    loop_->stepBack();  // pauses the thread too
    runTicket_ = loop_->commandsPosted();
  });
  resetAction_ = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("R&eset"), this);
  resetAction_->setShortcut(keys::reset);
  resetAction_->setToolTip(tr("Back to the loaded scene, keeping the parameters (Backspace)"));
  connect(resetAction_, &QAction::triggered, this, [this] { loop_->reset(); });

  auto toggle = [this](const QString& text, const QKeySequence& key, bool on, auto apply) {
    auto* a = new QAction(text, this);
    a->setCheckable(true);
    a->setChecked(on);
    a->setShortcut(key);
    connect(a, &QAction::toggled, this, [this, apply](bool checked) {
      apply(viewport_->options(), checked);
      viewport_->update();
    });
    return a;
  };
  pebblesAction_ =
      toggle(tr("Pebbles"), keys::pebbles, true, [](render::ViewOptions& o, bool c) { o.pebbles = c; });
  wireframeAction_ = toggle(tr("Wireframe"), keys::wireframe, false,
                            [](render::ViewOptions& o, bool c) { o.wireframe = c; });
  meshAction_ =
      toggle(tr("Source mesh"), keys::mesh, false, [](render::ViewOptions& o, bool c) { o.sourceMesh = c; });
  stereoAction_ = toggle(tr("Anaglyph stereo (red/cyan)"), keys::stereo, false,
                         [](render::ViewOptions& o, bool c) { o.stereo = c; });
  stereoAction_->setToolTip(
      tr("Anaglyph stereo for red/cyan glasses, the wireframe especially (PaLa, Mutze, Polyspherical grains, "
         "§8)"));
  stereoAction_->setIconText(tr("Stereo"));  // the toolbar's text; menus keep the full one
  meshAction_->setIconText(tr("Mesh"));
  trackAction_ = new QAction(tr("&Track selected body"), this);
  trackAction_->setCheckable(true);
  trackAction_->setShortcut(keys::track);
  connect(trackAction_, &QAction::toggled, this, [this](bool on) { viewport_->setTracking(on); });
  recordAction_ = new QAction(tr("● Record"), this);
  recordAction_->setCheckable(true);
  recordAction_->setShortcut(keys::record);
  recordAction_->setToolTip(tr("Record a movie (Ctrl+R): MP4, WebM, GIF or PNG frames"));
  connect(recordAction_, &QAction::toggled, this, &MainWindow::toggleRecording);
  clumpWizardAction_ = new QAction(tr("&New clump from mesh…"), this);
  clumpWizardAction_->setShortcut(keys::clumpWizard);
  clumpWizardAction_->setToolTip(
      tr("Fill a mesh with pebbles and add the clump to the scene (Ctrl+Shift+N)"));
  connect(clumpWizardAction_, &QAction::triggered, this, &MainWindow::openClumpWizard);
  helpAction_ = new QAction(tr("&Keys and mouse"), this);
  helpAction_->setCheckable(true);
  helpAction_->setShortcut(keys::help);
  connect(helpAction_, &QAction::toggled, this, [this](bool on) { viewport_->setHelpVisible(on); });
}

void MainWindow::createToolBar() {
  QToolBar* bar = addToolBar(tr("Simulation"));
  bar->setObjectName(QStringLiteral("simulationToolBar"));
  bar->setMovable(false);
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  bar->setIconSize(QSize(18, 18));
  bar->addAction(playAction_);
  bar->addAction(stepBackAction_);
  bar->addAction(stepAction_);
  bar->addAction(resetAction_);
  bar->addAction(recordAction_);
  // Turning a mesh into a clump is what many come for: early in the bar, never behind its ».
  bar->addAction(clumpWizardAction_);
  bar->addSeparator();
  bar->addWidget(new QLabel(tr(" Speed ")));
  speedBox_ = new QComboBox;
  fillRunSpeeds(*speedBox_);
  connect(speedBox_, &QComboBox::activated, this, [this](int index) {
    const double s = speedBox_->itemData(index).toDouble();
    setSpeed(s > 0.0 ? s : speed_, s == 0.0);
  });
  bar->addWidget(speedBox_);
  bar->addSeparator();
  bar->addAction(pebblesAction_);
  bar->addAction(wireframeAction_);
  bar->addAction(meshAction_);
  bar->addAction(stereoAction_);
  eyeSeparation_ = new QDoubleSpinBox;
  eyeSeparation_->setRange(0.2, 15.0);
  eyeSeparation_->setDecimals(1);
  eyeSeparation_->setSingleStep(0.5);
  eyeSeparation_->setValue(100.0 * viewport_->options().eyeSeparation);
  eyeSeparation_->setSuffix(tr(" % eyes"));
  eyeSeparation_->setToolTip(
      tr("Eye separation, as a percentage of the viewing distance: more for more depth"));
  connect(eyeSeparation_, &QDoubleSpinBox::valueChanged, this, [this](double percent) {
    viewport_->options().eyeSeparation = percent / 100.0;
    viewport_->update();
  });
  QAction* eyes = bar->addWidget(eyeSeparation_);
  eyes->setVisible(false);
  connect(stereoAction_, &QAction::toggled, eyes, &QAction::setVisible);
  coloringBox_ = new QComboBox;
  coloringBox_->addItem(tr("colour per body"), static_cast<int>(render::Coloring::PerBody));
  coloringBox_->addItem(tr("colour by speed"), static_cast<int>(render::Coloring::BySpeed));
  coloringBox_->addItem(tr("colour by |ω|"), static_cast<int>(render::Coloring::ByAngularSpeed));
  connect(coloringBox_, &QComboBox::currentIndexChanged, this, [this] {
    viewport_->options().coloring = static_cast<render::Coloring>(coloringBox_->currentData().toInt());
    viewport_->update();
  });
  bar->addWidget(coloringBox_);
  bar->addSeparator();
  bar->addWidget(new QLabel(tr(" Spawn ")));
  templateBox_ = new QComboBox;
  templateBox_->setToolTip(tr("Template spawned at the cursor (S) or shot from the camera (G)"));
  templateBox_->setMinimumContentsLength(10);
  bar->addWidget(templateBox_);
  shootSpeed_ = new QDoubleSpinBox;
  shootSpeed_->setRange(0.0, 100.0);
  shootSpeed_->setValue(2.0);
  shootSpeed_->setSuffix(QStringLiteral(" m/s"));
  shootSpeed_->setToolTip(tr("Speed of a shot body"));
  bar->addWidget(shootSpeed_);
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
  open->setShortcut(QKeySequence::Open);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  file->addAction(tr("Open the &default scene"), this, &MainWindow::openDefaultScene);
  file->addAction(clumpWizardAction_);
  QAction* reloadAction = file->addAction(tr("Re&load"), this, &MainWindow::reload);
  reloadAction->setShortcut(keys::reload);
  file->addSeparator();
  QAction* saveAction = file->addAction(tr("&Save"), this, &MainWindow::save);
  saveAction->setShortcut(QKeySequence::Save);
  QAction* saveAsAction = file->addAction(tr("Save &As…"), this, &MainWindow::saveAs);
  saveAsAction->setShortcut(QKeySequence::SaveAs);
  file->addAction(recordAction_);
  file->addAction(trajectory_->action());
  QAction* shot = file->addAction(tr("Screens&hot…"), this, &MainWindow::screenshot);
  shot->setShortcut(keys::screenshot);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  updateRecentMenu();

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = undo_.createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = undo_.createRedoAction(this, tr("&Redo"));
  redo->setShortcut(QKeySequence::Redo);
  edit->addAction(undo);
  edit->addAction(redo);
  edit->addSeparator();
  QAction* del = edit->addAction(tr("&Delete selected body"), this, &MainWindow::deleteSelected);
  del->setShortcut(keys::deleteBody);
  QAction* spawn = edit->addAction(tr("&Spawn at cursor"), this, [this] { spawnAtCursor(false); });
  spawn->setShortcut(keys::spawn);
  QAction* shoot = edit->addAction(tr("Sh&oot towards cursor"), this, [this] { spawnAtCursor(true); });
  shoot->setShortcut(keys::shoot);

  QMenu* sim = menuBar()->addMenu(tr("&Simulation"));
  sim->addAction(playAction_);
  sim->addAction(stepBackAction_);
  sim->addAction(stepAction_);
  sim->addAction(resetAction_);
  sim->addSeparator();
  QAction* faster = sim->addAction(tr("&Faster"), this, [this] { changeSpeed(+1); });
  faster->setShortcuts({keys::faster, keys::fasterAlt});
  QAction* slower = sim->addAction(tr("S&lower"), this, [this] { changeSpeed(-1); });
  slower->setShortcut(keys::slower);
  sim->addSeparator();
  // PaLa's polyspheres / spheres switch (Mutze, Polyspherical grains, §1 (ii)): the scene reopened with every
  // clump as one sphere, to show what the shape changes.
  QMenu* shapes = sim->addMenu(tr("Clumps as &spheres"));
  auto* shapeGroup = new QActionGroup(this);
  const std::pair<QString, std::optional<SphereKind>> shapeModes[] = {
      {tr("Clumps as built (polyspheres)"), std::nullopt},
      {tr("Bounding spheres"), SphereKind::Bounding},
      {tr("Volume-equivalent spheres"), SphereKind::VolumeEquivalent}};
  for (const auto& [label, kind] : shapeModes) {
    QAction* a = shapes->addAction(label, this, [this, kind = kind] { setSphereMode(kind); });
    a->setCheckable(true);
    a->setChecked(!kind);
    shapeGroup->addAction(a);
    sphereModeActions_.push_back(a);
  }
  // PaLa's 2D / 3D switch (Mutze, Polyspherical grains, §1 (i)).
  QMenu* motion = sim->addMenu(tr("&Motion (2D / 3D)"));
  auto* motionGroup = new QActionGroup(this);
  for (const MotionChoice choice : kMotionChoices) {
    QAction* a = motion->addAction(motionChoiceLabel(choice), this, [this, choice] { setMotion(choice); });
    a->setCheckable(true);
    a->setChecked(choice == MotionChoice::AsSceneFile);
    if (motionChoiceNormalAxis(choice)) {
      a->setToolTip(
          tr("Motion in this plane through the middle of the bodies: positions in the plane, "
             "rotation about its normal only"));
    }
    motionGroup->addAction(a);
    motionActions_.push_back(a);
  }
  sim->addAction(tr("Integrator &order analysis…"), this, [this] { openOrderAnalysis(); });
  liveActions_ = {playAction_, stepAction_, stepBackAction_,       resetAction_,      del, spawn, shoot,
                  faster,      slower,      trajectory_->action(), clumpWizardAction_};

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(pebblesAction_);
  view->addAction(wireframeAction_);
  view->addAction(meshAction_);
  view->addAction(stereoAction_);
  view->addSeparator();
  auto overlay = [this, view](const QString& text, auto apply) {
    QAction* a = view->addAction(text);
    a->setCheckable(true);
    connect(a, &QAction::toggled, this, [this, apply](bool on) {
      apply(viewport_->options(), on);
      viewport_->update();
    });
    return a;
  };
  overlay(tr("Walls"), [](render::ViewOptions& o, bool on) { o.walls = on; })->setChecked(true);
  overlay(tr("Body axes and centre of mass"), [](render::ViewOptions& o, bool on) { o.bodyAxes = on; });
  overlay(tr("Velocity v"), [](render::ViewOptions& o, bool on) { o.velocityArrows = on; });
  overlay(tr("Angular velocity ω"), [](render::ViewOptions& o, bool on) { o.angularVelocityArrows = on; });
  overlay(tr("Angular momentum L"), [](render::ViewOptions& o, bool on) { o.angularMomentumArrows = on; });
  overlay(tr("Trails"), [](render::ViewOptions& o, bool on) { o.trails = on; });
  overlay(tr("Contact points"), [](render::ViewOptions& o, bool on) { o.contactPoints = on; });
  view->addSeparator();
  QAction* fit = view->addAction(tr("&Fit all"), this, [this] { viewport_->fitAll(); });
  fit->setShortcut(keys::fitAll);
  view->addAction(trackAction_);
  QAction* alongL =
      view->addAction(tr("Look along &L"), this, [this] { viewport_->lookAlongAngularMomentum(); });
  alongL->setShortcut(keys::lookAlongL);
  QAction* dzhanibekov = view->addAction(tr("&Dzhanibekov mode"), this, [this] {
    const sim::SimulationFrame* f = currentFrame();
    const int selected = viewport_->selectedBody();
    openDzhanibekovPanel(selected >= 0 || !f || f->snapshot.bodies.size() == 0 ? selected : 0);
  });
  dzhanibekov->setShortcut(keys::dzhanibekov);
  dzhanibekov->setToolTip(tr("Spin the selected body about a principal axis and watch it flip (Ctrl+D)"));
  QAction* status = view->addAction(tr("Status overlay"));
  status->setCheckable(true);
  status->setChecked(true);
  connect(status, &QAction::toggled, viewport_, &Viewport::setStatusVisible);
  view->addSeparator();
  view->addAction(parametersDock_->toggleViewAction());
  view->addAction(inspectorDock_->toggleViewAction());
  view->addAction(energyDock_->toggleViewAction());
  view->addAction(templateLibrary_->toggleViewAction());
  view->addAction(dzhanibekovDock_->toggleViewAction());

  view->addAction(lessonDock_->toggleViewAction());

  QMenu* lessons = menuBar()->addMenu(tr("&Lessons"));
  for (std::size_t i = 0; i < lessonDock_->lessons().size(); ++i) {
    const Lesson& l = lessonDock_->lessons()[i];
    QAction* a = lessons->addAction(l.title, this, [this, i] { openLesson(static_cast<int>(i)); });
    a->setStatusTip(l.summary);
  }
  lessons->addSeparator();
  lessons->addAction(tr("All lessons…"), this, [this] {
    closeLesson();
    lessonDock_->show();
    lessonDock_->raise();
  });

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(helpAction_);
  help->addAction(tr("&About ClumpLab"), this, [this] {
    QMessageBox::about(
        this, tr("About ClumpLab"),
        tr("<b>ClumpLab</b> %1<br>A sandbox for rigid clumps: rigid bodies made of overlapping "
           "spheres.<br>Methods from MercuryDPM (rigid clumps), Mutze (PaLa), Woo and the cluster "
           "integration method.")
            .arg(QApplication::applicationVersion()));
  });
}

void MainWindow::restoreSettings() {
  QSettings settings;
  if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) resize(1500, 920);
  restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
  speed_ = std::clamp(settings.value(QStringLiteral("simulation/speed"), 1.0).toDouble(), 1e-3, 1.0);
  asFast_ = settings.value(QStringLiteral("simulation/asFastAsPossible"), false).toBool();
  showRunSpeed(*speedBox_, speed_, asFast_);
  parametersDock_->showRunSpeed(speed_, asFast_);
  const QString view = QStringLiteral("view/");
  pebblesAction_->setChecked(settings.value(view + QStringLiteral("pebbles"), true).toBool());
  wireframeAction_->setChecked(settings.value(view + QStringLiteral("wireframe"), false).toBool());
  meshAction_->setChecked(settings.value(view + QStringLiteral("mesh"), false).toBool());
  coloringBox_->setCurrentIndex(settings.value(view + QStringLiteral("coloring"), 0).toInt());
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
  // In a lesson: the user's own choices from before it, not the lesson's.
  const bool inLesson = beforeLessons_.has_value();
  const render::ViewOptions& o = inLesson ? beforeLessons_->view : viewport_->options();
  settings.setValue(QStringLiteral("simulation/speed"), inLesson ? beforeLessons_->speed : speed_);
  settings.setValue(QStringLiteral("simulation/asFastAsPossible"),
                    inLesson ? beforeLessons_->asFast : asFast_);
  const QString view = QStringLiteral("view/");
  settings.setValue(view + QStringLiteral("pebbles"), o.pebbles);
  settings.setValue(view + QStringLiteral("wireframe"), o.wireframe);
  settings.setValue(view + QStringLiteral("mesh"), o.sourceMesh);
  settings.setValue(view + QStringLiteral("coloring"), coloringBox_->findData(static_cast<int>(o.coloring)));
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

// --- files ------------------------------------------------------------------------------------

void MainWindow::openDefaultScene() {
  const SceneOverrides before = overrides_;
  if (!scenePath_.isEmpty()) overrides_.plane.reset();  // another document: its own motion
  try {
    showDocument(defaultScene(overrides_), QString());
  } catch (const std::exception& e) {
    overrides_ = before;
    QMessageBox::critical(this, tr("Default scene"), QString::fromStdString(e.what()));
  }
}

QString MainWindow::openDocument(const QString& path, bool quiet) {
  std::shared_ptr<const Scene> scene;
  QString error;
  // A movie being recorded ends, complete with what it has: what it shows is about to change.
  if (recorder_) recorder_->stop();
  if (isTrajectoryFile(path.toStdString())) {
    error = replay_->open(path);
  } else {
    const SceneOverrides before = overrides_;
    if (path != scenePath_) overrides_.plane.reset();  // another document: its own motion
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
      scene = loadDocument(path.toStdString(), overrides_);
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
      overrides_ = before;
    }
    QApplication::restoreOverrideCursor();
  }
  if (!error.isEmpty()) {
    if (!quiet) {
      QMessageBox::critical(this, tr("Cannot open %1").arg(QFileInfo(path).fileName()),
                            tr("%1\n\nThe current scene is unchanged.").arg(error));
    }
    return error;
  }
  if (scene) showDocument(scene, path);  // else a replay, open now
  addRecentFile(path);
  return QString();
}

void MainWindow::showDocument(std::shared_ptr<const Scene> scene, const QString& path) {
  replay_->leave();  // a scene opened from a replay replaces the live one
  scene_ = scene;
  scenePath_ = path;
  savePath_ = isSceneFile(path.toStdString()) ? path : QString();
  parameters_ = sim::SceneParameters::fromScene(*scene);
  parametersDock_->setParameters(parameters_);
  undo_.clear();
  energyDock_->clear();
  samples_.clear();
  viewport_->setSelectedBody(-1);
  loop_->loadScene(scene, running_);
  lookAlongScenePlane(*scene);
  showSwitchChecks();
  if (!openingLesson_) closeLesson();  // another document: the lesson no longer applies
  const QString name = path.isEmpty() ? tr("default scene") : QFileInfo(path).fileName();
  setWindowTitle(tr("%1 — ClumpLab").arg(name));
  autosave_->setSource(path);
  statusBar()->showMessage(QString::fromStdString(scene->description), 10000);
}

void MainWindow::lookAlongScenePlane(const Scene& scene) {
  // The 2D mode (Mutze, Polyspherical grains, §1 (i)): look along the plane's normal, at its front; the
  // view's fit on the scene's first frame keeps this direction.
  if (scene.settings.plane.enabled) viewport_->camera().lookAlong(-scene.settings.plane.normal);
}

void MainWindow::openDialog() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open a scene or a mesh"), QFileInfo(scenePath_).path(),
                                   QString::fromLatin1(openFileFilter()));
  if (!path.isEmpty()) openDocument(path);
}

void MainWindow::reload() {
  if (scenePath_.isEmpty()) {
    openDefaultScene();
  } else {
    openDocument(scenePath_);
  }
}

QString MainWindow::saveSceneTo(const QString& path) {
  auto done = std::make_shared<std::promise<std::string>>();
  std::future<std::string> result = done->get_future();
  loop_->saveScene(path.toStdString(), [done](const std::string& error) { done->set_value(error); });
  const QString error = QString::fromStdString(result.get());
  if (error.isEmpty()) {
    savePath_ = path;
    addRecentFile(path);
    setWindowTitle(tr("%1 — ClumpLab").arg(QFileInfo(path).fileName()));
  }
  return error;
}

QString MainWindow::openRestored(const QString& autosavePath, const QString& source) {
  const QString error = openDocument(autosavePath, true);
  if (!error.isEmpty()) return error;
  scenePath_ = source;
  savePath_.clear();   // the autosave is removed once restored: Save must ask where
  QSettings settings;  // and it is no file to reopen
  QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
  recent.removeAll(QFileInfo(autosavePath).absoluteFilePath());
  settings.setValue(QStringLiteral("recentFiles"), recent);
  updateRecentMenu();
  autosave_->setSource(source);
  const QString name = source.isEmpty() ? tr("scene") : QFileInfo(source).fileName();
  setWindowTitle(tr("%1 (restored, not saved) — ClumpLab").arg(name));
  statusBar()->showMessage(
      tr("Restored the scene autosaved before ClumpLab last closed unexpectedly. Save it "
         "to keep it."));
  return QString();
}

void MainWindow::save() {
  if (savePath_.isEmpty()) {
    saveAs();
    return;
  }
  const QString error = saveSceneTo(savePath_);
  if (!error.isEmpty()) {
    QMessageBox::critical(this, tr("Save failed"), error);
  } else {
    statusBar()->showMessage(tr("Saved %1").arg(savePath_), 4000);
  }
}

void MainWindow::saveAs() {
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Save the scene"),
                                   !savePath_.isEmpty()                    ? savePath_
                                   : isSceneFile(scenePath_.toStdString()) ? scenePath_
                                                                           : QStringLiteral("scene.json"),
                                   tr("Scenes (*.json)"));
  if (path.isEmpty()) return;
  const QString error = saveSceneTo(path);
  if (!error.isEmpty()) {
    QMessageBox::critical(this, tr("Save failed"), error);
  } else {
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
  }
}

void MainWindow::addRecentFile(const QString& path) {
  QSettings settings;
  QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  files.removeAll(absolute);
  files.prepend(absolute);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  settings.setValue(QStringLiteral("recentFiles"), files);
  updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
  recentMenu_->clear();
  const QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
  for (const QString& f : files) {
    recentMenu_->addAction(QFileInfo(f).fileName() + QStringLiteral("  —  ") + QFileInfo(f).path(), this,
                           [this, f] { openDocument(f); });
  }
  recentMenu_->setEnabled(!files.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasFormat(QString::fromLatin1(kTemplateMimeType))) {
    event->acceptProposedAction();  // where it may land is decided as it moves
    return;
  }
  for (const QUrl& url : event->mimeData()->urls()) {
    const std::string p = url.toLocalFile().toStdString();
    if (isSceneFile(p) || isMeshFile(p) || isTrajectoryFile(p)) {
      event->acceptProposedAction();
      return;
    }
  }
}

void MainWindow::dragMoveEvent(QDragMoveEvent* event) {
  if (!event->mimeData()->hasFormat(QString::fromLatin1(kTemplateMimeType))) {
    event->acceptProposedAction();
    return;
  }
  // A template lands only on the 3D view.
  const QPoint at = viewport_->mapFrom(this, event->position().toPoint());
  if (viewport_->rect().contains(at)) {
    event->acceptProposedAction();
  } else {
    event->ignore();
  }
}

void MainWindow::dropEvent(QDropEvent* event) {
  if (event->mimeData()->hasFormat(QString::fromLatin1(kTemplateMimeType))) {
    const QString path = QString::fromUtf8(event->mimeData()->data(QString::fromLatin1(kTemplateMimeType)));
    const QPoint at = viewport_->mapFrom(this, event->position().toPoint());
    if (!viewport_->rect().contains(at)) return;
    event->acceptProposedAction();
    QTimer::singleShot(0, this, [this, path, at] { spawnLibraryTemplate(path, at); });
    return;
  }
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.isEmpty()) return;
  event->acceptProposedAction();
  // Opened after the drop has finished, so an error dialog does not block the drag source.
  const QString path = urls.front().toLocalFile();
  QTimer::singleShot(0, this, [this, path] { openDocument(path); });
}

void MainWindow::toggleRecording(bool on) {
  if (!on) {
    if (recorder_) recorder_->stop();
    return;
  }
  if (recorder_) return;
  RecordDialog dialog(viewport_->size() * viewport_->devicePixelRatio(), this);
  if (replay_->active()) {
    const ReplayDocument& d = *replay_->document();
    dialog.setReplay(static_cast<int>(d.frameCount()), d.endTime() - d.startTime());
  }
  if (dialog.exec() != QDialog::Accepted) {
    const QSignalBlocker block(recordAction_);
    recordAction_->setChecked(false);
    return;
  }
  startRecording(dialog.plan());
}

bool MainWindow::startRecording(RecordingPlan plan) {
  const auto uncheck = [this] {
    const QSignalBlocker block(recordAction_);
    recordAction_->setChecked(false);
  };
  if (recorder_) return true;
  if (plan.movie.needsFfmpeg() && findFfmpeg(plan.movie.ffmpeg).isEmpty()) {
    const MovieSettings png = plan.movie.asPngSequence();
    const auto answer = QMessageBox::question(
        this, tr("Recording"),
        tr("%1 needs ffmpeg, which was not found (install it with: apt-get install ffmpeg).\n\n"
           "Record the frames as PNG images into %2 instead? ffmpeg can make them a movie later.")
            .arg(QFileInfo(plan.movie.path).fileName(), QDir::toNativeSeparators(png.path)),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Yes);
    if (answer != QMessageBox::Yes) {
      uncheck();
      return false;
    }
    plan.movie = png;
  }
  {
    const QSignalBlocker block(recordAction_);
    recordAction_->setChecked(true);
  }
  recorder_ = new MovieRecorder(*this, plan);
  const QString path = plan.movie.path;
  connect(recorder_, &MovieRecorder::finished, this, [this, path](const QString& error) {
    const int frames = recorder_->framesWritten();
    const qint64 bytes = recorder_->bytesOnDisk();
    recorder_->deleteLater();
    recorder_ = nullptr;
    recordStatus_->clear();
    {
      const QSignalBlocker block(recordAction_);
      recordAction_->setChecked(false);
    }
    if (!error.isEmpty()) {
      QMessageBox::warning(this, tr("Recording"), error);
    } else {
      statusBar()->showMessage(tr("Recorded %1: %2 frames, %3 kB").arg(path).arg(frames).arg(bytes / 1024),
                               10000);
    }
  });
  if (const QString error = recorder_->start(); !error.isEmpty()) {
    recorder_->deleteLater();
    recorder_ = nullptr;
    uncheck();
    QMessageBox::warning(this, tr("Recording"), error);
    return false;
  }
  return true;
}

void MainWindow::updateRecordingStatus() {
  if (!recorder_ || !recorder_->recording()) return;
  const QString planned = recorder_->framesWanted() > 0 && !recorder_->realTime()
                              ? QStringLiteral(" / %1").arg(recorder_->framesWanted())
                              : QString();
  recordStatus_->setText(tr("● recording %1 s · %2%3 frames · %4 kB")
                             .arg(recorder_->elapsedSeconds(), 0, 'f', 1)
                             .arg(recorder_->framesWritten())
                             .arg(planned)
                             .arg(recorder_->bytesOnDisk() / 1024));
}

void MainWindow::screenshot() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save a screenshot"),
                                                    QStringLiteral("clumplab.png"), tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  if (!saveImageAtomically(viewport_->grabFramebuffer(), path)) {
    QMessageBox::critical(this, tr("Screenshot"), tr("%1: cannot write the image").arg(path));
  }
}

// --- simulation control -----------------------------------------------------------------------

void MainWindow::setRunning(bool running) {
  showRunning(running);
  loop_->setRunning(running);
  runTicket_ = loop_->commandsPosted();
}

void MainWindow::setSpeed(double speed, bool asFastAsPossible) {
  speed_ = std::clamp(speed, 1e-3, 1.0);
  asFast_ = asFastAsPossible;
  showRunSpeed(*speedBox_, speed_, asFast_);
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

void MainWindow::onParametersEdited(const sim::SceneParameters& edited, const QString& what) {
  undo_.push(new ParameterEditCommand(parameters_, edited, what,
                                      [this](const sim::SceneParameters& p) { applyParameters(p); }));
}

void MainWindow::applyParameters(const sim::SceneParameters& p) {
  parameters_ = p;
  parametersDock_->setParameters(p);
  loop_->setParameters(p);
}

void MainWindow::spawnAtCursor(bool shoot) {
  const QPoint cursor = viewport_->mapFromGlobal(QCursor::pos());
  spawnAt(viewport_->rect().contains(cursor) ? cursor : viewport_->rect().center(), shoot);
}

void MainWindow::spawnAt(QPoint pixel, bool shoot) {
  const sim::SimulationFrame* f = currentFrame();
  if (!f || templateBox_->currentIndex() < 0) return;
  const auto templateIndex = static_cast<std::uint32_t>(templateBox_->currentData().toUInt());
  if (templateIndex >= f->snapshot.templates.size()) return;
  BodyInit body = placementAt(pixel, f->snapshot.templates[templateIndex]->boundingRadius, shoot);
  body.templateIndex = templateIndex;
  loop_->spawn(body);
}

void MainWindow::spawnTemplateAt(TemplatePtr clump, QPoint pixel) {
  if (!clump || !currentFrame()) return;
  const BodyInit body = placementAt(pixel, clump->boundingRadius, false);
  loop_->spawn(std::vector<BodyInit>{body}, std::move(clump));
}

bool MainWindow::spawnLibraryTemplate(const QString& path, QPoint pixel) {
  templateLibrary_->refresh();  // the file may have changed since the list was drawn
  const LibraryEntry* entry = templateLibrary_->library().find(QFileInfo(path).absoluteFilePath());
  if (!entry || !entry->clump) {
    QMessageBox::warning(this, tr("Spawn template"),
                         entry ? entry->error : tr("%1: not a template of the library").arg(path));
    return false;
  }
  spawnTemplateAt(entry->clump, pixel);
  statusBar()->showMessage(tr("Spawned %1").arg(QString::fromStdString(entry->clump->name)), 3000);
  return true;
}

BodyInit MainWindow::placementAt(QPoint pixel, double radius, bool shoot) const {
  const Vec3 point = viewport_->worldPointUnder(pixel);
  BodyInit body;
  if (shoot) {
    const Vec3 from = viewport_->camera().eye();
    const Vec3 direction = (point - from).normalized();
    body.position = from + direction * std::min((point - from).norm() * 0.5, 6.0 * radius);
    body.velocity = direction * shootSpeed_->value();
  } else {
    body.position = point + Vec3(0.0, 0.0, 1.2 * radius);
  }
  return body;
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
    clumpWizard_ = new ClumpWizard(loop_.get(), this);
    clumpWizard_->setAttribute(Qt::WA_DeleteOnClose);
    connect(clumpWizard_, &ClumpWizard::templateSaved, this, [this](const QString& path, int copies) {
      statusBar()->showMessage(tr("Saved %1; %n copies added", nullptr, copies).arg(path), 6000);
    });
  }
  clumpWizard_->show();
  clumpWizard_->raise();
  clumpWizard_->activateWindow();
  return clumpWizard_;
}

QString MainWindow::setSphereMode(std::optional<SphereKind> spheres) {
  SceneOverrides next = overrides_;
  next.spheres = spheres;
  return reopenWith(next, tr("Clumps as spheres"),
                    tr("Spheres take other room than the clumps (a bounding sphere much more): try the other "
                       "kind of sphere, or fewer bodies."));
}

QString MainWindow::setMotion(MotionChoice choice) {
  SceneOverrides next = overrides_;
  if (choice == MotionChoice::AsSceneFile) {
    next.plane.reset();
  } else if (const auto axis = motionChoiceNormalAxis(choice)) {
    // Through the middle of the bodies as they are now: the same plane however often it is chosen.
    next.plane = scene_ ? planeThroughBodies(*scene_, *axis) : PlaneConstraint{true, Vec3::Unit(*axis), 0.0};
  } else {
    next.plane = PlaneConstraint{};
  }
  return reopenWith(next, tr("Motion"), tr("Try another plane, or the scene as its file says."));
}

QString MainWindow::reopenWith(const SceneOverrides& next, const QString& title, const QString& hint) {
  const SceneOverrides before = overrides_;
  overrides_ = next;
  QString error;
  if (scenePath_.isEmpty()) {
    try {
      showDocument(defaultScene(overrides_), QString());
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
  } else {
    error = openDocument(scenePath_, true);
  }
  if (!error.isEmpty()) {
    overrides_ = before;  // the scene on screen is still the one before
    QMessageBox::warning(this, title, tr("%1\n\n%2 The scene is unchanged.").arg(error, hint));
  } else if (scene_) {
    QStringList notes;
    for (const std::string& note : scene_->notes) notes << QString::fromStdString(note);
    if (const double overlap = worstInitialOverlap(*scene_); overlap > 0.0) {
      notes
          << tr("Bodies overlap by up to %1% of a pebble radius at the start: the contacts push them apart.")
                 .arg(100.0 * overlap, 0, 'f', 0);
    }
    if (!notes.isEmpty()) statusBar()->showMessage(notes.join(QLatin1Char(' ')), 12000);
  }
  showSwitchChecks();
  return error;
}

void MainWindow::showSwitchChecks() {
  const int sphere = !overrides_.spheres ? 0 : (*overrides_.spheres == SphereKind::Bounding ? 1 : 2);
  for (int k = 0; k < static_cast<int>(sphereModeActions_.size()); ++k)
    sphereModeActions_[k]->setChecked(k == sphere);
  const MotionChoice motion = motionChoiceOf(overrides_.plane);
  for (std::size_t k = 0; k < motionActions_.size(); ++k)
    motionActions_[k]->setChecked(kMotionChoices[k] == motion);
  // With no override the scene on screen moves as its file says (opening a file drops the override).
  if (!overrides_.plane && scene_) sceneFileMotion_ = describeMotion(scene_->settings.plane);
  motionActions_.front()->setText(tr("As the scene file says (%1)").arg(sceneFileMotion_));
  parametersDock_->showMotion(motion, sceneFileMotion_);
}

OrderAnalysisDialog* MainWindow::openOrderAnalysis() {
  if (!scene_) return nullptr;
  auto scene = std::make_shared<Scene>(*scene_);
  parameters_.writeTo(*scene);  // the parameters as edited, not as loaded
  auto* dialog = new OrderAnalysisDialog(scene, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(
      tr("Integrator order analysis — %1")
          .arg(scenePath_.isEmpty() ? tr("default scene") : QFileInfo(scenePath_).fileName()));
  dialog->show();
  return dialog;
}

QString MainWindow::openLesson(int index, bool run) {
  if (index < 0 || index >= static_cast<int>(lessonDock_->lessons().size())) return tr("no such lesson");
  const Lesson lesson = lessonDock_->lessons()[static_cast<std::size_t>(index)];
  QString error;
  const QString cache = QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation))
                            .filePath(QStringLiteral("lessons"));
  const QString path = extractLessonScene(lesson, cache, &error);
  if (path.isEmpty()) {
    QMessageBox::warning(this, tr("Lesson"), error);
    return error;
  }
  energyDock_->stopComparison();
  if (!beforeLessons_) {
    beforeLessons_ = BeforeLessons{speed_,
                                   asFast_,
                                   viewport_->options(),
                                   static_cast<int>(energyDock_->view()),
                                   inspectorDock_->isVisible(),
                                   dzhanibekovDock_->isVisible()};
  }
  openingLesson_ = true;
  setRunning(run);
  error = openDocument(path, false);
  openingLesson_ = false;
  if (!error.isEmpty()) return error;
  render::ViewOptions& o = viewport_->options();
  if (!lesson.show.isEmpty()) setViewItems(o, lesson.show);
  setColoring(o, lesson.coloring);
  showViewOptions();
  setSpeed(lesson.speed, false);
  const int body = std::max(lesson.dzhanibekovBody, 0);
  if (lesson.dzhanibekovBody >= 0 || lesson.plot == QLatin1String("omega-body")) {
    viewport_->setSelectedBody(body);
    inspectorDock_->setVisible(true);
    inspectorDock_->raise();
  }
  if (lesson.dzhanibekovBody >= 0) {
    openDzhanibekovPanel(lesson.dzhanibekovBody);
  } else if (dzhanibekovDock_->isVisible()) {
    dzhanibekovDock_->hide();  // a lesson without it: the panel of the one before goes
  }
  energyDock_->show();
  if (lesson.plot == QLatin1String("drift")) {
    energyDock_->showView(EnergyPlotDock::View::Drift);
  } else if (lesson.plot == QLatin1String("equipartition")) {
    energyDock_->showView(EnergyPlotDock::View::Equipartition);
  } else if (lesson.plot == QLatin1String("time-step-comparison")) {
    energyDock_->startComparison(scene_, lesson.timeSteps, scene_->duration > 0.0 ? scene_->duration : 1.0);
  } else {
    energyDock_->showView(EnergyPlotDock::View::Energies);
  }
  lessonCamera_ = lesson.camera;
  lessonCameraTicket_ = loop_->commandsPosted();
  lessonDock_->showLesson(index);
  lessonDock_->show();
  lessonDock_->raise();
  viewport_->update();
  return QString();
}

void MainWindow::closeLesson() {
  if (lessonDock_->currentLesson() < 0) return;
  energyDock_->stopComparison();
  lessonCamera_.clear();
  lessonDock_->showLesson(-1);
  if (!beforeLessons_) return;
  const BeforeLessons before = *beforeLessons_;
  beforeLessons_.reset();
  setSpeed(before.speed, before.asFast);
  viewport_->options() = before.view;
  showViewOptions();
  energyDock_->showView(static_cast<EnergyPlotDock::View>(before.plot));
  inspectorDock_->setVisible(before.inspectorVisible);
  dzhanibekovDock_->setVisible(before.dzhanibekovVisible);
  viewport_->update();
}

int MainWindow::findLesson(const QString& which) const {
  const std::vector<Lesson>& lessons = lessonDock_->lessons();
  bool isNumber = false;
  const int number = which.toInt(&isNumber);
  if (isNumber) return number >= 1 && number <= static_cast<int>(lessons.size()) ? number - 1 : -1;
  static const QRegularExpression leadingNumber(QStringLiteral("^[0-9]+-"));
  const QString wanted = which.trimmed().toLower().remove(leadingNumber).remove(QStringLiteral(".json"));
  for (std::size_t i = 0; i < lessons.size(); ++i) {
    const QString stem = QFileInfo(lessons[i].file).completeBaseName().toLower().remove(leadingNumber);
    if (wanted == stem || wanted == lessons[i].title.trimmed().toLower()) return static_cast<int>(i);
  }
  return -1;
}

void MainWindow::showViewOptions() {
  const render::ViewOptions o = viewport_->options();
  for (const auto& [action, on] :
       {std::pair{pebblesAction_, o.pebbles}, std::pair{wireframeAction_, o.wireframe},
        std::pair{meshAction_, o.sourceMesh}, std::pair{stereoAction_, o.stereo}}) {
    const QSignalBlocker block(action);
    action->setChecked(on);
  }
  const QSignalBlocker block(coloringBox_);
  coloringBox_->setCurrentIndex(coloringBox_->findData(static_cast<int>(o.coloring)));
}

void MainWindow::deleteSelected() {
  const int body = viewport_->selectedBody();
  if (body < 0) return;
  viewport_->setSelectedBody(-1);
  // The body as the frame on screen numbers it: refused if indices shifted before it arrives.
  const sim::SimulationFrame* f = currentFrame();
  loop_->removeBody({static_cast<std::uint32_t>(body), f != nullptr ? f->bodyIndexGeneration : 0});
}

void MainWindow::updateTemplateList() {
  const sim::SimulationFrame* f = currentFrame();
  if (!f) return;
  const QString current = templateBox_->currentText();
  templateBox_->clear();
  for (std::size_t i = 0; i < f->snapshot.templates.size(); ++i) {
    templateBox_->addItem(QString::fromStdString(f->snapshot.templates[i]->name), static_cast<uint>(i));
  }
  const int keep = templateBox_->findText(current);
  if (keep >= 0) templateBox_->setCurrentIndex(keep);
}

void MainWindow::setLiveControlsEnabled(bool on) {
  for (QAction* a : liveActions_) a->setEnabled(on);
  for (QWidget* w : {static_cast<QWidget*>(parametersDock_), static_cast<QWidget*>(speedBox_),
                     static_cast<QWidget*>(templateBox_), static_cast<QWidget*>(shootSpeed_), banner_,
                     static_cast<QWidget*>(templateLibrary_)})
    w->setEnabled(on);
}

bool MainWindow::divergenceBannerShown() const {
  return banner_->isVisible();
}

void MainWindow::showDivergence(const sim::SimulationFrame& f) {
  if (f.problem.empty()) {
    banner_->hide();
    return;
  }
  bannerText_->setText(
      tr("<b>The simulation stopped.</b> %1").arg(QString::fromStdString(f.problem).toHtmlEscaped()));
  bannerFix_->setVisible(f.canRecover);
  banner_->show();
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
    updateTemplateList();
  }
  if (!replay_->active()) {  // else the view shows the replay's frame
    dzhanibekovDock_->showFrame(f, viewport_->selectedBody());
    viewport_->options().bodyCurves = dzhanibekovDock_->bodyCurves();
    viewport_->setFrame(&f);
    dzhanibekovDock_->keepInsetClear();
    if (!lessonCamera_.isEmpty() && f.commandsApplied >= lessonCameraTicket_) {
      // The lesson's view, once its scene is on screen (the view has just framed it).
      render::Camera goal = viewport_->camera();
      if (lessonCamera_ == QLatin1String("front")) {
        goal.lookAlong(Vec3::UnitY());
        viewport_->glideTo(goal);
      } else if (lessonCamera_ == QLatin1String("along-L")) {
        viewport_->lookAlongAngularMomentum();
      }
      lessonCamera_.clear();
    }
    inspectorDock_->show(f.snapshot, viewport_->selectedBody(), f.sceneGeneration);
  } else {
    viewport_->options().bodyCurves.clear();  // the polhode belongs to the live body
  }
  trajectory_->show(f);
  inletStatus_->showInlets(f.snapshot, f.sceneGeneration);
  showDivergence(f);
  // The thread decides whether it runs (a divergence or a single step pauses it): once it has seen
  // the window's last run command, the play button follows it.
  if (f.commandsApplied >= runTicket_ && running_ == f.stats.paused) showRunning(!f.stats.paused);
  parametersDock_->setTimeStepHints(f.criticalTimeStep, f.recommendedTimeStep);
  updateRecordingStatus();
  emit frameShown();
}

}  // namespace clumplab::gui
