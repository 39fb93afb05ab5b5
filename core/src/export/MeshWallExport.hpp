#pragma once
// Mesh walls (MeshWall.hpp) as the engine exports write them: the triangles where the wall's
// motion has them at time 0, in world coordinates (the scene's "scale", "position" and
// "orientation" applied), as an ASCII STL file beside the deck; and which imposed motions an
// engine's kinematics reproduce exactly.
#include <filesystem>
#include <string>

#include "core/clump/TriangleMesh.hpp"
#include "core/scene/Scene.hpp"

namespace clumplab::exporting {

// The welded triangles of a mesh wall at the pose of t = 0 (world, [m]).
TriangleMesh meshAtStart(const MeshWall& wall);

// Writes `mesh` as ASCII STL (17 significant digits, facet normals from the corners' order);
// throws std::runtime_error naming the file if it cannot.
void writeAsciiStl(const TriangleMesh& mesh, const std::string& solidName, const std::filesystem::path& path);

// The file name a mesh wall's STL gets in the export folder: "meshes/wall<w>.stl".
std::string meshWallFileName(std::size_t wallIndex);

// Refuses (InputError naming the scene file and "walls[w].motion") what the engine kinematics
// cannot reproduce: Woo-style keyframed (interpolated) motion, which is piecewise linear in
// position and slerp in orientation between keys.
void refuseInterpolatedMotion(const Scene& scene, std::size_t wallIndex, const std::string& engine);

}  // namespace clumplab::exporting
