#pragma once
// Edge topology of triangle meshes, private to shapes: neighbours across edges, boundary loops,
// welding within a tolerance and consistent orientation of shells (used by prepareMesh).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "shapes/MeshImport.hpp"

namespace clumplab::shapes::detail {

using Triangle = std::array<std::uint32_t, 3>;
constexpr std::uint32_t kNone = 0xffffffffu;

// "(x, y, z) m", for messages.
std::string where(const Vec3& p);

struct TriangleHash {
  std::size_t operator()(const Triangle& t) const {
    return (static_cast<std::size_t>(t[0]) * 73856093u) ^ (static_cast<std::size_t>(t[1]) * 19349663u) ^
           (static_cast<std::size_t>(t[2]) * 83492791u);
  }
};

// Edge topology: for every triangle its neighbour across each edge (kNone on a boundary), whether
// the neighbour runs along that edge in the same direction (its orientation disagrees), the
// boundary edges as their triangle runs them, and how many edges have more than two triangles.
struct Topology {
  std::vector<std::array<std::uint32_t, 3>> neighbour;
  std::vector<std::array<bool, 3>> sameDirection;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> boundary;  // directed a -> b
  std::size_t nonManifoldEdges = 0;
  Vec3 nonManifoldAt = Vec3::Zero();
};

// Sorts the edge uses once (O(n log n)) and pairs them up.
Topology analyse(const TriangleMesh& m);

// The boundary edges chained into loops.
std::vector<std::vector<std::uint32_t>> holeLoops(
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges);

// Edge count, perimeter and centre of a loop of boundary vertices.
MeshHole describeHole(const TriangleMesh& m, const std::vector<std::uint32_t>& loop);

// Merges vertices closer than `tolerance` (a hash grid of that cell size; each vertex joins the
// first earlier vertex within reach), then drops triangles that collapsed or now repeat. Returns
// the number of vertices merged.
std::size_t weldNearby(TriangleMesh& m, double tolerance, std::size_t& degenerate, std::size_t& duplicates);

// Orients every shell consistently (breadth-first over shared edges) and numbers the shells.
// Returns the shell of each triangle; flips triangles in place and counts them in `flipped`.
std::vector<std::uint32_t> orientShells(TriangleMesh& m, const Topology& topo, const std::string& name,
                                        std::vector<bool>& flipped, std::size_t& shells);

}  // namespace clumplab::shapes::detail
