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
#include "gui/view/RunViewHost.hpp"

namespace clumplab::gui {

class TemplateLibraryDock;

// The run, the frame on show and the view (RunViewHost), and:
class SpawnHost : public virtual RunViewHost {
 public:
  virtual TemplateLibraryDock* templateLibrary() const = 0;
  // Adds `bodies` (with `newTemplate` first, when not null) as one undoable step named `what`; a
  // shot body aims at `aimedAt`.
  virtual void spawnUndoable(std::vector<BodyInit> bodies, TemplatePtr newTemplate,
                             std::optional<Vec3> aimedAt, const QString& what) = 0;

 protected:
  ~SpawnHost() = default;
};

}  // namespace clumplab::gui
