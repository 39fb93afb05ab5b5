#pragma once
// Triangle meshes of implicit solids (a signed-distance function, negative inside) by marching
// tetrahedra: the mesh of unions of capsules, rounded boxes and the like, which the primitive
// meshes cannot give (overlapping shells do not make a union).
#include "core/clump/TriangleMesh.hpp"
#include "shapes/SignedDistance.hpp"

namespace clumplab::shapes {

// The surface {signedDistance = 0} sampled on a grid of cubes of side `cellSize` [m] from `lower`
// to (at least) `upper`, each cube split into the 6 tetrahedra around its main diagonal (Kuhn /
// Freudenthal), the same split in every cube, so neighbouring cubes cut their shared faces alike.
// The result is closed, 2-manifold and outward-oriented, with vertices shared along grid edges.
// Grid values closer to 0 than 1e-3 cellSize are pushed away from 0 (keeping their sign, 0 counts
// as outside), so no vertex sits on a grid point; each vertex is then placed on its grid edge by a
// few false-position steps on the function (Illinois), so it lies on the surface, and kept at least
// 1e-3 of the edge from either end, so no triangle has zero area.
// Throws std::invalid_argument when the grid's boundary is not strictly outside the solid (any
// value <= 0 there: enlarge the box), when the grid would exceed 2^26 (~64M) cubes, when the
// arguments are not finite or the box is empty, or when the function returns a non-finite value.
TriangleMesh meshImplicit(const SignedDistance& signedDistance, const Vec3& lower, const Vec3& upper,
                          double cellSize);

}  // namespace clumplab::shapes
