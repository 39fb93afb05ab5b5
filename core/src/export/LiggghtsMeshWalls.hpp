#pragma once
// Mesh walls in the LIGGGHTS deck (LiggghtsDeck.cpp): each as `fix mesh/surface file
// meshes/wall<w>.stl type 2` (the STL written at the wall's pose of time 0, so no scale, move or
// rotate keyword is needed), all in one `fix wall/gran ... mesh n_meshes N meshes ...` with the
// contact model of the other walls, and their constant-velocity motion as `fix move/mesh`:
//   linear v only        -> linear vx vy vz                           (X(t) = X0 + v t)
//   angular w only       -> rotate origin c axis w/|w| period 2 pi/|w|
//   both                 -> linear first, then rotate: LIGGGHTS moves a later mover's frame with
//                           the earlier ones (fix move/mesh, "Superposition"), so the axis through c
//                           travels with v, as ClumpLab's x(t) = c + v t + R(w t)(x0 - c).
// Keyframed motion is refused (scenes do not combine mesh walls with periodic boundaries).
#include <filesystem>
#include <string>
#include <vector>

#include "core/export/WallSurfaces.hpp"
#include "core/scene/Scene.hpp"

namespace clumplab::exporting {

struct LiggghtsMeshWalls {
  std::vector<std::size_t> walls;         // indices of the mesh walls in scene.model.walls
  std::vector<std::string> surfaceLines;  // fix mesh/surface, then the wall/gran fix
  std::vector<std::string> motionLines;   // fix move/mesh (issued at the deck's time 0)
  Box3 sweep;                             // where the meshes' vertices go during the run [m]
};

// Checks and maps the scene's mesh walls (throws InputError for what LIGGGHTS cannot express);
// `model` and `settings` are the deck's contact model keywords; `duration` the run's length [s].
LiggghtsMeshWalls mapLiggghtsMeshWalls(const Scene& scene, const std::string& model,
                                       const std::string& settings, double duration);

// Writes the STL files of those walls under `folder`; returns their names relative to it.
std::vector<std::string> writeMeshWallFiles(const Scene& scene, const std::vector<std::size_t>& walls,
                                            const std::filesystem::path& folder);

}  // namespace clumplab::exporting
