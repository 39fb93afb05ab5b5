#pragma once
// PaLa's switch between polyspherical grains and simple spheres (seed 001 §1 (ii)): the same scene
// with every clump replaced by one sphere about its centre of mass, to show what the shape changes.
// Scenes switch with the "spheres" key or SceneLoadOptions::spheres (templates are switched before
// the bodies are placed).
#include <string_view>

#include "core/Scene.hpp"
#include "core/SphereKind.hpp"

namespace clumplab {

std::string_view sphereKindName(SphereKind kind);  // "bounding", "volume"

// The sphere of the kind asked for with the clump's mass (so bodies carry the same momentum and
// kinetic energy of translation) and the moment of inertia of a uniform ball of that mass, 2/5 m r^2
// about every axis; named "<name> (sphere)".
ClumpTemplate sphereTemplate(const ClumpTemplate& clump, SphereKind kind);

// Largest overlap between the bounding spheres of two bodies, or of a body and a wall, as a
// fraction of the smaller radius (0: none). For a scene of spheres, its real initial overlap.
double worstBoundingOverlap(const Scene& scene);

}  // namespace clumplab
