#pragma once
// Autosave of the open scene: every `interval` seconds the running world is written, as a
// scene file, to this session's file in the autosave folder, atomically (a crash mid-write leaves the
// previous autosave). A lock file (QLockFile, holding the process id) marks the session alive; a
// clean exit removes both. An autosave whose lock is stale belongs to a session that crashed: the
// app offers to restore it at the next start (main.cpp).
#include <QDateTime>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gui/jobs/GuiThreadMailbox.hpp"

namespace clumplab::gui {

class Autosave : public QObject {
  Q_OBJECT
 public:
  // Writes the open scene to `path` (on the simulation thread) and calls `done` with "" or an error.
  using SaveFunction =
      std::function<void(const std::string& path, std::function<void(const std::string&)> done)>;

  // Creates the folder and this session's lock. `intervalSeconds` 0 disables the timer.
  Autosave(QString folder, SaveFunction save, int intervalSeconds, QObject* parent = nullptr);
  ~Autosave() override;  // a clean exit: this session's autosave and lock are removed
  Autosave(const Autosave&) = delete;
  Autosave& operator=(const Autosave&) = delete;

  void setIntervalSeconds(int seconds);
  // The file the open scene came from ("" for the default scene or a mesh), shown in the offer.
  void setSource(const QString& scenePath);
  void saveNow();
  QString path() const { return path_; }
  bool active() const { return lock_ != nullptr; }

  struct Orphan {
    QString path;    // the autosaved scene
    QString source;  // the scene it was of, or ""
    QDateTime saved;
  };
  // Autosaves of sessions that did not end cleanly, newest first.
  static std::vector<Orphan> orphans(const QString& folder);
  // Removes an orphan's files (after restoring it, or when the user declines).
  static void discard(const Orphan& orphan);
  // CLUMPLAB_AUTOSAVE_DIR, or the app's data folder + "/autosave".
  static QString defaultFolder();
  // CLUMPLAB_AUTOSAVE_SECONDS (0 disables), or 60.
  static int defaultIntervalSeconds();

 signals:
  void saved(const QString& path);
  void failed(const QString& error);

 private:
  QString folder_, path_;
  SaveFunction save_;
  std::unique_ptr<QLockFile> lock_;
  QTimer timer_;
  bool saving_ = false;
  GuiThreadMailbox* mailbox_ =
      GuiThreadMailbox::application();  // the save's outcome, from the simulation thread
};

}  // namespace clumplab::gui
