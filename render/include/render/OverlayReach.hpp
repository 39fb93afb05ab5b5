#pragma once
// How far from a body's centre of mass what the view draws of it reaches: the body itself, its
// principal axes and arrows, and the curves it carries (the polhode). A camera that keeps this
// sphere in view never has a body's overlay come up to the eye.
#include <cstddef>

#include "core/world/Snapshot.hpp"
#include "render/ViewOptions.hpp"

namespace clumplab::render {

// [m] the radius about body `body`'s centre of mass that its overlays in `options` reach (at least
// its bounding radius); 0 for a body not in `snapshot`.
double overlayReach(const Snapshot& snapshot, const ViewOptions& options, std::size_t body);

}  // namespace clumplab::render
