#pragma once
// ClumpLab's version (the project's, CMakeLists.txt) and the git revision it was built from
// (`git describe --always --dirty`; "unknown" outside a git checkout). Link core_version.
#include <string>

namespace clumplab {

const char* clumplabVersion();   // "0.1.0"
const char* clumplabRevision();  // "2ae26b6f1c3d", "2ae26b6f1c3d-dirty", or "unknown"
// "ClumpLab 0.1.0 (revision 2ae26b6f1c3d)", what --version prints after the program's name.
std::string versionLine();

}  // namespace clumplab
