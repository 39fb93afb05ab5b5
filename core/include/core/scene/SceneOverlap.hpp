#pragma once
// How far a scene's bodies overlap before the first step: what the 2D and spheres switches report
// when they move or reshape bodies that were placed for another geometry.
#include "core/scene/Scene.hpp"

namespace clumplab {

// Largest overlap between pebbles of two different bodies, or of a pebble and a wall, as a fraction
// of the smaller radius (0: none touch).
double worstInitialOverlap(const Scene& scene);

struct InitialOverlap {
  double ratio = 0.0;     // as above
  std::size_t body = 0;   // a body of the worst overlap (index in Scene::bodies)
  std::size_t other = 0;  // the other body, when wall < 0
  int wall = -1;          // or the wall it reaches into
};
// The same with the worst pair named.
InitialOverlap worstInitialOverlapOf(const Scene& scene);

}  // namespace clumplab
