#pragma once
// Whether the user chose to close a mesh's holes (repair) when it was last used, remembered per file
// in the settings: the wizard starts from it when the mesh is chosen again (from Recent meshes or
// anywhere else), and opening or dropping the mesh on the window applies it.
#include <QString>

namespace clumplab::gui {

bool repairChosenFor(const QString& meshPath);
void rememberRepairChoice(const QString& meshPath, bool repair);

}  // namespace clumplab::gui
