#pragma once
// Where a new body may go: the one overlap test shared by the scene's "generate" key (MercuryDPM rigid
// clumps, §3), the inlets (Woo's inlets) and the app's spawning. Two bodies overlap when any two of their
// pebbles do (spheres by their centres, spherocylinders by their shafts, Meland et al., Cluster integration
// method, Fig. 2); a body is clear of the walls when every pebble keeps its radius from every wall.
#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/base/PeriodicBox.hpp"
#include "core/clump/ClumpTemplate.hpp"
#include "core/walls/Walls.hpp"

namespace clumplab {

// A body at a pose: its centre of mass [m] and the rotation of its principal frame into the world.
struct PlacedBody {
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  const ClumpTemplate* shape = nullptr;
};

// True when a pebble of `a` overlaps a pebble of `b` (touching is not overlapping).
bool bodiesOverlap(const PlacedBody& a, const PlacedBody& b);

// True when every pebble of `body` is on the allowed side of every wall by at least its radius (a
// spherocylinder by its shaft's ends; a shaft across a membrane that stops it is stuck in it).
// Mesh walls are taken where their motion has them at `time` [s].
bool clearOfWalls(const PlacedBody& body, const std::vector<Wall>& walls, double time = 0.0);

// Bodies already placed, hashed on a grid of cells at least as wide as the largest body, so that a
// candidate is tested only against the bodies in the 27 cells around it (O(1) a query). On periodic
// axes the cells span the box and wrap around, and bodies meet through their nearest images (as
// contacts see them).
class PlacementSet {
 public:
  // `largestBoundingRadius` [m]: of every body added or tested.
  PlacementSet(double largestBoundingRadius, const PeriodicBox& periodic);
  void add(const PlacedBody& body);
  bool overlapsAny(const PlacedBody& candidate) const;
  std::size_t size() const { return bodies_.size(); }

 private:
  Eigen::Array3i cellOf(const Vec3& x) const;
  static std::uint64_t key(const Eigen::Array3i& c);

  double cell_;  // [m]
  PeriodicBox periodic_;
  std::array<int, 3> count_ = {1, 1, 1};  // cells along each periodic axis
  Vec3 periodicCell_ = Vec3::Ones();      // their width [m]
  std::vector<PlacedBody> bodies_;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> cells_;
};

}  // namespace clumplab
