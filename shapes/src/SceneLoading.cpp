#include "shapes/SceneLoading.hpp"

#include "shapes/MeshTemplateBuilder.hpp"
#include "shapes/WallMeshReader.hpp"

namespace clumplab::shapes {

SceneLoadOptions sceneLoadOptions(const SceneOverrides& overrides) {
  SceneLoadOptions options;
  static_cast<SceneOverrides&>(options) = overrides;
  options.meshTemplates = meshTemplateBuilder();
  options.wallMeshes = wallMeshReader();
  return options;
}

}  // namespace clumplab::shapes
