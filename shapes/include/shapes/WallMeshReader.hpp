#pragma once
// The mesh reader of mesh walls (core's WallMeshReader hook, SceneLoadOptions::wallMeshes): any
// format Assimp reads, open surfaces allowed, errors naming the file.
#include "core/walls/MeshWall.hpp"

namespace clumplab::shapes {

WallMeshReader wallMeshReader();

}  // namespace clumplab::shapes
