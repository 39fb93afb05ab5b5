#pragma once
// What a scripted run (--run-for, --screenshot, --record, --report) needs of the window it drives,
// and nothing more (MainWindow implements it): the run, the frames it waits for, the view it grabs
// and measures, the lesson list, and the window as a movie's RecordingHost.
#include <QMetaObject>
#include <QObject>
#include <functional>

namespace clumplab::sim {
class SimulationLoop;
struct SimulationFrame;
}  // namespace clumplab::sim

namespace clumplab::gui {

class LessonDock;
class RecordingHost;
class Viewport;

class ScriptHost {
 public:
  virtual sim::SimulationLoop& simulation() = 0;
  virtual void setRunning(bool running) = 0;
  // The newest simulation frame shown (null before the first), and the newest pulled and shown now.
  virtual const sim::SimulationFrame* currentFrame() const = 0;
  virtual void tick() = 0;
  // Calls `onFrame` (in `receiver`'s thread) each time a simulation frame has been shown.
  virtual QMetaObject::Connection connectFrameShown(QObject* receiver, std::function<void()> onFrame) = 0;
  virtual Viewport* viewport() const = 0;
  virtual LessonDock* lessonDock() const = 0;
  // The same window as a movie recording sees it.
  virtual RecordingHost& recordingHost() = 0;

 protected:
  ~ScriptHost() = default;
};

}  // namespace clumplab::gui
