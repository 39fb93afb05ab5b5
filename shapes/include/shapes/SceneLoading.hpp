#pragma once
// Scene loading with the shapes library's hooks filled in: templates that name a mesh are built
// by meshTemplateBuilder() and mesh walls read by wallMeshReader(). What the app, clumplab-cli and
// the tests load scenes with.
#include "core/scene/Scene.hpp"

namespace clumplab::shapes {

SceneLoadOptions sceneLoadOptions(const SceneOverrides& overrides = {});

}  // namespace clumplab::shapes
