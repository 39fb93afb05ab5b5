#pragma once
// The pebble level of the broad phase: the pebble pairs of one candidate pair of bodies, and a lower
// bound on the gap of the pairs it leaves unlisted (for the displacement limits).
#include <cstdint>
#include <vector>

#include "TemplateGrid.hpp"
#include "core/collision/NeighborList.hpp"

namespace clumplab {

class PebblePairSearch {
 public:
  // A pebble near the other body: its world position [m], reach [m] and index.
  struct Near {
    Vec3 position;
    double reach;
    std::uint32_t index;
  };
  // Per-thread work space.
  struct Scratch {
    std::vector<Near> nearX, nearY;
  };

  // World boxes (as placed, not wrapped) holding pebbles' reaches [m]: per body, and per pebble group
  // (TemplateGrid's groups, those of body b from bodyFirstGroup[b] on).
  struct Boxes {
    const std::vector<Vec3>& bodyLower;
    const std::vector<Vec3>& bodyUpper;
    const std::vector<Vec3>& groupLower;
    const std::vector<Vec3>& groupUpper;
    const std::vector<std::uint32_t>& bodyFirstGroup;
  };

  // `reach` [m]: per pebble, radius plus half shaft.
  PebblePairSearch(const BroadPhaseInput& in, const std::vector<TemplateGrid>& grids,
                   const std::vector<double>& reach, const Boxes& boxes, double skin);

  double reach(std::uint32_t i) const { return reach_[i]; }
  std::uint32_t firstPebble(std::uint32_t b) const { return in_.bodyFirstPebble[b]; }
  std::uint32_t endPebble(std::uint32_t b) const {
    return b + 1 < in_.bodyFirstPebble.size() ? in_.bodyFirstPebble[b + 1]
                                              : static_cast<std::uint32_t>(in_.pebblePosition.size());
  }

  // Appends the pairs (pebble of a, pebble of b) of bodies a < b closer than their reaches plus the
  // skin to `out` (in no particular order); returns a lower bound [m] on the gap of every other
  // pebble pair of the two bodies (infinity when there is none).
  double collect(std::uint32_t a, std::uint32_t b, std::vector<PebblePair>& out, Scratch& scratch) const;

 private:
  template <bool kPeriodic>
  double collectIn(std::uint32_t a, std::uint32_t b, std::vector<PebblePair>& out, Scratch& scratch) const;

  const BroadPhaseInput& in_;
  const std::vector<TemplateGrid>& grids_;
  const std::vector<double>& reach_;
  Boxes boxes_;
  double skin_;
};

}  // namespace clumplab
