#pragma once
// How far a scene's bodies overlap before the first step: what the 2D and spheres switches report
// when they move or reshape bodies that were placed for another geometry.
#include "core/Scene.hpp"

namespace clumplab {

// Largest overlap between pebbles of two different bodies, or of a pebble and a wall, as a fraction
// of the smaller radius (0: none touch).
double worstInitialOverlap(const Scene& scene);

}  // namespace clumplab
