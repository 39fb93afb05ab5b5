#pragma once
// What a trajectory replay needs of the window it is shown in, and nothing more (MainWindow
// implements it): the live run it holds back, the frame the live run shows, the view and the
// Inspector it fills, and the live controls it turns off while it is on show.
namespace clumplab::sim {
struct SimulationFrame;
}  // namespace clumplab::sim

namespace clumplab::gui {

class InspectorDock;
class Viewport;

class ReplayHost {
 public:
  virtual bool running() const = 0;
  virtual void setRunning(bool running) = 0;
  // The newest live frame shown (null before the first).
  virtual const sim::SimulationFrame* currentFrame() const = 0;
  virtual Viewport* viewport() const = 0;
  virtual InspectorDock* inspectorDock() const = 0;
  // Off while a replay is shown: what would act on the live scene (run, step, edit, spawn).
  virtual void setLiveControlsEnabled(bool on) = 0;

 protected:
  ~ReplayHost() = default;
};

}  // namespace clumplab::gui
