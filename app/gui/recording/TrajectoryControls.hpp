#pragma once
// The window's side of trajectory recording: the "Record trajectory…" action (a toggle: the
// dialog, then recording until pressed again), the recording's frames and size in the status bar,
// and how it ended (saved, or why not, naming the file). The simulation thread writes the file.
#include <QObject>
#include <QString>
#include <cstdint>

#include "gui/recording/RecordingHost.hpp"
#include "sim/TrajectoryRecording.hpp"

class QAction;
class QLabel;

namespace clumplab::sim {
struct SimulationFrame;
}

class QMainWindow;

namespace clumplab::gui {

class TrajectoryControls : public QObject {
  Q_OBJECT
 public:
  // Records the run of `host`; `window` holds the status and parents the dialogs.
  TrajectoryControls(RecordingHost& host, QMainWindow& window);
  QAction* action() const { return action_; }
  // Starts recording without asking (tests and scripts); the dialog's choices otherwise.
  void start(const sim::TrajectoryPlan& plan);
  void stop();
  // Follows the simulation's frames (the window calls it for each one it shows).
  void show(const sim::SimulationFrame& frame);
  bool recording() const { return recording_; }

 signals:
  // A recording ended: the file is complete (problem "") or why it is not.
  void finished(const QString& path, const QString& problem);

 private:
  void toggled(bool on);
  void showChecked(bool on);

  RecordingHost& host_;
  QMainWindow& window_;
  QAction* action_ = nullptr;
  QLabel* status_ = nullptr;
  bool recording_ = false;
  std::uint64_t ticket_ = 0;        // commands posted when recording was last started or stopped
  std::uint64_t finishedSeen_ = 0;  // recordings ended that were reported
};

}  // namespace clumplab::gui
