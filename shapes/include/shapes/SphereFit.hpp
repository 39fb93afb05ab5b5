#pragma once
// A clump of overlapping spheres of varied radii fitted to a solid: balls inscribed in the solid
// (centred on its medial ridges, each as large as the distance to the surface allows, plus the
// protrusion the user allows), chosen one by one for the largest gain in the Dice coefficient
// against the solid: a greedy set cover of the solid by medial balls, in the spirit of Bradshaw &
// O'Sullivan, "Adaptive medial-axis approximation for sphere-tree construction" (ACM Transactions on
// Graphics 2004), with the Dice coefficient as its objective. Then the shortest prefix of the greedy's
// order whose centres and radii, moved down the gradient of the Dice coefficient within the protrusion
// allowed, reach the target (SphereRefine.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/WorkProgress.hpp"
#include "core/clump/MeshTemplate.hpp"
#include "core/clump/Pebble.hpp"
#include "core/clump/Solid.hpp"
#include "shapes/MeshSolid.hpp"

namespace clumplab::shapes {

struct SphereFitSettings {
  double targetDice = 0.95;     // stop once the Dice coefficient reaches this; 0: no target
  double maxProtrusion = -1.0;  // [m] how far a sphere may reach outside; < 0: 2% of the largest extent
  double minRadius = 0.0;       // [m] no sphere smaller; 0: one working voxel
  int maxCount = 1000;          // no more spheres than this (a count asked for: with targetDice 0)
  int voxelsPerSide = 0;        // working grid along the largest extent; 0: chosen (about 160)
  std::uint64_t seed = 1;       // shifts the working grid by a fraction of a voxel (0: no shift)
  bool refine = true;           // the greedy's spheres refined (SphereRefine): fewer for the same Dice
};

// The fit after each sphere added (on the working grid).
struct SphereFitPoint {
  int count = 0;
  double dice = 0.0;
  double volumeRatio = 0.0;   // union / solid (the greedy's points)
  double reachOutside = 0.0;  // [m] refined points: the largest radius less its centre's depth, a bound on
                              // the protrusion (no point of a sphere is farther from the solid)
};

struct SphereFitResult {
  std::vector<Pebble> pebbles;        // in the solid's frame
  std::vector<SphereFitPoint> curve;  // count 1, 2, ... as the spheres were added
  std::vector<SphereFitPoint>
      refinedCurve;        // prefixes refined, by count: Dice measured exactly (volumeRatio 0)
  double solidSize = 0.0;  // [m] the solid's largest extent
  std::string stopReason;  // "target Dice", "largest count", "no gain", "smallest radius"
  int voxelsPerSide = 0;
  double voxelSize = 0.0;      // [m]
  double maxProtrusion = 0.0;  // [m] the bound used: no sphere reaches farther outside
  std::size_t candidates = 0;  // centres considered
  double measuredDice = 0.0;   // the Dice coefficient of the spheres chosen, measured exactly (before the
                               // volume balance); 0 when not refined and no target
};

// Throws std::invalid_argument for settings out of range or a solid with nothing inside at the
// working resolution. `progress`: reported through the grid, the candidates and the selection; a set
// cancel flag stops it (OperationCancelled).
SphereFitResult fitSpheres(const MeshSolid& solid, const SphereFitSettings& settings,
                           const WorkProgress& progress = {});

// The settings of a template's fill in mode spheres (FillSettings::spheres).
SphereFitSettings sphereFitSettings(const FillSettings& fill);

}  // namespace clumplab::shapes
