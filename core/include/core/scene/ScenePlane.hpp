#pragma once
// PaLa's 2D / 3D switch (Mutze, Polyspherical grains, §1 (i)) applied to a loaded scene: its bodies moved
// into a plane, and the plane a user means by "the x-z plane of this scene".
#include "core/scene/Scene.hpp"

namespace clumplab {

// Puts the scene in 2D mode in `plane` (enabled) and moves every body into it: centres onto the
// plane, velocities into it, angular velocities along its normal. Bodies may overlap afterwards
// (SceneOverlap.hpp measures by how much). A disabled plane makes the scene 3D and moves nothing.
void confineToPlane(Scene& scene, const PlaneConstraint& plane);

// The plane normal to coordinate axis `axis` (0 x, 1 y, 2 z) through the middle of the bodies'
// centres along that axis (through the origin for a scene without bodies).
PlaneConstraint planeThroughBodies(const Scene& scene, int axis);

}  // namespace clumplab
