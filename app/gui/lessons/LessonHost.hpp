#pragma once
// What a lesson needs of the window it arranges, and nothing more (MainWindow implements it): the
// run and its speed, the document it opens, the view, and the panels a lesson shows or hides.
#include <QString>
#include <memory>

namespace clumplab {
struct Scene;
}  // namespace clumplab

namespace clumplab::sim {
class SimulationLoop;
}  // namespace clumplab::sim

namespace clumplab::gui {

class DzhanibekovDock;
class EnergyPlotDock;
class InspectorDock;
class LessonDock;
class Viewport;

class LessonHost {
 public:
  virtual sim::SimulationLoop& simulation() = 0;
  virtual void setRunning(bool running) = 0;
  virtual double speed() const = 0;  // simulated seconds per wall second
  virtual bool asFastAsPossible() const = 0;
  virtual void setSpeed(double speed, bool asFastAsPossible) = 0;
  // Opens a scene file; "" or the error (the current scene stays then).
  virtual QString openDocument(const QString& path, bool quiet) = 0;
  // The scene opened, as loaded (null before the first).
  virtual std::shared_ptr<const Scene> scene() const = 0;
  virtual Viewport* viewport() const = 0;
  // The toolbar's view toggles follow the view's options (after they were set).
  virtual void showViewOptions() = 0;
  virtual LessonDock* lessonDock() const = 0;
  virtual EnergyPlotDock* energyDock() const = 0;
  virtual InspectorDock* inspectorDock() const = 0;
  virtual DzhanibekovDock* dzhanibekovDock() const = 0;
  // The Dzhanibekov panel shown for body `body`.
  virtual void openDzhanibekovPanel(int body) = 0;

 protected:
  ~LessonHost() = default;
};

}  // namespace clumplab::gui
