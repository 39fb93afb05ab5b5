#include "resources/Resources.hpp"

#include <QtGlobal>
#include <mutex>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initClumplabShaders() {
  Q_INIT_RESOURCE(clumplab_shaders);
  Q_INIT_RESOURCE(clumplab_scenes);
  Q_INIT_RESOURCE(clumplab_meshes);
  Q_INIT_RESOURCE(clumplab_lessons);
  Q_INIT_RESOURCE(clumplab_icons);
}

namespace clumplab {

void initResources() {
  static std::once_flag once;
  std::call_once(once, [] { initClumplabShaders(); });
}

}  // namespace clumplab
