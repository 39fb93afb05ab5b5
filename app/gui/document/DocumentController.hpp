#pragma once
// The window's document: the scene on show, where it came from and where Save writes, and PaLa's
// switches it was opened with (clumps as spheres, 2D / 3D). Opens files (scenes, meshes, a
// trajectory into replay mode), the default scene and an autosave restored after a crash; saves the
// live state; reopens the scene when a switch changes. A failure names the file and keeps the scene.
#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>

#include "core/scene/Scene.hpp"
#include "gui/document/DocumentHost.hpp"
#include "gui/document/DocumentLoader.hpp"

class QLabel;
class QMainWindow;
class QMenu;
class QWidget;

namespace clumplab::gui {

class BackgroundJob;
class RecentFiles;

class DocumentController : public QObject {
  Q_OBJECT
 public:
  // Opens and saves `host`'s documents; `window` holds the title and status and parents the dialogs
  // (both the main window in the app).
  DocumentController(DocumentHost& host, QMainWindow& window);

  // File → Open Recent lists the files opened and saved, in `menu`.
  void setRecentMenu(QMenu* menu);

  // Loads a scene or mesh (a trajectory opens in replay mode); on error shows a dialog (unless
  // `quiet`) naming the file and keeps the current scene. Returns the error ("" on success).
  QString open(const QString& path, bool quiet = false);
  // The same off the GUI thread, for what the user asks by hand (a drop, File → Open, Open Recent, a
  // repair): the window runs and repaints while a mesh is read and filled, the status bar says what is
  // being opened with a Cancel, and the scene on screen stays until the new one is ready. A second
  // request replaces the first; a failure is explained as open() does. A trajectory opens at once.
  void openInBackground(const QString& path);
  bool opening() const;        // a background open is pending or running
  int openingWorkers() const;  // its threads still running (a cancelled open's until it stops)
  void openDefault();
  // At start with no file named: the scene shown last time (a setting, on by default: see
  // reopenLastScene), else the default scene. A last scene that no longer opens gives the default
  // scene and a status-bar message.
  void openStartScene();
  static bool reopenLastScene();  // the setting ("document/reopenLastScene")
  static void setReopenLastScene(bool on);
  void openDialog();         // asks which file
  void openExampleDialog();  // asks which example scene (ExampleScenes.hpp)
  void reload();             // the scene's file again (the default scene if it has none)
  // Saves the live scene (atomic write); returns the error or "" (waits for the simulation thread).
  QString saveTo(const QString& path);
  void save();    // where it was opened or last saved; asks when there is no such file
  void saveAs();  // asks where
  // Opens an orphaned autosave as an unsaved scene: Save asks where, offering `source`.
  QString openRestored(const QString& autosavePath, const QString& source);
  // Reopens the scene with PaLa's switches `next`; on failure keeps the old ones and explains, with
  // `hint`, in a message box titled `title`. "" or the error.
  QString reopenWith(const SceneOverrides& next, const QString& title, const QString& hint);

  const SceneOverrides& overrides() const { return overrides_; }
  std::shared_ptr<const Scene> scene() const { return scene_; }
  const QString& scenePath() const { return scenePath_; }  // "" for the built-in default
  // The file's name for titles ("default scene" without one).
  QString displayName() const;

 signals:
  // A scene was opened: the window shows it (parameters, plots, the simulation thread).
  void opened(std::shared_ptr<const Scene> scene, const QString& path);
  // The switches or the scene they apply to changed: the menus' checks follow.
  void switchesChanged();
  // A mesh opened as a clump: what its import did (`notes`, maybe none), and whether repair would
  // close holes in it.
  void meshNotes(const QString& path, const QStringList& notes, bool holesToClose);

 private:
  void show(std::shared_ptr<const Scene> scene, const QString& path);
  // A resource limit a file went beyond (LimitError), and what it needs.
  struct OverLimit {
    QString limit;  // "pebbles", "fill-points", "triangles", "memory-mb"
    std::uint64_t needed = 0;
  };
  // What loading a scene or mesh file gave: the scene, or the error (and the limit it went beyond).
  struct Loaded {
    std::shared_ptr<const Scene> scene;
    QString error;
    std::optional<OverLimit> overLimit;
    bool holesToClose = false;  // a mesh opened with holes its repair would close
  };
  // Loads `path` with `overrides` (any thread: touches nothing of the controller); rethrows
  // OperationCancelled, turns every other failure into Loaded::error.
  static Loaded load(const QString& path, const SceneOverrides& overrides, bool repair,
                     const WorkProgress& progress);
  // PaLa's switches a file opens with: the user's, the 2D plane only for the document it was set for.
  SceneOverrides overridesFor(const QString& path) const;
  // Shows what load() gave (or explains its failure unless `quiet`); returns the error.
  QString install(const QString& path, const SceneOverrides& overrides, const Loaded& loaded, bool quiet);
  // The status bar's "Opening …" with its Cancel, while a background open runs.
  void createLoadingStatus();
  // The dialog for a file that did not open: the error, that the scene on screen stays, for a mesh
  // the clump wizard to study it in, and beyond a limit the limit raised in one click.
  void explainFailure(const QString& path, const QString& error, const std::optional<OverLimit>& overLimit);
  // What loading a scene file changed that the user should hear of (Scene::notes), in the status bar.
  void showNotes(const QStringList& notes);
  void setTitle(const QString& name, const QString& note = QString());

  DocumentHost& host_;
  QMainWindow& window_;
  RecentFiles* recent_ = nullptr;
  SceneOverrides overrides_;  // PaLa's switches as the user set them
  std::shared_ptr<const Scene> scene_;
  QString scenePath_;                 // where the scene came from ("" for the built-in default)
  QString savePath_;                  // where Save writes ("" until saved or opened from a JSON file)
  BackgroundJob* loading_ = nullptr;  // openInBackground's work
  QString loadingPath_;               // what it is opening
  QWidget* loadingStatus_ = nullptr;  // "Opening …" and Cancel, in the status bar
  QLabel* loadingLabel_ = nullptr;
};

}  // namespace clumplab::gui
