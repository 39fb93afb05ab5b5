#pragma once
// What a movie recording needs of the window whose view it records, and nothing more (MainWindow
// implements it): the run it pauses and drives, the frame on show, a replay on show, the 3D view it
// grabs, the plots it insets. After Avogadro's plugins, which get the document, never the main window.
#include <QImage>
#include <QMetaObject>
#include <QObject>
#include <QSize>
#include <functional>

#include "gui/view/RunViewHost.hpp"

namespace clumplab::gui {

class ReplayController;

// The run, the frame on show and the view (RunViewHost), and:
class RecordingHost : public virtual RunViewHost {
 public:
  // The trajectory replay (active() while one is on show).
  virtual ReplayController* replay() const = 0;
  virtual bool running() const = 0;
  virtual void setRunning(bool running) = 0;
  // The Energy panel's plot, and the Inspector's body-frame angular velocity, drawn at `size`.
  virtual QImage energyPlotImage(QSize size) const = 0;
  virtual QImage bodyOmegaPlotImage(QSize size) const = 0;
  // Calls `onFrame` (in `receiver`'s thread) each time a simulation frame has been shown.
  virtual QMetaObject::Connection connectFrameShown(QObject* receiver, std::function<void()> onFrame) = 0;

 protected:
  ~RecordingHost() = default;
};

}  // namespace clumplab::gui
