#pragma once
// Which pebbles of a set overlap which: the pairs whose bounding spheres (centre, reach) intersect.
#include <cstdint>
#include <vector>

#include "core/clump/Pebble.hpp"

namespace clumplab {

// For each pebble, the indices of the others whose bounding spheres overlap its own (distance of the
// centres < sum of the reaches), ascending in the pebbles' order along x. A sweep along x over the
// pebbles sorted by their lower end: O(n log n + pairs) for pebbles of similar sizes.
std::vector<std::vector<std::uint32_t>> overlappingPebbles(const std::vector<Pebble>& pebbles);

}  // namespace clumplab
