#pragma once
// Refines spheres fitted to a solid: every centre and radius moved down the gradient of the union's
// error against the solid, within the protrusion allowed. Private to shapes/src (SphereFit.cpp).
//
// The error is the volume the union adds outside the solid, weighted, less the volume of the solid it
// covers. Its derivative with respect to sphere i's radius is the integral over the part of i's
// surface that no other sphere covers of s(x) (s = -1 inside the solid, +w outside), with respect to
// its centre the same integral of s(x) n(x): a sphere grows and moves towards what it can still cover
// and away from what it covers outside. w = TP / (A + B - TP) (A the solid's volume, B the union's,
// TP their intersection) makes this the gradient of the Dice coefficient 2 TP / (A + B).
#include <vector>

#include "SolidVoxels.hpp"
#include "core/base/WorkProgress.hpp"
#include "core/clump/Pebble.hpp"
#include "shapes/MeshSolid.hpp"

namespace clumplab::shapes {

struct SphereRefineSettings {
  double maxProtrusion = 0.0;  // [m] no sphere reaches farther outside: radius <= depth of its centre + this
  double minRadius = 0.0;      // [m]
  int iterations = 160;
  double firstStep = 0.0;  // [m] the step of the first iteration; 0: half a voxel
  double lastStep = 0.0;   // [m] of the last (geometric in between); 0: a fiftieth of a voxel
};

// The Dice coefficient of the union of `spheres` against the solid on the voxel grid (voxel centres).
double gridDice(const SolidVoxels& grid, const std::vector<Pebble>& spheres);

// The spheres refined (gradient descent, Adam's steps per sphere: Kingma & Ba, "Adam: a method for
// stochastic optimization", ICLR 2015), the best by gridDice of those met along the way (the input
// included). Deterministic; `progress` may cancel (OperationCancelled).
std::vector<Pebble> refineSpheres(const MeshSolid& solid, const SolidVoxels& grid,
                                  std::vector<Pebble> spheres, const SphereRefineSettings& settings,
                                  const WorkProgress& progress = {});

}  // namespace clumplab::shapes
