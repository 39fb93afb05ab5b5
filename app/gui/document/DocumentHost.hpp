#pragma once
// What opening and saving documents needs of the window, beyond its title, status bar and dialogs
// (a QMainWindow), and nothing more (MainWindow implements it): the run that saves the scene, the
// autosave that follows the document, a recording to end and a replay to open, the clump wizard
// that takes a mesh.
namespace clumplab::sim {
class SimulationLoop;
}  // namespace clumplab::sim

namespace clumplab::gui {

class Autosave;
class ClumpWizard;
class RecordingController;
class ReplayController;

class DocumentHost {
 public:
  virtual sim::SimulationLoop& simulation() = 0;
  virtual Autosave& autosave() = 0;
  virtual RecordingController* recordingController() const = 0;
  virtual ReplayController* replay() const = 0;
  // The clump wizard, opened (or raised) in the window.
  virtual ClumpWizard* openClumpWizard() = 0;

 protected:
  ~DocumentHost() = default;
};

}  // namespace clumplab::gui
