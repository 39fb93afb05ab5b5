#include "core/base/Version.hpp"

namespace clumplab {

const char* clumplabVersion() {
  return CLUMPLAB_VERSION;
}

const char* clumplabRevision() {
  return
#include "Revision.inc"
      ;
}

std::string versionLine() {
  return std::string("ClumpLab ") + clumplabVersion() + " (revision " + clumplabRevision() + ")";
}

}  // namespace clumplab
