#pragma once
// The window's movie recording: the Record action opens the Record dialog and starts a
// MovieRecorder with its plan (or a PNG sequence when ffmpeg is missing, if the user agrees), the
// status bar shows its progress, and the action stays checked while it records. Also the
// File → Screenshot of the 3D view.
#include <QObject>

#include "gui/recording/MovieRecorder.hpp"

class QAction;
class QLabel;

class QMainWindow;

namespace clumplab::gui {

class RecordingController : public QObject {
  Q_OBJECT
 public:
  // `recordAction`: the checkable Record action (toggling it asks to start or stop); the status
  // label goes into the window's status bar.
  // Records `host`'s view; `window` holds the status and parents the dialogs (both are the main
  // window in the app).
  RecordingController(RecordingHost& host, QMainWindow& window, QAction* recordAction);

  // Starts recording with `plan`; when the format needs ffmpeg and there is none, says so and
  // offers a PNG sequence instead. False if nothing is recording.
  bool start(RecordingPlan plan);
  // Ends a recording in progress, keeping what it has.
  void stop();
  bool recording() const { return recorder_ != nullptr; }
  // The status bar's "● recording" text follows the recorder (each frame shown).
  void updateStatus();
  // Asks where, and saves the 3D view as a PNG image.
  void screenshot();

 private:
  void toggle(bool on);
  void setChecked(bool on);  // the action, without asking again

  RecordingHost& host_;
  QMainWindow& window_;
  QAction* recordAction_;
  QLabel* status_ = nullptr;
  MovieRecorder* recorder_ = nullptr;
};

}  // namespace clumplab::gui
