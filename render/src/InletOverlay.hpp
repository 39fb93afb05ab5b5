#pragma once
// How an inlet (core/world/Inlet.hpp) is shown: its region's outline (a box's twelve edges, a cylinder's
// two rims and a few lines along its side) over faintly tinted faces, in teal while it inserts or
// waits, amber while it finds no room, grey once it is done.
#include "Overlays.hpp"
#include "core/world/Inlet.hpp"

namespace clumplab::render {

void buildInletOverlay(const Inlet& inlet, OverlayGeometry& out);

}  // namespace clumplab::render
