#pragma once
// Scripted runs for docs, demos and tests: `clumplab --scene F --run-for SECONDS --screenshot
// out.png --size 1280x720 --quit` runs the scene for a simulated time, saves the 3D view, and quits.
#include <QElapsedTimer>
#include <QObject>
#include <QSize>
#include <QString>
#include <QTimer>
#include <cstdint>
#include <vector>

#include "gui/document/ScriptHost.hpp"

namespace clumplab::sim {
struct SimulationFrame;
}

class QWidget;

namespace clumplab::gui {

struct ScriptOptions {
  double runFor = -1.0;      // simulated seconds; < 0: no scripted run
  QString screenshot;        // PNG path ("" for none)
  QString windowScreenshot;  // PNG of the whole window, docks and plots included ("" for none)
  QSize size;                // size of the 3D view (invalid: as laid out)
  bool quit = false;         // quit when done
  bool report = false;       // print a JSON summary (throughput with the window open, frame rate)
  QString record;            // a movie to record deterministically (.mp4, .webm, .gif, or a PNG folder)
  double duration = 5.0;     // simulated seconds to record
  int framesPerSecond = 30;  // of the movie
  double slowMotion = 1.0;   // video seconds per simulated second
  bool plotInset = false;    // the energy plot in the movie's frames,
  bool plotOmega = false;    // or the selected body's body-frame omega
  // Recording a replay: a video frame per trajectory frame (else per 1 / (fps x slow motion)).
  bool everyReplayFrame = true;
  // --paused: a run for a set time waits for the user's Run (main starts such runs paused, and
  // ScriptedRun starts them at the scene's first frame unless this is set).
  bool startPaused = false;

  bool active() const {
    return runFor >= 0.0 || !screenshot.isEmpty() || !windowScreenshot.isEmpty() || quit || report ||
           !record.isEmpty();
  }
  // A run that automates the app: it reads and writes no settings (PrivateSettings.hpp).
  bool scripted() const {
    return quit || report || !record.isEmpty() || !screenshot.isEmpty() || !windowScreenshot.isEmpty();
  }
};

class ScriptedRun : public QObject {
  Q_OBJECT
 public:
  // Drives `host`; `window` is what the whole-window screenshot grabs and a finished run closes
  // (both the main window in the app).
  ScriptedRun(ScriptHost& host, QWidget& window, const ScriptOptions& options);
  // Exit status when the run ends: 0, or 1 if the screenshot could not be written.
  int exitCode() const { return exitCode_; }

 private:
  void onFrame();
  void finish();
  void printReport(const sim::SimulationFrame& frame) const;
  void startRecording();
  class MovieRecorder* recorder_ = nullptr;

  ScriptHost& host_;
  QWidget& window_;
  ScriptOptions options_;
  double endTime_ = -1.0;  // [s] the scene's time at its first frame + runFor
  bool finishing_ = false;
  bool started_ = false;
  std::uint64_t startSteps_ = 0;
  qint64 startNs_ = 0;
  qint64 endNs_ = 0;
  std::uint64_t endSteps_ = 0;
  int paints_ = 0;
  std::uint64_t startPaints_ = 0;
  QElapsedTimer clock_;
  // Event-loop latency: a timer due every kProbeMs; how late each firing came [ms].
  static constexpr int kProbeMs = 20;
  QTimer* probe_ = nullptr;
  QElapsedTimer probeClock_;
  std::vector<double> lateness_;
  int exitCode_ = 0;
};

}  // namespace clumplab::gui
