#pragma once
// Geometry built on the CPU each frame: box edges and plane patches of the walls; principal axes,
// centre-of-mass markers and velocity, angular velocity and angular momentum arrows of the
// selected body (all bodies if none); contact points; the drag line.
#include <vector>

#include "SegmentPass.hpp"
#include "SolidPass.hpp"
#include "WallGeometry.hpp"
#include "core/world/Snapshot.hpp"
#include "render/ViewOptions.hpp"

namespace clumplab::render {

struct SceneBounds {
  Vec3 center = Vec3::Zero();
  double radius = 1.0;  // [m]
};

// Body b's bounding radius [m] about its centre of mass (from its pebbles if the template has none).
double bodyRadius(const Snapshot& snapshot, std::size_t b);

// The bodies' bounding sphere (their pebbles included); the box, cavity or a unit sphere if none.
SceneBounds sceneBounds(const Snapshot& snapshot, const WallLayout& walls);

struct OverlayGeometry {
  SegmentList tested;     // hidden behind surfaces: box edges, trails
  SegmentList annotated;  // axes, arrow shafts: hidden parts drawn faintly
  SegmentList onTop;      // contact points, the drag line
  TriangleList solids;    // arrow heads (opaque, hidden parts faint)
  TriangleList patches;   // translucent plane patches
  void clear();
};

void buildWallOverlays(const WallLayout& walls, const SceneBounds& bounds, OverlayGeometry& out);
void buildBodyOverlays(const Snapshot& snapshot, const ViewOptions& options, OverlayGeometry& out);

}  // namespace clumplab::render
