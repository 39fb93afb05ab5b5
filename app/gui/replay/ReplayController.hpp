#pragma once
// Replay mode: a trajectory file shown in the 3D view with its timeline, while the live simulation
// waits paused behind it. Entering keeps the live scene, its run state and its camera; leaving
// (the timeline's button or Esc) brings all three back as they were. The view's camera is free
// during the replay (every camera control works; body drags are off). Playback follows the
// recorded time at a chosen speed; frame steps, seeks, loop. Movies of a replay are recorded frame
// by frame from the file (MovieRecorder asks showFrame()).
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QTimer>
#include <memory>

#include "gui/replay/ReplayDocument.hpp"
#include "gui/replay/ReplayHost.hpp"
#include "gui/view/Viewport.hpp"
#include "sim/SimulationLoop.hpp"

class QAction;
class QMainWindow;

namespace clumplab::gui {

class TimelineBar;

class ReplayController : public QObject {
  Q_OBJECT
 public:
  // Puts the timeline under `window`'s central widget (hidden until a replay opens) and its keys on
  // the window; `host` is the live side the replay stands in for (both the main window in the app).
  ReplayController(ReplayHost& host, QMainWindow& window);
  ~ReplayController() override;

  // Reads the trajectory and shows its first frame (entering replay mode); "" or the error
  // naming the file (nothing changes then).
  QString open(const QString& path);
  // Back to the live scene as it was.
  void leave();
  bool active() const { return active_; }
  const ReplayDocument* document() const { return document_.get(); }

  // Frame k (clamped) in the view; playback goes on from there.
  void showFrame(int k);
  int currentFrame() const { return current_; }
  // Pauses and moves by `frames`.
  void step(int frames);
  void setPlaying(bool playing);
  bool playing() const { return playTimer_.isActive(); }
  void setSpeed(double speed);  // recorded seconds per wall second
  double speed() const { return speed_; }
  void setLoop(bool on);
  // The frame the view shows (its snapshot holds the file's poses).
  const sim::SimulationFrame& frame() const { return frame_; }
  TimelineBar* timeline() const { return timeline_; }

 signals:
  void activeChanged(bool active);
  void frameChanged(int frame);

 private:
  void enter();
  void display(int k);  // frame k in the view, without touching the playback clock
  void advancePlayback();
  void changeSpeed(int direction);
  void updateStatusLines();
  void addAction(const QString& text, const QList<QKeySequence>& keys, void (*run)(ReplayController&));

  ReplayHost& host_;
  QMainWindow& window_;
  TimelineBar* timeline_ = nullptr;
  std::unique_ptr<ReplayDocument> document_;
  sim::SimulationFrame frame_;
  int current_ = -1;
  bool active_ = false;
  bool liveWasRunning_ = false;
  Viewport::ViewState liveView_;
  int liveSelection_ = -1;
  QTimer playTimer_;
  QElapsedTimer playClock_;
  double playTime_ = 0.0;  // recorded time the playback has reached [s]
  double speed_ = 1.0;
  bool loop_ = false;
  std::uint64_t generation_ = 0;        // replay frames' load generation (apart from live ones)
  std::uint64_t layoutGeneration_ = 0;  // and layout generation
  QList<QAction*> actions_;             // enabled only while replaying
};

}  // namespace clumplab::gui
