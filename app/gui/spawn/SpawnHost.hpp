#pragma once
// What adding and removing bodies by hand needs of the window, and nothing more (MainWindow
// implements it): the run, the frame on show (its templates and body numbering), the 3D view (the
// point under the cursor, the camera, the selection), the template library, and a spawn that the
// undo stack can take back.
#include <QString>
#include <optional>
#include <vector>

#include "core/clump/ClumpTemplate.hpp"
#include "core/world/BodyInit.hpp"

namespace clumplab::sim {
class SimulationLoop;
struct SimulationFrame;
}  // namespace clumplab::sim

namespace clumplab::gui {

class TemplateLibraryDock;
class Viewport;

class SpawnHost {
 public:
  virtual sim::SimulationLoop& simulation() = 0;
  // The newest simulation frame shown (null before the first).
  virtual const sim::SimulationFrame* currentFrame() const = 0;
  virtual Viewport* viewport() const = 0;
  virtual TemplateLibraryDock* templateLibrary() const = 0;
  // Adds `bodies` (with `newTemplate` first, when not null) as one undoable step named `what`; a
  // shot body aims at `aimedAt`.
  virtual void spawnUndoable(std::vector<BodyInit> bodies, TemplatePtr newTemplate,
                             std::optional<Vec3> aimedAt, const QString& what) = 0;

 protected:
  ~SpawnHost() = default;
};

}  // namespace clumplab::gui
