#pragma once
// The body level of the broad phase: pairs of bodies whose bounding boxes (axis-aligned, in the
// world, holding every pebble's reach) come within the skin of each other. Boxes of very different
// sizes share no grid: bodies fall into size classes (largest half extents within a factor 2), each
// class binned by box centre in its own grid with cells as wide as its largest box plus the skin,
// and a body searches every class's grid over its own reach to that class (a hierarchical grid).
// A uniform grid with one cell size would put hundreds of small bodies in each cell once one large
// body sets the size; sweep-and-prune, the other usual choice, scans a whole slab of a dense pile
// per body. Boxes rather than bounding spheres: a T-bar lying in a pile has a box a third of its
// sphere's diameter thick, and half as many candidate pairs (tbar-bulk).
#include <cstdint>
#include <vector>

#include "CellGrid.hpp"
#include "core/base/Math.hpp"
#include "core/base/PeriodicBox.hpp"

namespace clumplab {

class BodyPairSearch {
 public:
  // Boxes [lower, upper] [m] per body (anywhere; centres are wrapped into the primary box here on
  // periodic axes). Every periodic length must be at least twice the largest pair range.
  void build(const std::vector<Vec3>& lower, const std::vector<Vec3>& upper, double skin,
             const PeriodicBox& box);

  // The candidates b > a of body a, ascending, into `partners`; returns a lower bound [m] on the gap
  // between a's box and the box of every body that is not a candidate of a (of either index),
  // infinity when there is none. Thread-safe (const, no shared scratch).
  double partnersOf(std::uint32_t a, std::vector<std::uint32_t>& partners) const;

 private:
  struct Bound {
    Vec3 centre;  // wrapped [m]
    Vec3 half;    // half extents [m]
  };
  struct SizeClass {
    Vec3 maxHalf = Vec3::Zero();  // [m] per axis over the members
    CellGrid grid;                // over the members' wrapped centres; items are body indices
    std::vector<Bound> bound;     // per grid item, in cell order (read in sequence by searches)
  };
  std::vector<SizeClass> classes_;
  // Per body, where its bound is: its class and its place in the class's cell order (the bounds
  // are kept once, in cell order, where the searches read them).
  struct Place {
    std::uint32_t sizeClass = 0;
    std::uint32_t item = 0;
  };
  std::vector<Place> place_;
  double skin_ = 0.0;
  PeriodicBox box_;
};

}  // namespace clumplab
