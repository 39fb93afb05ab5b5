#include "gui/window/WindowActions.hpp"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSignalBlocker>
#include <QStyle>
#include <QToolBar>
#include <QUndoStack>

#include "gui/docks/EnergyPlotDock.hpp"
#include "gui/docks/InspectorDock.hpp"
#include "gui/docks/ParametersDock.hpp"
#include "gui/docks/TemplateLibraryDock.hpp"
#include "gui/document/DocumentController.hpp"
#include "gui/document/SceneSwitches.hpp"
#include "gui/dzhanibekov/DzhanibekovDock.hpp"
#include "gui/lessons/LessonDock.hpp"
#include "gui/recording/RecordingController.hpp"
#include "gui/recording/TrajectoryControls.hpp"
#include "gui/spawn/SpawnController.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/widgets/RunSpeeds.hpp"
#include "gui/widgets/Shortcuts.hpp"
#include "gui/window/MainWindow.hpp"

namespace clumplab::gui {

WindowActions::WindowActions(MainWindow& window) : QObject(&window), w_(window) {
  createActions();
}

void WindowActions::showRunning(bool running) {
  const QSignalBlocker block(playAction_);
  playAction_->setChecked(running);
  playAction_->setText(running ? tr("Pause") : tr("Run"));
  playAction_->setIcon(w_.style()->standardIcon(running ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

void WindowActions::setLiveEnabled(bool on) {
  for (QAction* a : liveActions_) a->setEnabled(on);
  speedBox_->setEnabled(on);
}

void WindowActions::createActions() {
  playAction_ = new QAction(w_.style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), &w_);
  playAction_->setCheckable(true);
  playAction_->setShortcut(keys::playPause);
  playAction_->setToolTip(tr("Play / pause (Space)"));
  connect(playAction_, &QAction::toggled, this, [this](bool on) {
    if (on != w_.running()) w_.setRunning(on);
  });
  stepAction_ = new QAction(w_.style()->standardIcon(QStyle::SP_MediaSkipForward), tr("&Step"), &w_);
  stepAction_->setShortcut(keys::step);
  stepAction_->setToolTip(tr("One time step (→)"));
  connect(stepAction_, &QAction::triggered, this, [this] { w_.singleStep(); });
  stepBackAction_ =
      new QAction(w_.style()->standardIcon(QStyle::SP_MediaSkipBackward), tr("Step &back"), &w_);
  stepBackAction_->setShortcut(keys::stepBack);
  stepBackAction_->setToolTip(
      tr("Back to an earlier state of the history (Shift+←); running on repeats the run"));
  connect(stepBackAction_, &QAction::triggered, this, [this] { w_.stepBack(); });
  resetAction_ = new QAction(w_.style()->standardIcon(QStyle::SP_BrowserReload), tr("R&eset"), &w_);
  resetAction_->setShortcut(keys::reset);
  resetAction_->setToolTip(tr("Back to the loaded scene, keeping the parameters (Backspace)"));
  connect(resetAction_, &QAction::triggered, this, [this] { w_.simulation().reset(); });

  auto toggle = [this](const QString& text, const QKeySequence& key, bool on, auto apply) {
    auto* a = new QAction(text, &w_);
    a->setCheckable(true);
    a->setChecked(on);
    a->setShortcut(key);
    connect(a, &QAction::toggled, this, [this, apply](bool checked) {
      apply(w_.viewport()->options(), checked);
      w_.viewport()->update();
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
  trackAction_ = new QAction(tr("&Track selected body"), &w_);
  trackAction_->setCheckable(true);
  trackAction_->setShortcut(keys::track);
  connect(trackAction_, &QAction::toggled, this, [this](bool on) { w_.viewport()->setTracking(on); });
  recordAction_ = new QAction(tr("● Record"), &w_);
  recordAction_->setCheckable(true);
  recordAction_->setShortcut(keys::record);
  recordAction_->setToolTip(tr("Record a movie (Ctrl+R): MP4, WebM, GIF or PNG frames"));
  clumpWizardAction_ = new QAction(tr("&New clump from mesh…"), &w_);
  clumpWizardAction_->setShortcut(keys::clumpWizard);
  clumpWizardAction_->setToolTip(
      tr("Fill a mesh with pebbles and add the clump to the scene (Ctrl+Shift+N)"));
  connect(clumpWizardAction_, &QAction::triggered, this, [this] { w_.openClumpWizard(); });
  helpAction_ = new QAction(tr("&Keys and mouse"), &w_);
  helpAction_->setCheckable(true);
  helpAction_->setShortcut(keys::help);
  connect(helpAction_, &QAction::toggled, this, [this](bool on) { w_.viewport()->setHelpVisible(on); });
}

void WindowActions::createToolBar() {
  QToolBar* bar = w_.addToolBar(tr("Simulation"));
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
    w_.setSpeed(s > 0.0 ? s : w_.speed(), s == 0.0);
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
  eyeSeparation_->setValue(100.0 * w_.viewport()->options().eyeSeparation);
  eyeSeparation_->setSuffix(tr(" % eyes"));
  eyeSeparation_->setToolTip(
      tr("Eye separation, as a percentage of the viewing distance: more for more depth"));
  connect(eyeSeparation_, &QDoubleSpinBox::valueChanged, this, [this](double percent) {
    w_.viewport()->options().eyeSeparation = percent / 100.0;
    w_.viewport()->update();
  });
  QAction* eyes = bar->addWidget(eyeSeparation_);
  eyes->setVisible(false);
  connect(stereoAction_, &QAction::toggled, eyes, &QAction::setVisible);
  coloringBox_ = new QComboBox;
  coloringBox_->addItem(tr("colour per body"), static_cast<int>(render::Coloring::PerBody));
  coloringBox_->addItem(tr("colour by speed"), static_cast<int>(render::Coloring::BySpeed));
  coloringBox_->addItem(tr("colour by |ω|"), static_cast<int>(render::Coloring::ByAngularSpeed));
  connect(coloringBox_, &QComboBox::currentIndexChanged, this, [this] {
    w_.viewport()->options().coloring = static_cast<render::Coloring>(coloringBox_->currentData().toInt());
    w_.viewport()->update();
  });
  bar->addWidget(coloringBox_);
  bar->addSeparator();
  bar->addWidget(new QLabel(tr(" Spawn ")));
  bar->addWidget(w_.spawnController()->templateBox());
  bar->addWidget(w_.spawnController()->shootSpeedBox());
}

void WindowActions::createMenus() {
  liveActions_ = {
      playAction_,       stepAction_, stepBackAction_, resetAction_, w_.trajectoryControls()->action(),
      clumpWizardAction_};
  addFileMenu();
  addEditMenu();
  addSimulationMenu();
  addViewMenu();
  addLessonsMenu();
  addHelpMenu();
}

void WindowActions::addFileMenu() {
  QMenu* file = w_.menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), this, [this] { w_.document()->openDialog(); });
  open->setShortcut(QKeySequence::Open);
  file->addAction(tr("Open E&xample…"), this, [this] { w_.document()->openExampleDialog(); });
  w_.document()->setRecentMenu(file->addMenu(tr("Open &Recent")));
  file->addAction(tr("Open the &default scene"), &w_, &MainWindow::openDefaultScene);
  QAction* reopen = file->addAction(tr("Reopen the last scene at start"));
  reopen->setCheckable(true);
  reopen->setChecked(DocumentController::reopenLastScene());
  reopen->setToolTip(
      tr("Without a file on the command line, start on the scene shown when ClumpLab was closed"));
  connect(reopen, &QAction::toggled, this, [](bool on) { DocumentController::setReopenLastScene(on); });
  file->addAction(clumpWizardAction_);
  QAction* reloadAction = file->addAction(tr("Re&load"), this, [this] { w_.document()->reload(); });
  reloadAction->setShortcut(keys::reload);
  file->addSeparator();
  QAction* saveAction = file->addAction(tr("&Save"), this, [this] { w_.document()->save(); });
  saveAction->setShortcut(QKeySequence::Save);
  QAction* saveAsAction = file->addAction(tr("Save &As…"), this, [this] { w_.document()->saveAs(); });
  saveAsAction->setShortcut(QKeySequence::SaveAs);
  file->addAction(recordAction_);
  file->addAction(w_.trajectoryControls()->action());
  QAction* shot =
      file->addAction(tr("Screens&hot…"), this, [this] { w_.recordingController()->screenshot(); });
  shot->setShortcut(keys::screenshot);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), &w_, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
}

void WindowActions::addEditMenu() {
  QMenu* edit = w_.menuBar()->addMenu(tr("&Edit"));
  QAction* undo = w_.undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = w_.undoStack()->createRedoAction(this, tr("&Redo"));
  redo->setShortcut(QKeySequence::Redo);
  edit->addAction(undo);
  edit->addAction(redo);
  edit->addSeparator();
  QAction* del = edit->addAction(tr("&Delete selected body"), &w_, &MainWindow::deleteSelected);
  del->setShortcut(keys::deleteBody);
  QAction* spawn =
      edit->addAction(tr("&Spawn at cursor"), this, [this] { w_.spawnController()->spawnAtCursor(false); });
  spawn->setShortcut(keys::spawn);
  QAction* shoot = edit->addAction(tr("Sh&oot towards cursor"), this,
                                   [this] { w_.spawnController()->spawnAtCursor(true); });
  shoot->setShortcut(keys::shoot);
  liveActions_ << del << spawn << shoot;
}

void WindowActions::addSimulationMenu() {
  QMenu* sim = w_.menuBar()->addMenu(tr("&Simulation"));
  sim->addAction(playAction_);
  sim->addAction(stepBackAction_);
  sim->addAction(stepAction_);
  sim->addAction(resetAction_);
  sim->addSeparator();
  QAction* faster = sim->addAction(tr("&Faster"), this, [this] { w_.changeSpeed(+1); });
  faster->setShortcuts({keys::faster, keys::fasterAlt});
  QAction* slower = sim->addAction(tr("S&lower"), this, [this] { w_.changeSpeed(-1); });
  slower->setShortcut(keys::slower);
  sim->addSeparator();
  w_.sceneSwitches()->addMenus(sim);  // PaLa's clumps-as-spheres and 2D / 3D switches
  sim->addAction(tr("Integrator &order analysis…"), this, [this] { w_.openOrderAnalysis(); });
  liveActions_ << faster << slower;
}

void WindowActions::addViewMenu() {
  QMenu* view = w_.menuBar()->addMenu(tr("&View"));
  view->addAction(pebblesAction_);
  view->addAction(wireframeAction_);
  view->addAction(meshAction_);
  view->addAction(stereoAction_);
  view->addSeparator();
  auto overlay = [this, view](const QString& text, auto apply) {
    QAction* a = view->addAction(text);
    a->setCheckable(true);
    connect(a, &QAction::toggled, this, [this, apply](bool on) {
      apply(w_.viewport()->options(), on);
      w_.viewport()->update();
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
  QAction* fit = view->addAction(tr("&Fit all"), this, [this] { w_.viewport()->fitAll(); });
  fit->setShortcut(keys::fitAll);
  view->addAction(trackAction_);
  QAction* alongL =
      view->addAction(tr("Look along &L"), this, [this] { w_.viewport()->lookAlongAngularMomentum(); });
  alongL->setShortcut(keys::lookAlongL);
  QAction* dzhanibekov = view->addAction(tr("&Dzhanibekov mode"), this, [this] {
    const sim::SimulationFrame* f = w_.currentFrame();
    const int selected = w_.viewport()->selectedBody();
    w_.openDzhanibekovPanel(selected >= 0 || !f || f->snapshot.bodies.size() == 0 ? selected : 0);
  });
  dzhanibekov->setShortcut(keys::dzhanibekov);
  dzhanibekov->setToolTip(tr("Spin the selected body about a principal axis and watch it flip (Ctrl+D)"));
  QAction* status = view->addAction(tr("Status overlay"));
  status->setCheckable(true);
  status->setChecked(true);
  connect(status, &QAction::toggled, w_.viewport(), &Viewport::setStatusVisible);
  view->addSeparator();
  view->addAction(w_.parametersDock()->toggleViewAction());
  view->addAction(w_.inspectorDock()->toggleViewAction());
  view->addAction(w_.energyDock()->toggleViewAction());
  view->addAction(w_.templateLibrary()->toggleViewAction());
  view->addAction(w_.dzhanibekovDock()->toggleViewAction());
  view->addAction(w_.lessonDock()->toggleViewAction());
}

void WindowActions::addLessonsMenu() {
  QMenu* lessons = w_.menuBar()->addMenu(tr("&Lessons"));
  for (std::size_t i = 0; i < w_.lessonDock()->lessons().size(); ++i) {
    const Lesson& l = w_.lessonDock()->lessons()[i];
    QAction* a = lessons->addAction(l.title, this, [this, i] { w_.openLesson(static_cast<int>(i)); });
    a->setStatusTip(l.summary);
  }
  lessons->addSeparator();
  lessons->addAction(tr("All lessons…"), this, [this] {
    w_.closeLesson();
    w_.lessonDock()->show();
    w_.lessonDock()->raise();
  });
}

void WindowActions::addHelpMenu() {
  QMenu* help = w_.menuBar()->addMenu(tr("&Help"));
  help->addAction(helpAction_);
  help->addAction(tr("&About ClumpLab"), this, [this] {
    QMessageBox::about(
        &w_, tr("About ClumpLab"),
        tr("<b>ClumpLab</b> %1<br>A sandbox for rigid clumps: rigid bodies made of overlapping "
           "spheres.<br>Methods from MercuryDPM (rigid clumps), Mutze (PaLa), Woo and the cluster "
           "integration method.")
            .arg(QApplication::applicationVersion()));
  });
}

void WindowActions::showViewOptions(const render::ViewOptions& o) {
  for (const auto& [action, on] :
       {std::pair{pebblesAction_, o.pebbles}, std::pair{wireframeAction_, o.wireframe},
        std::pair{meshAction_, o.sourceMesh}, std::pair{stereoAction_, o.stereo}}) {
    const QSignalBlocker block(action);
    action->setChecked(on);
  }
  const QSignalBlocker block(coloringBox_);
  coloringBox_->setCurrentIndex(coloringBox_->findData(static_cast<int>(o.coloring)));
}

}  // namespace clumplab::gui
