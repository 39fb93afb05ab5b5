#pragma once
// Exact mass properties of the solid bounded by a closed, outward-oriented triangle mesh.
#include "core/base/WorkProgress.hpp"
#include "core/clump/MassProperties.hpp"
#include "core/clump/TriangleMesh.hpp"

namespace clumplab::shapes {

class MeshSolid;

// MercuryDPM rigid clumps, eq. 11-22 (Tonon 2005): the solid as a signed sum of tetrahedra [O, s_j^1, s_j^2,
// s_j^3] over the triangles s_j, with O the centre of the mesh's bounding box. Volume in m^3, mass = density
// x volume, tensor about the centre of mass in the mesh's frame. Nested shells subtract when the inner one
// faces inwards (a cavity). Throws std::invalid_argument when the enclosed volume is not positive (an empty,
// open or inside-out mesh).
MassProperties meshMassProperties(const TriangleMesh& mesh, double density);

// The signed volume alone (negative when the mesh is inside out) [m^3].
double signedVolume(const TriangleMesh& mesh);

// Total area of the triangles [m^2].
double surfaceArea(const TriangleMesh& mesh);

// The mesh's axis-aligned bounding box [m].
void meshBounds(const TriangleMesh& mesh, Vec3& lower, Vec3& upper);

// The sampling of solidMassProperties for a solid that is not a closed manifold: N = 32, 64, ... up
// to kWindingVoxels voxels per side until the estimated relative error is below kWindingBudget.
constexpr double kWindingBudget = 5e-3;
constexpr int kWindingVoxels = 128;

// The mass properties of the solid `solid` classifies: exact (meshMassProperties of its mesh) under
// its Crossings rule; under WindingNumber (holes, non-manifold edges, overlapping shells) by voxels
// of the solid {w >= 1/2} (massFromVoxelsWithinBudget; the estimated error in the *Error fields,
// voxelsPerSide the N used). Throws std::invalid_argument when that solid has no volume.
MassProperties solidMassProperties(const MeshSolid& solid, double density,
                                   double relativeBudget = kWindingBudget,
                                   int maxVoxelsPerSide = kWindingVoxels, const WorkProgress& progress = {});

}  // namespace clumplab::shapes
