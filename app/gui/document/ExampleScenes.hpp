#pragma once
// Where the example scenes are: beside an installed clumplab (PREFIX/share/clumplab/scenes, from
// the executable's folder PREFIX/bin), or the source tree's resources/scenes for a clumplab run
// from its build tree. CLUMPLAB_EXAMPLES (a folder) comes first when set.
#include <QString>
#include <QStringList>

namespace clumplab::gui {

// The first of those folders that exists; empty if none does.
QString exampleScenesFolder();
// The folders looked at, in order (for the message when none exists).
QStringList exampleScenesCandidates();
// What `clumplab --examples` prints: the folder, then each scene file with its description.
QString exampleScenesListing();

}  // namespace clumplab::gui
