#pragma once
// Which shells to turn over once each is consistently oriented (orientShells), private to shapes:
// the shells of a closed mesh by their nesting, the pieces of any other surface so that its
// winding number is positive inside.
#include <cstdint>
#include <vector>

#include "core/clump/TriangleMesh.hpp"

namespace clumplab::shapes::detail {

// The signed volume of each shell [m^3], as tetrahedra from `origin` to its triangles.
std::vector<double> shellVolumes(const TriangleMesh& m, const std::vector<std::uint32_t>& shellOf,
                                 std::size_t shells, const Vec3& origin);

// A closed 2-manifold's shells: each outwards or, inside an odd number of others (the parity of the
// crossings of a ray from its first triangle's centre with each other shell), inwards: a cavity.
// `volume`: shellVolumes about any one point.
std::vector<bool> closedShellInversions(const TriangleMesh& m, const std::vector<std::uint32_t>& shellOf,
                                        const std::vector<double>& volume);

// The pieces ("shells": triangles joined across edges of exactly two) of a surface that is not a
// closed manifold. Pieces that meet at non-manifold edges are turned to agree there: the largest
// first, each next one the way that leaves fewer unpaired uses on the edges it shares with those
// already turned. Each group of joined pieces then faces outwards (a positive signed volume about
// its own centre, so that its winding number is positive inside), except a closed group that lies
// inside the rest, where the winding number of the other groups is odd at all of up to 8 points just
// inside it: a cavity, turned inwards. A group that overlaps others stays outwards (the solid is
// their union).
std::vector<bool> openShellInversions(const TriangleMesh& m, const std::vector<std::uint32_t>& shellOf,
                                      std::size_t shells);

}  // namespace clumplab::shapes::detail
