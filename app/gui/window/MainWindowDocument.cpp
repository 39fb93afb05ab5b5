#include <QDragEnterEvent>
#include <QMimeData>
#include <QStatusBar>
#include <QTimer>

#include "gui/docks/EnergyPlotDock.hpp"
#include "gui/docks/ParametersDock.hpp"
#include "gui/docks/TemplateLibraryDock.hpp"
#include "gui/document/DocumentController.hpp"
#include "gui/document/SceneSwitches.hpp"
#include "gui/lessons/LessonController.hpp"
#include "gui/replay/ReplayController.hpp"
#include "gui/spawn/SpawnController.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/window/MainWindow.hpp"

// The window's side of documents: an opened scene shown (parameters, plots, the simulation thread),
// files and templates dropped on the window; opening and saving themselves are DocumentController's
// and PaLa's switches SceneSwitches'.
namespace clumplab::gui {

void MainWindow::openStartScene() {
  document_->openStartScene();
}

void MainWindow::openDefaultScene() {
  document_->openDefault();
}

QString MainWindow::openDocument(const QString& path, bool quiet) {
  return document_->open(path, quiet);
}

QString MainWindow::saveSceneTo(const QString& path) {
  return document_->saveTo(path);
}

QString MainWindow::openRestored(const QString& autosavePath, const QString& source) {
  return document_->openRestored(autosavePath, source);
}

std::shared_ptr<const Scene> MainWindow::scene() const {
  return document_->scene();
}

QString MainWindow::setSphereMode(std::optional<SphereKind> spheres) {
  return switches_->setSphereMode(spheres);
}

std::optional<SphereKind> MainWindow::sphereMode() const {
  return switches_->sphereMode();
}

QString MainWindow::setMotion(MotionChoice choice) {
  return switches_->setMotion(choice);
}

MotionChoice MainWindow::motion() const {
  return switches_->motion();
}

void MainWindow::showScene(std::shared_ptr<const Scene> scene, const QString& path) {
  replay_->leave();  // a scene opened from a replay replaces the live one
  parameters_ = EditableModel::of(scene->model.settings, scene->model.contact);
  parametersDock_->setParameters(parameters_);
  undo_.clear();
  energyDock_->clear();
  samples_.clear();
  viewport_->setSelectedBody(-1);
  loop_->loadScene(scene, running_);
  lookAlongScenePlane(*scene);
  if (!lessons_->opening()) lessons_->close();  // another document: the lesson no longer applies
  autosave_->setSource(path);
  statusBar()->showMessage(QString::fromStdString(scene->description), 10000);
}

void MainWindow::lookAlongScenePlane(const Scene& scene) {
  // The 2D mode (Mutze, Polyspherical grains, §1 (i)): look along the plane's normal, at its front; the
  // view's fit on the scene's first frame keeps this direction.
  if (scene.model.settings.plane.enabled) viewport_->camera().lookAlong(-scene.model.settings.plane.normal);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasFormat(QString::fromLatin1(kTemplateMimeType))) {
    event->acceptProposedAction();  // where it may land is decided as it moves
    return;
  }
  // Any file: a scene, a trajectory or a mesh by its extension opens; any other is tried as a mesh
  // (Assimp knows formats by their contents) and otherwise says why not, never refused in silence.
  for (const QUrl& url : event->mimeData()->urls()) {
    if (url.isLocalFile()) {
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
  QTimer::singleShot(0, this, [this, path] { document_->openInBackground(path); });
}

}  // namespace clumplab::gui
