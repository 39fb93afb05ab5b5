#pragma once
// Regular-grid pebble fill of a closed mesh (MClump mode 3, MercuryDPM rigid clumps, §3), with an inside test
// that is right for concave shapes, holes through the body and several shells.
#include <cstdint>
#include <vector>

#include "core/base/WorkProgress.hpp"
#include "core/clump/MeshTemplate.hpp"
#include "shapes/MeshSolid.hpp"

namespace clumplab::shapes {

struct FillResult {
  std::vector<Pebble> pebbles;    // in the mesh's frame
  double spacing = 0.0;           // h used [m]
  double radius = 0.0;            // r before fitting [m]
  std::int64_t candidates = 0;    // grid points over the bounding box
  std::int64_t inside = 0;        // of those, inside the mesh
  std::int64_t droppedSmall = 0;  // fitted pebbles below the minimum radius
  int searchSteps = 0;            // grid spacings tried to meet a target count
};

// Candidate centres on the grid c + h (i - (n - 1) / 2) per axis, n = ceil(extent / h) (centred on
// the bounding box), kept when inside the mesh. Radius (sqrt 3 / 2) h by default (each pebble
// circumscribes its grid cell, so their union covers every cell whose centre is inside), a given
// r, "fitted" r_i = min(r, distance to the surface), and "shell" (centres within a band of the
// surface). With a target count, h is found by iteration (the count scales as h^-3). Throws
// std::invalid_argument when the grid would exceed `maxCandidates` points (0: the process's
// ResourceLimits::maxFillPoints) or nothing is inside.
// `threads`: 0 uses the machine's cores (up to 8); the result does not depend on it. `progress`
// (WorkProgress.hpp) is reported between batches of grid layers, over the whole count search, and
// a set cancel flag stops the fill within a row of the grid (OperationCancelled).
FillResult fillMesh(const MeshSolid& solid, const FillSettings& settings, std::int64_t maxCandidates = 0,
                    int threads = 0, const WorkProgress& progress = {});

}  // namespace clumplab::shapes
