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
// A number with 4 significant digits, for messages.
std::string number(double v);

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

// Edges whose directed uses do not cancel (the uses a -> b minus the uses b -> a are not zero): the
// boundary of the surface as a chain, each once, in the direction of its surplus. Empty for a
// closed, consistently oriented surface, also a non-manifold one whose edges' uses pair up.
std::vector<std::pair<std::uint32_t, std::uint32_t>> unpairedEdges(const TriangleMesh& m);

// The number of connected pieces of surface (triangles joined across edges of exactly two).
std::size_t countShells(const Topology& topo);

// A chain of boundary edges through `vertices`: a loop (the last vertex joins the first), or, where
// the boundary meets a non-manifold edge (a fin's free edges), an open chain from the first vertex
// to the last.
struct BoundaryLoop {
  std::vector<std::uint32_t> vertices;
  bool closed = true;
};

// The boundary edges chained into loops, open chains from their free ends.
std::vector<BoundaryLoop> holeLoops(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges);

// Edge count, perimeter and centre of a loop (or chain) of boundary vertices.
MeshHole describeHole(const TriangleMesh& m, const BoundaryLoop& loop);

// A mesh's holes: the boundary edges chained into loops, each described, the largest (by
// perimeter), and a summary for messages: "72 boundary edges (edges of only one triangle) around 8
// holes; the largest has 13 edges and a perimeter of 3.889 m, around (x, y, z) m". (MeshHoles.cpp)
struct HoleSurvey {
  std::vector<BoundaryLoop> loops;
  std::vector<MeshHole> holes;
  std::size_t largest = 0;
  std::string summary;
};
HoleSurvey surveyHoles(const TriangleMesh& m, const Topology& topo);

// Closes each hole of `survey` (a closed loop) whose perimeter is at most `limit` [m] with a fan of
// triangles around its centre (a new vertex), running its boundary edges the other way; returns the
// holes closed.
std::vector<MeshHole> closeHoles(TriangleMesh& m, const HoleSurvey& survey, double limit);

// Merges vertices closer than `tolerance` (a hash grid of that cell size; each vertex joins the
// first earlier vertex within reach), then drops triangles that collapsed or now repeat. Returns
// the number of vertices merged.
std::size_t weldNearby(TriangleMesh& m, double tolerance, std::size_t& degenerate, std::size_t& duplicates);

// Orients every shell consistently (breadth-first over shared edges) and numbers the shells.
// Returns the shell of each triangle; flips triangles in place and counts them in `flipped`.
std::vector<std::uint32_t> orientShells(TriangleMesh& m, const Topology& topo, const std::string& name,
                                        std::vector<bool>& flipped, std::size_t& shells);

}  // namespace clumplab::shapes::detail
