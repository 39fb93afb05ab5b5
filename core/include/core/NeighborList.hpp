#pragma once
// Broad phase: Verlet lists of pebble pairs (different bodies only) and pebble-wall pairs, built
// with a cell list. A spherocylinder pebble takes part by its reach r + l/2 (the sphere about its
// shaft's centre that holds it whatever its orientation, so the displacement bookkeeping of centres
// stays valid while it turns) and has two wall pairs per wall, one per shaft end (seed 004: a plane
// wall acts on one hemisphere; both when it lies flat). Each pair carries its contact history (the tangential
// spring), carried over across rebuilds. A list stays valid while every pebble stays within its own
// displacement limit: at least skin/2, more for pebbles whose nearest unlisted partner (pebble or wall) is
// farther away.
//
// Periodic boundaries (PeriodicBox, seed 004): the grid spans the primary box on periodic axes and
// wraps around there; pebbles are binned by their wrapped positions and pairs are measured by the
// minimum image. Positions themselves stay as the caller gives them (a body straddling a face has
// pebbles outside the box); the displacement bookkeeping compares such positions, so a caller that
// moves a body by whole box lengths calls translatePebbles with the same shift.
#include <cstdint>
#include <vector>

#include "core/Math.hpp"
#include "core/PeriodicBox.hpp"
#include "core/ThreadPool.hpp"
#include "core/Walls.hpp"

namespace clumplab {

struct PebblePair {
  std::uint32_t a = 0;  // pebble indices, a < b, bodies differ
  std::uint32_t b = 0;
};

struct WallPair {
  std::uint32_t pebble = 0;
  std::uint32_t wall = 0;
  std::uint32_t end = 0;  // spherocylinders: 0 the shaft end at -l/2 along the axis, 1 the one at +l/2
};

class NeighborList {
 public:
  void setSkin(double skin) { skin_ = skin; }
  double skin() const { return skin_; }

  // True when some pebble left its displacement limit since the last build (or none was built).
  bool needsRebuild(const std::vector<Vec3>& pebblePositions) const;
  // The per-pebble form of needsRebuild, for callers that fuse it into their own loop; valid only
  // when builtFor(n) holds.
  bool builtFor(std::size_t pebbleCount) const { return positionsAtBuild_.size() == pebbleCount; }
  bool movedTooFar(std::size_t i, const Vec3& position) const {
    return (position - positionsAtBuild_[i]).squaredNorm() > limit2_[i];
  }

  // Pairs come out sorted by (a, b) and wall pairs by (pebble, wall, end) whatever `pool` is.
  // `halfLengths` [m]: the pebbles' half shaft lengths (Pebble.hpp), or empty when all are spheres.
  // `periodic`: periodic axes (none by default). Every periodic length must be at least twice the
  // largest pair range 2 max(reach) + skin (World checks this), so a pair meets by one image only.
  void rebuild(const std::vector<Vec3>& pebblePositions, const std::vector<double>& radii,
               const std::vector<std::uint32_t>& pebbleBody, const std::vector<Wall>& walls,
               ThreadPool* pool = nullptr, const std::vector<double>& halfLengths = {},
               const PeriodicBox& periodic = {});

  const std::vector<PebblePair>& pairs() const { return pairs_; }
  const std::vector<WallPair>& wallPairs() const { return wallPairs_; }
  std::vector<Vec3>& pairHistory() { return pairHistory_; }  // tangential spring [m]
  std::vector<Vec3>& wallHistory() { return wallHistory_; }
  const std::vector<Vec3>& pairHistory() const { return pairHistory_; }
  const std::vector<Vec3>& wallHistory() const { return wallHistory_; }
  std::size_t rebuildCount() const { return rebuilds_; }

  // Pebbles [first, first + count) are gone and those above renumbered down by `count`: their
  // pairs are dropped and the rest keep their order and history. The list stays valid (the
  // displacement limits only grow when partners disappear), so no rebuild is needed.
  void removePebbles(std::uint32_t first, std::uint32_t count);

  // Pebbles [first, first + count) were moved by `shift` [m] (a body wrapped into the periodic box
  // by whole box lengths): their reference positions follow, so the move neither triggers a rebuild
  // nor hides a real displacement. Pairs and their history are unchanged (they are by index).
  void translatePebbles(std::uint32_t first, std::uint32_t count, const Vec3& shift);

  // The lists, their history and the rebuild bookkeeping (not the scratch buffers), for world
  // checkpoints: restoring them makes later rebuilds and contacts come out with the same bits.
  struct Saved {
    double skin = 0.0;
    std::vector<PebblePair> pairs;
    std::vector<WallPair> wallPairs;
    std::vector<Vec3> pairHistory;
    std::vector<Vec3> wallHistory;
    std::vector<Vec3> positionsAtBuild;
    std::vector<double> limit2;
    std::size_t rebuilds = 0;
  };
  Saved save() const;
  void restore(const Saved& saved);

 private:
  // Output of one block of pebbles [begin, end), concatenated in block order.
  struct Block {
    std::vector<PebblePair> pairs;
    std::vector<Vec3> history;
    std::vector<WallPair> wallPairs;
    std::vector<Vec3> wallHistory;
    std::vector<std::uint32_t> partners;  // scratch, kept to avoid allocating in rebuilds
  };
  static constexpr std::size_t kBlockSize = 1024;
  // The cell grid of one rebuild: origin, cell edges (equal on open axes, the box length over the
  // cell count on periodic ones) [m], cells per axis.
  struct Grid {
    Vec3 lower = Vec3::Zero();
    Vec3 cell = Vec3::Ones();
    Eigen::Array3i dims = Eigen::Array3i::Ones();
  };
  Grid openGrid(const std::vector<Vec3>& pos, double cell) const;
  Grid periodicGrid(const std::vector<Vec3>& wrapped, double cell, const PeriodicBox& box) const;
  template <bool kPeriodic>
  void buildBlock(std::size_t blockIndex, const Grid& grid, const PeriodicBox& box,
                  const std::vector<Vec3>& pos, const std::vector<double>& radii,
                  const std::vector<std::uint32_t>& pebbleBody, const std::vector<Wall>& walls,
                  const std::vector<double>& halfLengths, double maxRadius);

  double skin_ = 0.0;
  std::vector<PebblePair> pairs_;
  std::vector<WallPair> wallPairs_;
  std::vector<Vec3> pairHistory_;
  std::vector<Vec3> wallHistory_;
  std::vector<Vec3> positionsAtBuild_;
  std::vector<double> limit2_;  // squared displacement limit per pebble [m^2]
  std::size_t rebuilds_ = 0;
  // Scratch (kept to avoid reallocating): the cell list, pebble data in cell order, the previous
  // lists for the history merge, and per-block outputs.
  std::vector<std::uint32_t> cellStart_, cellOf_, sorted_, sortedBody_;
  std::vector<Vec3> sortedPos_;
  std::vector<Vec3> wrapped_;  // periodic rebuilds: positions wrapped into the box (binning only)
  std::vector<double> sortedRadius_;
  std::vector<PebblePair> oldPairs_;
  std::vector<WallPair> oldWallPairs_;
  std::vector<Vec3> oldHistory_, oldWallHistory_;
  std::vector<Block> blocks_;
};

}  // namespace clumplab
