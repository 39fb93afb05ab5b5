#pragma once
// Mesh walls (core's MeshWall.hpp) where their imposed motion has them at the snapshot's time:
// translucent faces, every edge as a faint line (so a turning drum is seen to turn), and the
// boundary and sharp edges (folds beyond 20 degrees) as firm lines.
#include <vector>

#include "Overlays.hpp"

namespace clumplab::render {

void buildMeshWallOverlays(const std::vector<Wall>& meshWalls, double time, OverlayGeometry& out);

// Grows [lower, upper] by the walls' corners at `time` [m].
void growByMeshWalls(const std::vector<Wall>& meshWalls, double time, Vec3& lower, Vec3& upper);

}  // namespace clumplab::render
