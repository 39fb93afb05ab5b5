#pragma once
// Movie recording in two timings. Deterministic: the simulation advances a fixed simulated time
// per video frame (1 / (fps x slow-motion factor)) and pauses; the view of that instant becomes the
// frame, so movies are smooth however slow the machine is. Real time: the view is grabbed at the
// frame rate while the simulation runs as it does, until stop().
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <cstdint>
#include <memory>

#include "gui/recording/MovieEncoder.hpp"
#include "gui/recording/RecordingHost.hpp"

namespace clumplab::gui {

struct RecordingPlan {
  MovieSettings movie;
  double duration = 5.0;       // simulated seconds to record (at slow motion 1: the movie's length)
  double slowMotion = 1.0;     // video seconds per simulated second
  bool statusOverlay = false;  // keep the status overlay in the frames
  QSize frameSize;             // pixels of each frame; empty: the 3D view's (what is on screen)
  // A plot drawn in the bottom left corner of each frame: the Energy panel's, or the body-frame
  // angular velocity of the Inspector's body (a free-rotation demo, where the energies are flat).
  enum class Plot { None, Energy, BodyOmega };
  Plot plot = Plot::None;
  bool realTime = false;  // grab the running view at the frame rate until stop()
  // In replay mode, deterministic timing: one video frame per trajectory frame (true), or one per
  // 1 / (fps x slow motion) of recorded time (the nearest frame), over the whole trajectory.
  bool everyReplayFrame = true;
};

class MovieRecorder : public QObject {
  Q_OBJECT
 public:
  // Records `host`'s view; `parent` (if any) owns the recorder.
  MovieRecorder(RecordingHost& host, RecordingPlan plan, QObject* parent = nullptr);
  ~MovieRecorder() override;

  // Starts with the frame on screen; "" or an error (nothing recorded).
  QString start();
  void cancel();
  // Ends a real-time recording (or a deterministic one early) keeping what was recorded.
  void stop();
  double elapsedSeconds() const;  // wall time since start
  bool recording() const { return active_; }
  int framesWanted() const { return framesWanted_; }
  bool realTime() const { return plan_.realTime; }
  int framesWritten() const;
  QSize frameSize() const { return encoder_ ? encoder_->frameSize() : QSize(); }
  qint64 bytesOnDisk() const;
  // The simulated (or replayed) times of the first and the last frame written [s].
  double firstFrameTime() const { return firstFrameTime_; }
  double lastFrameTime() const { return lastFrameTime_; }

 signals:
  // The movie is complete (error "") or abandoned (error names the file and the reason).
  void finished(const QString& error);

 private:
  void onFrame();
  // The movie frame of what the view shows now: the view as on screen, or rendered offscreen at
  // the plan's size; with the plot inset if asked.
  QImage grabFrame();
  void requestNext();
  // A replay (ReplayController) is recorded from its file: frame by frame, nothing is simulated.
  void startReplay();
  void requestReplayFrame();
  int replayFrameFor(int videoFrame) const;
  void end(const QString& error);
  // Writes `image`, a frame of the time `time` [s].
  QString addFrame(const QImage& image, double time);

  RecordingHost& host_;
  QMetaObject::Connection frames_;  // to the host's frames while a deterministic recording waits
  RecordingPlan plan_;
  class ReplayController* replay_ = nullptr;  // recording a replay
  std::unique_ptr<MovieEncoder> encoder_;
  int framesWanted_ = 0;
  double startTime_ = 0.0;
  std::uint64_t sceneGeneration_ = 0;  // of the frame the recording began on (a reset changes it)
  double target_ = 0.0;
  std::uint64_t ticket_ = 0;
  bool waiting_ = false;
  bool pausing_ = false;      // the pause asked for at start has not reached a frame yet
  bool resumeAtEnd_ = false;  // the run was running when the recording paused it: it runs on after
  double firstFrameTime_ = 0.0;
  double lastFrameTime_ = 0.0;
  bool holding_ = false;  // the simulation is held at target_ (SimulationLoop::holdAt) until end()
  bool active_ = false;
  bool statusWasVisible_ = true;
  QTimer* grabTimer_ = nullptr;
  QElapsedTimer clock_;
};

}  // namespace clumplab::gui
