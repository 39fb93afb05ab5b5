#pragma once
// PaLa's switch between polyspherical grains and simple spheres (Mutze, Polyspherical grains, §1 (ii)): the
// same scene with every clump replaced by one sphere about its centre of mass, to show what the shape
// changes. Scenes switch with the "spheres" key or SceneLoadOptions::spheres (templates are switched before
// the bodies are placed).
#include <string_view>

#include "core/clump/SphereKind.hpp"
#include "core/scene/Scene.hpp"

namespace clumplab {

std::string_view sphereKindName(SphereKind kind);  // "bounding", "volume"

// The sphere of the kind asked for with the clump's mass (so bodies carry the same momentum and
// kinetic energy of translation) and the moment of inertia of a uniform ball of that mass, 2/5 m r^2
// about every axis; named "<name> (sphere)".
ClumpTemplate sphereTemplate(const ClumpTemplate& clump, SphereKind kind);

// Every template of the scene as its sphere (template sources dropped: a sphere has no mesh), and
// the description says so. Bodies keep their places: switch before placing any to avoid overlaps.
void switchToSpheres(Scene& scene, SphereKind kind);

}  // namespace clumplab
