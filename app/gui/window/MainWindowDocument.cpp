#include <QApplication>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QTimer>
#include <future>

#include "core/scene/SceneOverlap.hpp"
#include "core/scene/ScenePlane.hpp"
#include "core/scene/SphereSwitch.hpp"
#include "gui/docks/EnergyPlotDock.hpp"
#include "gui/docks/ParametersDock.hpp"
#include "gui/docks/TemplateLibraryDock.hpp"
#include "gui/document/DefaultScene.hpp"
#include "gui/document/DocumentLoader.hpp"
#include "gui/document/RecentFiles.hpp"
#include "gui/lessons/LessonController.hpp"
#include "gui/recording/RecordingController.hpp"
#include "gui/replay/ReplayController.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/window/MainWindow.hpp"
#include "gui/window/SpawnController.hpp"

// The window's document: opening (files, the default scene, drops, an autosave restored), saving,
// and PaLa's scene switches (clumps as spheres, 2D / 3D), which reopen the scene.
namespace clumplab::gui {

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
  recording_->stop();
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
  recentFiles_->add(path);
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
  if (!lessons_->opening()) lessons_->close();  // another document: the lesson no longer applies
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
    recentFiles_->add(path);
    setWindowTitle(tr("%1 — ClumpLab").arg(QFileInfo(path).fileName()));
  }
  return error;
}

QString MainWindow::openRestored(const QString& autosavePath, const QString& source) {
  const QString error = openDocument(autosavePath, true);
  if (!error.isEmpty()) return error;
  scenePath_ = source;
  savePath_.clear();                   // the autosave is removed once restored: Save must ask where
  recentFiles_->remove(autosavePath);  // and it is no file to reopen
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
    QTimer::singleShot(0, this, [this, path, at] { spawn_->spawnLibraryTemplate(path, at); });
    return;
  }
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.isEmpty()) return;
  event->acceptProposedAction();
  // Opened after the drop has finished, so an error dialog does not block the drag source.
  const QString path = urls.front().toLocalFile();
  QTimer::singleShot(0, this, [this, path] { openDocument(path); });
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

}  // namespace clumplab::gui
