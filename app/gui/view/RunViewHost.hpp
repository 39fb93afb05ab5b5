#pragma once
// What every controller that acts on the live run asks of the window first (MainWindow implements
// it): the run, the newest frame on show, the 3D view. RecordingHost and SpawnHost extend it.
namespace clumplab::sim {
class SimulationLoop;
struct SimulationFrame;
}  // namespace clumplab::sim

namespace clumplab::gui {

class Viewport;

class RunViewHost {
 public:
  virtual sim::SimulationLoop& simulation() = 0;
  // The newest simulation frame shown (null before the first).
  virtual const sim::SimulationFrame* currentFrame() const = 0;
  virtual Viewport* viewport() const = 0;

 protected:
  ~RunViewHost() = default;
};

}  // namespace clumplab::gui
