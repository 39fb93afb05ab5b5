#pragma once
// What a scripted run (--run-for, --screenshot, --record, --report) needs of the window it drives,
// and nothing more (MainWindow implements it): what a movie recording needs (RecordingHost: the run,
// the frames it waits for, the view it grabs), and the lesson list and a way to show the newest
// frame at once.
#include "gui/recording/RecordingHost.hpp"

namespace clumplab::gui {

class LessonDock;

class ScriptHost : public virtual RecordingHost {
 public:
  // Pulls the newest simulation frame and shows it now.
  virtual void tick() = 0;
  virtual LessonDock* lessonDock() const = 0;

 protected:
  ~ScriptHost() = default;
};

}  // namespace clumplab::gui
