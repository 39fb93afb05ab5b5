#pragma once
// The lines of MercuryDPM's scene.txt (MercuryClumps.cpp) for mesh walls and inlets. scene.txt is
// a description for the user's MercuryDPM driver, which has the means for both: a mesh wall is its
// triangles (MercuryDPM's WallHandler reads STL into TriangleWalls) with a prescribed velocity or
// pose as a function of time (BaseInteractable's setVelocity / setAngularVelocity, or
// setPrescribedPosition / setPrescribedOrientation for keyframes); an inlet is a region, a rate and
// a limit (MercuryDPM's InsertionBoundary family: a cube or cylinder, a mass rate, a count or mass).
//   wall W mesh file meshes/wallW.stl triangles N pose0 x y z qw qx qy qz motion none
//   wall W mesh ... motion velocity linear vx vy vz angular wx wy wz center cx cy cz
//   wall W mesh ... motion interpolated keys K   then K lines "wall W key t x y z qw qx qy qz"
// The STL holds the triangles at time 0 (world); pose0 is the wall frame's pose then, so a point x
// of the file is at P(t) + Q(t) Q0^-1 (x - P0) at time t for the frame's pose (P, Q) at time t.
//   inlet I box min x y z max x y z | cylinder center x y z axis ax ay az radius r height h
//         templates K folder weight ... (by count) mass_rate kg/s max_mass kg|none max_count n|none
//         velocity vx vy vz velocity_spread s seed n start t attempts n retry_interval t
#include <string>
#include <vector>

#include "core/scene/Scene.hpp"

namespace clumplab::exporting {

// The scene.txt lines of mesh wall `w` (its STL is written by the caller at meshWallFileName(w)).
std::string describeMeshWall(const Scene& scene, std::size_t w);

// The scene.txt line of inlet `i`; `folders` are the template folder names by world template index.
std::string describeInlet(const Scene& scene, std::size_t i, const std::vector<std::string>& folders);

}  // namespace clumplab::exporting
