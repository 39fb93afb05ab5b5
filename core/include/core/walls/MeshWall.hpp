#pragma once
// A triangle mesh as a boundary (after Woo's facets in Woo, Clumps): its geometry in the
// wall's own frame with the adjacency that decides contact regions, a bounding-volume hierarchy over
// its triangles, and the imposed (kinematic) motion that places the frame in the world at time t.
//
// Contact regions (MeshWallShape::touch). A pebble centre c touches at most one feature per region:
//   - face t when its projection lies strictly inside t: every edge function s_e(c) > 0;
//   - edge e when its projection on e's line lies strictly inside the edge (0 < u < 1) and no
//     triangle on e claims it (s_e(c) <= 0 for each of them);
//   - vertex v when its projection on every edge at v lies at or before v (u <= 0 from v's side)
//     and no face at v claims it.
// Every test reads the same stored numbers (the edge functions of each triangle-edge pair, the edge
// parameter u of each edge), so a point on a shared edge is claimed by the edge or by one face,
// never by two: two coplanar triangles get edge functions of exactly opposite sign (their in-plane
// edge normals are stored as exact negatives). A sphere resting on a flat tessellated floor thus
// meets exactly one feature wherever it sits, at the same distance as from the plane.
// In a concave fold both faces claim the pebble (two contacts, as two planes would give); on a
// convex fold the edge does (one contact with the normal from the edge).
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/base/Math.hpp"
#include "core/clump/TriangleMesh.hpp"

namespace clumplab {

// Which feature of a mesh a contact is with: a face, an edge or a vertex, by index.
struct MeshFeature {
  enum class Kind : std::uint8_t { Face = 0, Edge = 1, Vertex = 2 };
  Kind kind = Kind::Face;
  std::uint32_t index = 0;
  // One number per feature: (kind << 30) | index (meshes up to 2^30 features of each kind).
  std::uint32_t key() const { return (static_cast<std::uint32_t>(kind) << 30) | index; }
};

// A sphere against the mesh, in the wall's frame.
struct MeshTouch {
  MeshFeature feature;
  Vec3 normal = Vec3::UnitZ();  // unit, from the surface towards the sphere's centre
  double distance = 0.0;        // from the centre to the feature [m], < the radius
};

class MeshWallShape {
 public:
  // Welds vertices that coincide exactly, drops triangles of zero area, finds the edges and their
  // triangles, and builds the hierarchy. Throws std::invalid_argument when nothing is left.
  explicit MeshWallShape(const TriangleMesh& mesh);

  // Every feature the sphere (centre c, radius r, wall frame) touches, one per region (above).
  // `scratch` holds candidate triangles between calls (no allocation once grown).
  void touch(const Vec3& c, double r, std::vector<MeshTouch>& out, std::vector<std::uint32_t>& scratch) const;
  // As touch, the candidates given: nearTriangles(c, r), or any subsequence of it that keeps every
  // triangle whose plane is nearer than r to c (nearFrom's). Overwrites `candidates`.
  void touchCandidates(const Vec3& c, double r, std::vector<MeshTouch>& out,
                       std::vector<std::uint32_t>& candidates) const;
  // The triangles whose bounding boxes come within r of c (the hierarchy's answer: O(log n) for a
  // small sphere), in the hierarchy's order (leaf by leaf, depth first).
  void nearTriangles(const Vec3& c, double r, std::vector<std::uint32_t>& out) const;

  // A neighbour list for a sphere that moves a little between calls (a Verlet list with a skin):
  // near(c0, R) keeps, in nearTriangles' order with their leaves, the triangles of nearTriangles(c0, R)
  // whose planes are nearer than R to c0. While |c - c0| + r <= (1 - 1e-3) R (nearListHolds), every box or
  // plane within r of c is within R of c0, and nearFrom(list, c, r) gives the triangles of nearTriangles(c,
  // r) whose planes are nearer than r, in the same order: what touch examines.
  struct NearTriangle {
    std::uint32_t leaf = 0;  // hierarchy node
    std::uint32_t triangle = 0;
  };
  void near(const Vec3& c0, double reach, std::vector<NearTriangle>& out) const;
  void nearFrom(std::span<const NearTriangle> list, const Vec3& c, double r,
                std::vector<std::uint32_t>& out) const;
  // The reach a sphere of radius r gets its list with: a skin of half the radius [m].
  static double nearReach(double r) { return 1.5 * r; }
  // Of the reach, what the sphere may fill: 0.1% is kept for round-off.
  static constexpr double kNearReachUsable = 1.0 - 1e-3;
  // Whether near(c0, reach) still serves the sphere (c, r) (above).
  static bool nearListHolds(const Vec3& c0, double reach, const Vec3& c, double r) {
    return (c - c0).norm() + r <= kNearReachUsable * reach;
  }
  // Tells shapes apart for a cache of such lists (unique in the process, never reused).
  std::uint64_t serial() const { return serial_; }
  // The distance from p to the surface [m] (unsigned), or `maxDistance` when it is farther.
  double distance(const Vec3& p, double maxDistance) const;

