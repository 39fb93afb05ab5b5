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

  // `reach` [m]: per pebble, radius plus half shaft. `onePebbleShortcut`: pairs of one-pebble bodies
  // take collectOnePebbleEach.
  PebblePairSearch(const BroadPhaseInput& in, const std::vector<TemplateGrid>& grids,
                   const std::vector<double>& reach, const Boxes& boxes, double skin, bool onePebbleShortcut);

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
  // A candidate pair of bodies as the search sees it: x's pebbles search y's (the coarser pebbles, or
  // the more of them), each body's box taken to the image nearest the other's.
  struct BodyPair {
    std::uint32_t x = 0, y = 0;
    bool aSearches = true;                    // x is a (pairs come out as (pebble of a, pebble of b))
    Vec3 shift;                               // [m] y's image minus y (periodic axes)
    Vec3 lowerX, upperX, lowerY, upperY;      // [m] the boxes, each at the image nearest the other
    double maxReachX = 0.0, maxReachY = 0.0;  // [m]
    double pad = 0.0;                         // [m] the box tests' widening for rounding
  };
  template <bool kPeriodic>
  double collectIn(std::uint32_t a, std::uint32_t b, std::vector<PebblePair>& out, Scratch& scratch) const;
  template <bool kPeriodic>
  BodyPair pairOf(std::uint32_t a, std::uint32_t b) const;
  // collectIn for two bodies of one pebble each, in registers: the same tests, pair and bound to the
  // bit, without the gathering that bodies of many pebbles need.
  template <bool kPeriodic>
  double collectOnePebbleEach(std::uint32_t a, std::uint32_t b, std::vector<PebblePair>& out) const;
  // Gathers into `kept` the pebbles of `body` within their reach plus the skin of the box [lower,
  // upper]; returns a lower bound [m] on the gaps of the others' pairs with the box's body.
  double nearPebbles(std::uint32_t body, const Vec3& lower, const Vec3& upper, double maxReach, double pad,
                     std::vector<Near>& kept) const;
  // The pairs of the kept pebbles, tested one by one or through y's template grid, appended to
  // `out`; each returns a lower bound [m] on the gaps of the pairs it leaves unlisted.
  template <bool kPeriodic>
  double pairsOneByOne(const BodyPair& pair, const Scratch& scratch, std::vector<PebblePair>& out) const;
  template <bool kPeriodic>
  double pairsThroughGrid(const BodyPair& pair, const Scratch& scratch, std::vector<PebblePair>& out) const;

  const BroadPhaseInput& in_;
  const std::vector<TemplateGrid>& grids_;
  const std::vector<double>& reach_;
  Boxes boxes_;
  double skin_;
  bool onePebbleShortcut_;
};

}  // namespace clumplab
