#include "gui/document/DocumentController.hpp"

#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <future>
#include <optional>

#include "core/base/Errors.hpp"
#include "core/base/ResourceLimits.hpp"
#include "core/scene/SceneOverlap.hpp"
#include "gui/document/Autosave.hpp"
#include "gui/document/DefaultScene.hpp"
#include "gui/document/ExampleScenes.hpp"
#include "gui/document/MeshRepairChoice.hpp"
#include "gui/document/RecentFiles.hpp"
#include "gui/jobs/BackgroundJob.hpp"
#include "gui/recording/RecordingController.hpp"
#include "gui/replay/ReplayController.hpp"
#include "gui/wizard/ClumpWizard.hpp"
#include "sim/SimulationLoop.hpp"

namespace clumplab::gui {

namespace {
const QString kLastSceneKey = QStringLiteral("document/lastScene");
const QString kReopenKey = QStringLiteral("document/reopenLastScene");
}  // namespace

DocumentController::DocumentController(DocumentHost& host, QMainWindow& window)
    : QObject(&window), host_(host), window_(window), loading_(new BackgroundJob(this)) {
  createLoadingStatus();
  // The work explains its own failures (install); a failure here is one it did not foresee.
  connect(loading_, &BackgroundJob::failedNow, this,
          [this](const QString& message) { explainFailure(loadingPath_, message, std::nullopt); });
}

void DocumentController::createLoadingStatus() {
  loadingStatus_ = new QWidget(&window_);
  auto* layout = new QHBoxLayout(loadingStatus_);
  layout->setContentsMargins(0, 0, 0, 0);
  loadingLabel_ = new QLabel(loadingStatus_);
  loadingLabel_->setObjectName(QStringLiteral("opening"));
  auto* cancel = new QPushButton(tr("Cancel"), loadingStatus_);
  cancel->setObjectName(QStringLiteral("cancel opening"));
  cancel->setToolTip(tr("Stop opening the file; the scene on screen stays"));
  layout->addWidget(loadingLabel_);
  layout->addWidget(cancel);
  window_.statusBar()->addPermanentWidget(loadingStatus_);
  loadingStatus_->hide();
  connect(cancel, &QPushButton::clicked, loading_, &BackgroundJob::cancel);
  connect(loading_, &BackgroundJob::busyChanged, loadingStatus_, &QWidget::setVisible);
  connect(loading_, &BackgroundJob::progress, this, [this](double fraction, const QString& stage) {
    const QString name = QFileInfo(loadingPath_).fileName();
    const int percent = static_cast<int>(100.0 * fraction);
    loadingLabel_->setText(percent > 0 ? tr("Opening %1: %2 (%3%)").arg(name, stage).arg(percent)
                                       : tr("Opening %1: %2").arg(name, stage));
  });
}

bool DocumentController::opening() const {
  return loading_->busy();
}

int DocumentController::openingWorkers() const {
  return loading_->workers();
}

void DocumentController::setRecentMenu(QMenu* menu) {
  recent_ = new RecentFiles(menu, this);
  connect(recent_, &RecentFiles::openRequested, this,
          [this](const QString& path) { openInBackground(path); });
}

QString DocumentController::displayName() const {
  return scenePath_.isEmpty() ? tr("default scene") : QFileInfo(scenePath_).fileName();
}

void DocumentController::setTitle(const QString& name, const QString& note) {
  window_.setWindowTitle(note.isEmpty() ? tr("%1 — ClumpLab").arg(name)
                                        : tr("%1 %2 — ClumpLab").arg(name, note));
}

void DocumentController::openDefault() {
  const SceneOverrides before = overrides_;
  if (!scenePath_.isEmpty()) overrides_.plane.reset();  // another document: its own motion
  try {
    show(defaultScene(overrides_), QString());
  } catch (const std::exception& e) {
    overrides_ = before;
    QMessageBox::critical(&window_, tr("Default scene"), QString::fromStdString(e.what()));
  }
}

DocumentController::Loaded DocumentController::load(const QString& path, const SceneOverrides& overrides,
                                                    bool repair, const WorkProgress& progress) {
  Loaded loaded;
  try {
    loaded.scene = loadDocument(path.toStdString(), overrides, repair, &loaded.holesToClose, progress);
  } catch (const OperationCancelled&) {
    throw;
  } catch (const std::exception& e) {
    loaded.error = QString::fromStdString(e.what());
    if (const auto* limit = dynamic_cast<const LimitError*>(&e))
      loaded.overLimit = OverLimit{QString::fromStdString(limit->limit()), limit->needed()};
  }
  return loaded;
}

SceneOverrides DocumentController::overridesFor(const QString& path) const {
  SceneOverrides overrides = overrides_;
  if (path != scenePath_) overrides.plane.reset();  // another document: its own motion
  return overrides;
}

QString DocumentController::open(const QString& path, bool quiet) {
  loading_->cancel();  // what is asked now replaces what was asked before
  // A movie being recorded ends, complete with what it has: what it shows is about to change.
  host_.recordingController()->stop();
  if (isTrajectoryFile(path.toStdString())) {
    const QString error = host_.replay()->open(path);
    if (!error.isEmpty()) {
      if (!quiet) explainFailure(path, error, std::nullopt);
      return error;
    }
    recent_->add(path);
    return QString();
  }
  const SceneOverrides overrides = overridesFor(path);
  QApplication::setOverrideCursor(Qt::WaitCursor);
  const Loaded loaded = load(path, overrides, repairChosenFor(path), {});
  QApplication::restoreOverrideCursor();
  return install(path, overrides, loaded, quiet);
}

void DocumentController::openInBackground(const QString& path) {
  if (isTrajectoryFile(path.toStdString())) {
    open(path);
    return;
  }
  host_.recordingController()->stop();
  const SceneOverrides overrides = overridesFor(path);
  const bool repair = repairChosenFor(path);
  loadingPath_ = path;
  loadingLabel_->setText(tr("Opening %1").arg(QFileInfo(path).fileName()));
  loading_->start([this, path, overrides, repair](const WorkProgress& progress) -> std::function<void()> {
    const Loaded loaded = load(path, overrides, repair, progress);
    return [this, path, overrides, loaded] { install(path, overrides, loaded, false); };
  });
}

QString DocumentController::install(const QString& path, const SceneOverrides& overrides,
                                    const Loaded& loaded, bool quiet) {
  if (!loaded.error.isEmpty()) {
    if (!quiet) explainFailure(path, loaded.error, loaded.overLimit);
    return loaded.error;
  }
  overrides_ = overrides;
  show(loaded.scene, path);
  recent_->add(path);
  QStringList notes;
  for (const std::string& note : loaded.scene->notes) notes << QString::fromStdString(note);
  if (!isSceneFile(path.toStdString())) {
    emit meshNotes(path, notes, loaded.holesToClose);  // a mesh: its notes with their actions
  } else if (!notes.isEmpty()) {
    showNotes(notes);
  }
  return QString();
}

void DocumentController::showNotes(const QStringList& notes) {
  // One line in the status bar, the first note; all of them in its tooltip.
  QString headline = notes.front();
  if (notes.size() > 1)
    headline += tr(" (%n more: point here to read them)", nullptr, static_cast<int>(notes.size() - 1));
  window_.statusBar()->setToolTip(notes.join(QLatin1Char('\n')));
  window_.statusBar()->showMessage(headline, 30000);
}

void DocumentController::explainFailure(const QString& path, const QString& error,
                                        const std::optional<OverLimit>& overLimit) {
  QMessageBox box(QMessageBox::Critical, tr("Cannot open %1").arg(QFileInfo(path).fileName()),
                  tr("%1\n\nThe scene on screen is unchanged.").arg(error), QMessageBox::Ok, &window_);
  // Beyond a resource limit (there to stop a typo from filling the memory): raised for this session
  // in one click, on the user's word. Twice what the file was found to need, as a file read in part
  // may need more than was counted.
  QPushButton* raise = nullptr;
  std::uint64_t raisedTo = 0;
  if (overLimit) {
    raisedTo = 2 * overLimit->needed;
    raise = box.addButton(tr("Raise the limit to %1 %2 and open")
                              .arg(raisedTo)
                              .arg(overLimit->limit == "memory-mb" ? tr("MiB") : overLimit->limit),
                          QMessageBox::AcceptRole);
  }
  // A mesh that does not open as a clump may still be studied in the wizard, which shows the mesh
  // and what was wrong with it.
  QPushButton* wizard = nullptr;
  if (isMeshFile(path.toStdString()))
    wizard = box.addButton(tr("Open in the clump wizard"), QMessageBox::ActionRole);
  box.exec();
  if (raise != nullptr && box.clickedButton() == raise) {
    setResourceLimits(raised(resourceLimits(), overLimit->limit.toStdString(), raisedTo));
    openInBackground(path);
    return;
  }
  if (wizard != nullptr && box.clickedButton() == wizard) host_.openClumpWizard()->setMeshFile(path);
}

void DocumentController::show(std::shared_ptr<const Scene> scene, const QString& path) {
  scene_ = scene;
  scenePath_ = path;
  // What the next start reopens: the user's file, or the default scene (a lesson's working copy
  // is not the user's file: the scene before it stays the one to reopen).
  if (!RecentFiles::isWorkingCopy(path))
    QSettings().setValue(kLastSceneKey, path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath());
  savePath_ = isSceneFile(path.toStdString()) ? path : QString();
  emit opened(scene, path);
  emit switchesChanged();
  setTitle(displayName());
}

bool DocumentController::reopenLastScene() {
  return QSettings().value(kReopenKey, true).toBool();
}

void DocumentController::setReopenLastScene(bool on) {
  QSettings().setValue(kReopenKey, on);
}

void DocumentController::openStartScene() {
  const QString last = QSettings().value(kLastSceneKey).toString();
  if (!reopenLastScene() || last.isEmpty()) {
    openDefault();
    return;
  }
  const QString error = open(last, true);
  if (error.isEmpty()) return;
  openDefault();
  window_.statusBar()->showMessage(tr("The last scene did not open: %1").arg(error), 15000);
}

void DocumentController::openDialog() {
  const QString path =
      QFileDialog::getOpenFileName(&window_, tr("Open a scene or a mesh"), QFileInfo(scenePath_).path(),
                                   QString::fromStdString(openFileFilter()));
  if (!path.isEmpty()) openInBackground(path);
}

void DocumentController::openExampleDialog() {
  const QString folder = exampleScenesFolder();
  if (folder.isEmpty()) {
    QMessageBox::information(
        &window_, tr("Example scenes"),
        tr("No example scenes found. Looked in:\n%1").arg(exampleScenesCandidates().join(QLatin1Char('\n'))));
    return;
  }
  const QString path =
      QFileDialog::getOpenFileName(&window_, tr("Open an example scene"), folder, tr("Scenes (*.json)"));
  if (!path.isEmpty()) openInBackground(path);
}

void DocumentController::reload() {
  if (scenePath_.isEmpty()) {
    openDefault();
  } else {
    open(scenePath_);
  }
}

QString DocumentController::saveTo(const QString& path) {
  auto done = std::make_shared<std::promise<std::string>>();
  std::future<std::string> result = done->get_future();
  host_.simulation().saveScene(path.toStdString(),
                               [done](const std::string& error) { done->set_value(error); });
  const QString error = QString::fromStdString(result.get());
  if (error.isEmpty()) {
    savePath_ = path;
    recent_->add(path);
    setTitle(QFileInfo(path).fileName());
  }
  return error;
}

QString DocumentController::openRestored(const QString& autosavePath, const QString& source) {
  const QString error = open(autosavePath, true);
  if (!error.isEmpty()) return error;
  scenePath_ = source;
  savePath_.clear();              // the autosave is removed once restored: Save must ask where
  recent_->remove(autosavePath);  // and it is no file to reopen
  host_.autosave().setSource(source);
  setTitle(source.isEmpty() ? tr("scene") : QFileInfo(source).fileName(), tr("(restored, not saved)"));
  window_.statusBar()->showMessage(
      tr("Restored the scene autosaved before ClumpLab last closed unexpectedly. Save it "
         "to keep it."));
  return QString();
}

void DocumentController::save() {
  if (savePath_.isEmpty()) {
    saveAs();
    return;
  }
  const QString error = saveTo(savePath_);
  if (!error.isEmpty()) {
    QMessageBox::critical(&window_, tr("Save failed"), error);
  } else {
    window_.statusBar()->showMessage(tr("Saved %1").arg(savePath_), 4000);
  }
}

void DocumentController::saveAs() {
  const QString path =
      QFileDialog::getSaveFileName(&window_, tr("Save the scene"),
                                   !savePath_.isEmpty()                    ? savePath_
                                   : isSceneFile(scenePath_.toStdString()) ? scenePath_
                                                                           : QStringLiteral("scene.json"),
                                   tr("Scenes (*.json)"));
  if (path.isEmpty()) return;
  const QString error = saveTo(path);
  if (!error.isEmpty()) {
    QMessageBox::critical(&window_, tr("Save failed"), error);
  } else {
    window_.statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
  }
}

QString DocumentController::reopenWith(const SceneOverrides& next, const QString& title,
                                       const QString& hint) {
  const SceneOverrides before = overrides_;
  overrides_ = next;
  QString error;
  if (scenePath_.isEmpty()) {
    try {
      show(defaultScene(overrides_), QString());
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
  } else {
    error = open(scenePath_, true);
  }
  if (!error.isEmpty()) {
    overrides_ = before;  // the scene on screen is still the one before
    QMessageBox::warning(&window_, title, tr("%1\n\n%2 The scene is unchanged.").arg(error, hint));
  } else if (scene_) {
    QStringList notes;
    for (const std::string& note : scene_->notes) notes << QString::fromStdString(note);
    if (const double overlap = worstInitialOverlap(*scene_); overlap > 0.0) {
      notes
          << tr("Bodies overlap by up to %1% of a pebble radius at the start: the contacts push them apart.")
                 .arg(100.0 * overlap, 0, 'f', 0);
    }
    if (!notes.isEmpty()) window_.statusBar()->showMessage(notes.join(QLatin1Char(' ')), 12000);
  }
  emit switchesChanged();
  return error;
}

}  // namespace clumplab::gui
