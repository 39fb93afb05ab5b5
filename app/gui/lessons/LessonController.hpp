#pragma once
// Opening and closing lessons in the window: a lesson's scene, view, speed, plot and panels, its
// camera once its scene is on screen, and, on closing, what the lessons changed put back as it was
// before the first of them opened (the settings saved meanwhile are those too).
#include <QObject>
#include <QString>
#include <optional>

#include "gui/lessons/LessonHost.hpp"
#include "render/ViewOptions.hpp"

namespace clumplab::sim {
struct SimulationFrame;
}

class QWidget;

namespace clumplab::gui {

class LessonController : public QObject {
  Q_OBJECT
 public:
  // What lessons change, as it was before the first one opened.
  struct Before {
    double speed = 1.0;
    bool asFast = false;
    render::ViewOptions view;
    int plot = 0;  // EnergyPlotDock::View
    bool inspectorVisible = false;
    bool dzhanibekovVisible = false;
  };

  // Arranges `host` for lessons; `window` parents the messages (both are the main window in the app).
  LessonController(LessonHost& host, QWidget& window);

  // Opens lesson `index` of the lesson panel; "" or the error (the running scene stays then).
  // `run`: the scene starts running.
  QString open(int index, bool run);
  // Back to the lesson list, the scene as it is, the rest as before the first lesson.
  void close();
  // The lesson `which` names (number from 1, file name with or without number and ".json", or
  // title, ignoring case); -1 when none does.
  int find(const QString& which) const;
  // A lesson's scene is being opened (a document opened otherwise closes the lesson).
  bool opening() const { return opening_; }
  const std::optional<Before>& before() const { return before_; }
  // Turns the camera as the open lesson asks, once `frame` shows its scene (then never again).
  void applyCamera(const sim::SimulationFrame& frame);

 private:
  LessonHost& host_;
  QWidget& window_;
  bool opening_ = false;
  std::optional<Before> before_;
  QString camera_;                  // the open lesson's camera, applied on its scene's first frame
  std::uint64_t cameraTicket_ = 0;  // the command that loads the lesson's scene
};

}  // namespace clumplab::gui
