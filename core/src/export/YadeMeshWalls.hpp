#pragma once
// Mesh walls in the Yade script (YadeScript.cpp): each triangle, where the wall's motion has it at
// time 0, becomes a fixed facet (utils.facet) of the walls' material; a constant-velocity motion
// becomes kinematic engines ahead of NewtonIntegrator:
//   linear v only   -> TranslationEngine(translationAxis = v/|v|, velocity = |v|)
//   angular w only  -> RotationEngine(rotationAxis = w/|w|, angularVelocity = |w|, rotateAroundZero,
//                      zeroPoint = c)
//   v parallel to w -> both in a CombinedKinematicEngine: Yade's zeroPoint stays put, but a shift
//                      along the axis leaves the axis where it is, so this is ClumpLab's motion.
// A v across w (the axis moves sideways: Yade's RotationEngine keeps a fixed zeroPoint) and
// keyframed motion are refused.
#include <string>

#include "core/scene/Scene.hpp"

namespace clumplab::exporting {

// The script's MESHES list: one (wall index, triangles, v, w, c) tuple per mesh wall. Throws
// InputError for motions Yade's engines cannot reproduce.
std::string yadeMeshWalls(const Scene& scene);

}  // namespace clumplab::exporting
