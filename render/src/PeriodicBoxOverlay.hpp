#pragma once
// How a periodic box (Meland et al., Cluster integration method) is shown: the primary cell's twelve edges
// dashed in amber, and its faces across each periodic axis (the ones bodies pass through and come back by)
// tinted very lightly. Open axes keep the extent the scene gave the box. Bodies are drawn where the engine
// keeps them, centres wrapped into the cell (a body crossing a face pokes out of it until its centre wraps).
#include "Overlays.hpp"
#include "core/base/PeriodicBox.hpp"

namespace clumplab::render {

void buildPeriodicBoxOverlay(const PeriodicBox& box, OverlayGeometry& out);

}  // namespace clumplab::render
