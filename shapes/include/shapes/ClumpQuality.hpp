#pragma once
// How well a clump (the union of its pebbles) reproduces its mesh: the template's `metrics`.
#include <vector>

#include "core/base/WorkProgress.hpp"
#include "core/clump/ClumpTemplate.hpp"
#include "core/clump/SolidOverlap.hpp"
#include "shapes/MeshSolid.hpp"

namespace clumplab::shapes {

struct QualityOptions {
  double voxelBudget = 1e-3;   // relative error budget of the pebble union's voxel mass properties
  int voxels = 0;              // voxels per side instead of the budget (0: use the budget)
  int surfaceSamples = 20000;  // points on the mesh surface for the largest gap (plus its vertices)
  int spherePoints = 48;       // points on each pebble near the surface for the largest protrusion
};

struct QualityResult {
  ClumpMetrics metrics;
  MassProperties clump;  // of the pebble union, voxels (same density as `mesh`)
};

// `meshProperties` are the mesh's exact mass properties (meshMassProperties) at some density;
// `pebbles` are in the mesh's frame. Protrusion and gap are one-sided distances, sampled:
// protrusion over points of the union's surface outside the mesh (distance to the mesh), gap over
// points of the mesh's surface (distance to the union). `progress` (WorkProgress.hpp) is reported
// through the voxels and the two distance samplings; a set cancel flag stops it (OperationCancelled).
QualityResult compareWithMesh(const std::vector<Pebble>& pebbles, const MeshSolid& mesh,
                              const MassProperties& meshProperties, const QualityOptions& options = {},
                              const WorkProgress& progress = {});

// The mesh's solid against another solid (a pebble union), Dice within 1e-3: up to 512 lines per
// side, 128 through a mesh that is not closed (each crossing costs a winding-number evaluation).
SolidOverlap overlapWithMesh(const MeshSolid& mesh, const Solid& other, const WorkProgress& progress = {});

// Largest angle [deg] between corresponding principal axes of `reference` and `other`, over the
// axes of `reference` that are defined (their moment differs from both others by more than 2% of
// I3); 0 when none is.
double axisMisalignmentDeg(const PrincipalFrame& reference, const PrincipalFrame& other);

// (I2 - I1) / (I3 - I1) for ascending moments; 0 when all three are equal (to 1e-6 of I3). Near 0
// or 1 the intermediate axis is close to a stable one; near 1/2 the flip is most pronounced.
double dzhanibekovMargin(const Vec3& moments);

}  // namespace clumplab::shapes