  const TriangleMesh& mesh() const { return mesh_; }  // welded
  std::size_t edgeCount() const { return edges_.size(); }
  const std::vector<std::array<std::uint32_t, 2>>& edges() const { return edges_; }  // vertex pairs
  std::span<const std::uint32_t> edgeTriangles(std::size_t e) const {
    return {edgeTri_.data() + edgeTriStart_[e], edgeTriStart_[e + 1] - edgeTriStart_[e]};
  }
  const Vec3& triangleNormal(std::size_t t) const { return normal_[t]; }  // unit
  const Vec3& lower() const { return lower_; }                            // bounding box, wall frame [m]
  const Vec3& upper() const { return upper_; }

 private:
  struct Node {
    Vec3 lower, upper;
    std::uint32_t first = 0;  // leaf: first index into order_; inner: left child (right = left + 1)
    std::uint32_t count = 0;  // leaf: triangle count; inner: 0
  };
  void build(std::uint32_t node, std::uint32_t begin, std::uint32_t end, const std::vector<Vec3>& centroids);
  // Edge function of triangle t for its k-th edge at c (> 0: on the triangle's side).
  double edgeFunction(std::uint32_t t, int k, const Vec3& c) const;
  // Where c projects on edge e, as the fraction u from its first to its second vertex.
  double edgeParameter(std::uint32_t e, const Vec3& c) const;
  bool faceClaims(std::uint32_t t, const Vec3& c) const;
  // The leaves whose boxes come within r of c, depth first: visit(node) for each.
  template <class Visit>
  void forNearLeaves(const Vec3& c, double r, Visit&& visit) const;
  bool boxNear(const Node& n, const Vec3& c, double r) const {
    const Vec3 gap = (n.lower - c).cwiseMax(c - n.upper).cwiseMax(0.0);
    return gap.squaredNorm() < r * r;
  }
  double planeDistance(std::uint32_t t, const Vec3& c) const {
    return std::abs(normal_[t].dot(c - mesh_.corner(t, 0)));
  }

  TriangleMesh mesh_;
  std::vector<Vec3> normal_;                                 // per triangle, unit
  std::vector<std::array<std::uint32_t, 3>> triEdge_;        // per triangle: edge k joins corners k, k+1
  std::vector<std::array<Vec3, 3>> edgeNormal_;              // per triangle and edge: in-plane, inwards
  std::vector<std::array<std::uint32_t, 2>> edges_;          // vertex pairs, first < second
  std::vector<std::uint32_t> edgeTriStart_, edgeTri_;        // triangles of each edge (CSR)
  std::vector<std::uint32_t> vertexEdgeStart_, vertexEdge_;  // edges at each vertex (CSR)
  std::vector<std::uint32_t> vertexTriStart_, vertexTri_;    // triangles at each vertex (CSR)
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> order_;  // triangle indices in leaf order
  Vec3 lower_ = Vec3::Zero(), upper_ = Vec3::Zero();
  std::uint64_t serial_ = 0;
};

// Where the wall's frame is at a time: x_world = position + orientation x_frame, and the velocity
// of the frame's points: v(x) = linearVelocity + angularVelocity x (x - position).
struct WallPose {
  Vec3 position = Vec3::Zero();         // [m]
  Quat orientation = Quat::Identity();  // wall frame -> world
  Vec3 linearVelocity = Vec3::Zero();   // of the frame's origin [m/s]
  Vec3 angularVelocity = Vec3::Zero();  // world [rad/s]
  bool identity = true;                 // at rest at the origin (no transform needed)

  Vec3 surfaceVelocity(const Vec3& x) const { return linearVelocity + angularVelocity.cross(x - position); }
};

// The imposed motion of a mesh wall.
//   None: the wall stays at (position, orientation).
//   Velocity: constant linear velocity v and angular velocity w about the point `center` (which
//     moves with v): at time t the frame is turned by the angle |w| t about w through center + v t
//     and shifted by v t, starting from (position, orientation) at t = 0.
//   Interpolated (Woo's InterpolatedMotion): the frame's position and orientation at given times
//     (ascending), linear in position and slerp in orientation (the shorter arc) in between; before
//     the first time the wall rests at the first key, after the last at the last key (velocity zero).
struct WallMotion {
  enum class Kind { None, Velocity, Interpolated };
  Kind kind = Kind::None;
  Vec3 position = Vec3::Zero();         // pose at t = 0 (None, Velocity) [m]
  Quat orientation = Quat::Identity();  // (None, Velocity)
  Vec3 linear = Vec3::Zero();           // Velocity [m/s]
  Vec3 angular = Vec3::Zero();          // Velocity, world [rad/s]
  Vec3 center = Vec3::Zero();           // Velocity: the axis passes through it at t = 0 [m]
  std::vector<double> times;            // Interpolated [s], strictly ascending
  std::vector<Vec3> positions;          // Interpolated [m]
  std::vector<Quat> orientations;       // Interpolated, unit

  WallPose poseAt(double t) const;
  bool moves() const { return kind != Kind::None; }
};

// A mesh wall: shared geometry, its motion, and how the scene declared it (for saving).
struct MeshWall {
  std::shared_ptr<const MeshWallShape> shape;
  WallMotion motion;
  std::string file;    // the mesh file as resolved (absolute or relative to the working folder)
  double scale = 1.0;  // applied to the file's coordinates before the motion's frame

  WallPose poseAt(double t) const { return motion.poseAt(t); }
};

// Reads a mesh file into triangles (file coordinates, no checks of closedness: walls may be open).
// Throws InputError naming the file. Programs that link `shapes` pass its reader to loadScene.
using WallMeshReader = std::function<TriangleMesh(const std::string& path)>;

}  // namespace clumplab
