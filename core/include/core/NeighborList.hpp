#pragma once
// Broad phase: Verlet lists of pebble pairs (different bodies only) and pebble-wall pairs, built
// with a cell list and kept while no pebble has moved more than half the skin. Each pair carries
// its contact history (the tangential spring), carried over across rebuilds.
#include <cstdint>
#include <vector>

#include "core/Math.hpp"
#include "core/Walls.hpp"

namespace clumplab {

struct PebblePair {
  std::uint32_t a = 0;  // pebble indices, a < b, bodies differ
  std::uint32_t b = 0;
};

struct WallPair {
  std::uint32_t pebble = 0;
  std::uint32_t wall = 0;
};

class NeighborList {
 public:
  void setSkin(double skin) { skin_ = skin; }
  double skin() const { return skin_; }

  // True when some pebble moved more than skin/2 since the last build (or none was built).
  bool needsRebuild(const std::vector<Vec3>& pebblePositions) const;

  void rebuild(const std::vector<Vec3>& pebblePositions, const std::vector<double>& radii,
               const std::vector<std::uint32_t>& pebbleBody, const std::vector<Wall>& walls);

  const std::vector<PebblePair>& pairs() const { return pairs_; }
  const std::vector<WallPair>& wallPairs() const { return wallPairs_; }
  std::vector<Vec3>& pairHistory() { return pairHistory_; }       // tangential spring [m]
  std::vector<Vec3>& wallHistory() { return wallHistory_; }
  const std::vector<Vec3>& pairHistory() const { return pairHistory_; }
  const std::vector<Vec3>& wallHistory() const { return wallHistory_; }
  std::size_t rebuildCount() const { return rebuilds_; }
  void clearHistory();

 private:
  double skin_ = 0.0;
  std::vector<PebblePair> pairs_;
  std::vector<WallPair> wallPairs_;
  std::vector<Vec3> pairHistory_;
  std::vector<Vec3> wallHistory_;
  std::vector<Vec3> positionsAtBuild_;
  std::size_t rebuilds_ = 0;
  // Scratch for the cell list (kept to avoid reallocating).
  std::vector<std::uint32_t> cellStart_, cellOf_, sorted_;
};

}  // namespace clumplab
