#include "core/NeighborList.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clumplab {

namespace {
bool pairLess(const PebblePair& x, const PebblePair& y) {
  return x.a != y.a ? x.a < y.a : x.b < y.b;
}
bool wallPairLess(const WallPair& x, const WallPair& y) {
  if (x.pebble != y.pebble) return x.pebble < y.pebble;
  return x.wall != y.wall ? x.wall < y.wall : x.end < y.end;
}
bool sameWallPair(const WallPair& x, const WallPair& y) {
  return x.pebble == y.pebble && x.wall == y.wall && x.end == y.end;
}
// Displacement limits are shrunk by this factor against rounding in positions and distances.
constexpr double kLimitSafety = 0.999;
}  // namespace

bool NeighborList::needsRebuild(const std::vector<Vec3>& pebblePositions) const {
  if (!builtFor(pebblePositions.size())) return true;
  for (std::size_t i = 0; i < pebblePositions.size(); ++i) {
    if (movedTooFar(i, pebblePositions[i])) return true;
  }
  return false;
}

void NeighborList::rebuild(const std::vector<Vec3>& pos, const std::vector<double>& radii,
                           const std::vector<std::uint32_t>& pebbleBody, const std::vector<Wall>& walls,
                           ThreadPool* pool, const std::vector<double>& halfLengths) {
  ++rebuilds_;
  // The previous lists (sorted) are merged into the new ones to carry the history over.
  oldPairs_.swap(pairs_);
  oldHistory_.swap(pairHistory_);
  oldWallPairs_.swap(wallPairs_);
  oldWallHistory_.swap(wallHistory_);
  positionsAtBuild_ = pos;
  const std::size_t n = pos.size();
  limit2_.resize(n);
  if (n == 0) {
    pairs_.clear();
    pairHistory_.clear();
    wallPairs_.clear();
    wallHistory_.clear();
    return;
  }

  // Reach of each pebble: its radius, plus half its shaft for a spherocylinder.
  const bool capsules = !halfLengths.empty();
  const auto reachOf = [&](std::size_t i) { return capsules ? radii[i] + halfLengths[i] : radii[i]; };
  double maxRadius = 0.0;
  Vec3 lower = pos[0], upper = pos[0];
  for (std::size_t i = 0; i < n; ++i) {
    maxRadius = std::max(maxRadius, reachOf(i));
    lower = lower.cwiseMin(pos[i]);
    upper = upper.cwiseMax(pos[i]);
  }
  // Cells at least as wide as the largest interaction range; widened if the box is very sparse
  // (a body flung far away must not make the grid huge).
  double cell = 2.0 * maxRadius + skin_;
  const Vec3 extent = (upper - lower).cwiseMax(Vec3::Constant(1e-12));
  const double maxCells = 8.0 * static_cast<double>(n) + 1024.0;
  while (((extent / cell).array().floor() + 1.0).prod() > maxCells) cell *= 1.5;
  const Eigen::Array3i dims = ((extent / cell).array().floor() + 1.0).cast<int>();
  const std::size_t cellCount = static_cast<std::size_t>(dims.prod());

  // Counting sort of pebbles by cell, with their data copied in cell order.
  cellStart_.assign(cellCount + 1, 0);
  cellOf_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Array3i c = ((pos[i] - lower) / cell).array().floor().cast<int>().max(0).min(dims - 1);
    cellOf_[i] = static_cast<std::uint32_t>((c.z() * dims.y() + c.y()) * dims.x() + c.x());
    ++cellStart_[cellOf_[i] + 1];
  }
  for (std::size_t c = 0; c < cellCount; ++c) cellStart_[c + 1] += cellStart_[c];
  sorted_.resize(n);
  sortedPos_.resize(n);
  sortedRadius_.resize(n);
  sortedBody_.resize(n);
  for (std::size_t i = n; i-- > 0;) {
    const std::uint32_t s = --cellStart_[cellOf_[i] + 1];  // ends up as the start of the next cell
    sorted_[s] = static_cast<std::uint32_t>(i);
    sortedPos_[s] = pos[i];
    sortedRadius_[s] = reachOf(i);
    sortedBody_[s] = pebbleBody[i];
  }
  // cellStart_[c + 1] now holds the start of cell c; shift to the usual layout.
  for (std::size_t c = 0; c < cellCount; ++c) cellStart_[c] = cellStart_[c + 1];
  cellStart_[cellCount] = static_cast<std::uint32_t>(n);

  const double skin = skin_;
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t blockCount = (n + kBlockSize - 1) / kBlockSize;
  if (blocks_.size() < blockCount) blocks_.resize(blockCount);

  const auto buildBlock = [&](std::size_t blockIndex) {
    Block& out = blocks_[blockIndex];
    out.pairs.clear();
    out.history.clear();
    out.wallPairs.clear();
    out.wallHistory.clear();
    const std::size_t begin = blockIndex * kBlockSize, end = std::min(n, begin + kBlockSize);
    auto oldPair = std::lower_bound(oldPairs_.begin(), oldPairs_.end(),
                                    PebblePair{static_cast<std::uint32_t>(begin), 0}, pairLess);
    auto oldWall = std::lower_bound(oldWallPairs_.begin(), oldWallPairs_.end(),
                                    WallPair{static_cast<std::uint32_t>(begin), 0}, wallPairLess);
    std::vector<std::uint32_t>& partners = out.partners;
    for (std::size_t i = begin; i < end; ++i) {
      const Vec3& p = pos[i];
      const double r = reachOf(i);
      const std::uint32_t body = pebbleBody[i];
      const std::uint32_t ci = cellOf_[i];
      const auto dx = static_cast<std::uint32_t>(dims.x()), dy = static_cast<std::uint32_t>(dims.y());
      const int cx = static_cast<int>(ci % dx);
      const int cy = static_cast<int>((ci / dx) % dy);
      const int cz = static_cast<int>(ci / (dx * dy));
      // Distance to the faces of the 3x3x3 block searched; no pebble lies beyond the grid's faces.
      double reach = inf;
      const Eigen::Array3i c(cx, cy, cz);
      for (int axis = 0; axis < 3; ++axis) {
        if (c[axis] > 0) reach = std::min(reach, p[axis] - (lower[axis] + (c[axis] - 1) * cell));
        if (c[axis] + 1 < dims[axis]) reach = std::min(reach, lower[axis] + (c[axis] + 2) * cell - p[axis]);
      }
      double nearestExcluded2 = inf;
      partners.clear();
      const int x0 = std::max(cx - 1, 0), x1 = std::min(cx + 1, dims.x() - 1);
      for (int z = std::max(cz - 1, 0); z <= std::min(cz + 1, dims.z() - 1); ++z) {
        for (int y = std::max(cy - 1, 0); y <= std::min(cy + 1, dims.y() - 1); ++y) {
          const auto row = static_cast<std::size_t>(z * dims.y() + y) * static_cast<std::size_t>(dims.x());
          const std::uint32_t sEnd = cellStart_[row + static_cast<std::size_t>(x1) + 1];
          for (std::uint32_t s = cellStart_[row + static_cast<std::size_t>(x0)]; s < sEnd; ++s) {
            if (sortedBody_[s] == body) continue;
            const double d2 = (sortedPos_[s] - p).squaredNorm();
            const double range = r + sortedRadius_[s] + skin;
            if (d2 < range * range) {
              if (sorted_[s] > i) partners.push_back(sorted_[s]);
            } else {
              nearestExcluded2 = std::min(nearestExcluded2, d2);
            }
          }
        }
      }
      // Every unlisted partner is at least `margin` beyond touching (a lower bound using maxRadius).
      const double margin = std::max(skin, std::min(reach, std::sqrt(nearestExcluded2)) - r - maxRadius);
      double limit = 0.5 * margin;

      std::sort(partners.begin(), partners.end());
      for (const std::uint32_t j : partners) {
        const PebblePair pair{static_cast<std::uint32_t>(i), j};
        while (oldPair != oldPairs_.end() && pairLess(*oldPair, pair)) ++oldPair;
        const bool kept = oldPair != oldPairs_.end() && oldPair->a == pair.a && oldPair->b == pair.b;
        out.pairs.push_back(pair);
        out.history.push_back(kept ? oldHistory_[static_cast<std::size_t>(oldPair - oldPairs_.begin())]
                                   : Vec3::Zero());
      }

      for (std::size_t w = 0; w < walls.size(); ++w) {
        if (walls[w].passes(radii[i])) continue;  // never touches: no pair and no limit
        const double clearance = walls[w].clearance(p) - r;
        if (clearance >= skin) {
          limit = std::min(limit, clearance);
          continue;
        }
        const std::uint32_t ends = capsules && halfLengths[i] > 0.0 ? 2 : 1;
        for (std::uint32_t e = 0; e < ends; ++e) {
          const WallPair pair{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(w), e};
          while (oldWall != oldWallPairs_.end() && wallPairLess(*oldWall, pair)) ++oldWall;
          const bool kept = oldWall != oldWallPairs_.end() && sameWallPair(*oldWall, pair);
          out.wallPairs.push_back(pair);
          out.wallHistory.push_back(
              kept ? oldWallHistory_[static_cast<std::size_t>(oldWall - oldWallPairs_.begin())]
                   : Vec3::Zero());
        }
      }
      limit *= kLimitSafety;
      limit2_[i] = limit * limit;
    }
  };
  if (pool != nullptr) {
    pool->run(blockCount, buildBlock);
  } else {
    for (std::size_t b = 0; b < blockCount; ++b) buildBlock(b);
  }

  std::size_t pairCount = 0, wallCount = 0;
  for (std::size_t b = 0; b < blockCount; ++b) {
    pairCount += blocks_[b].pairs.size();
    wallCount += blocks_[b].wallPairs.size();
  }
  pairs_.resize(pairCount);
  pairHistory_.resize(pairCount);
  wallPairs_.resize(wallCount);
  wallHistory_.resize(wallCount);
  std::size_t pairAt = 0, wallAt = 0;
  for (std::size_t b = 0; b < blockCount; ++b) {
    const Block& block = blocks_[b];
    std::copy(block.pairs.begin(), block.pairs.end(), pairs_.begin() + static_cast<std::ptrdiff_t>(pairAt));
    std::copy(block.history.begin(), block.history.end(),
              pairHistory_.begin() + static_cast<std::ptrdiff_t>(pairAt));
    std::copy(block.wallPairs.begin(), block.wallPairs.end(),
              wallPairs_.begin() + static_cast<std::ptrdiff_t>(wallAt));
    std::copy(block.wallHistory.begin(), block.wallHistory.end(),
              wallHistory_.begin() + static_cast<std::ptrdiff_t>(wallAt));
    pairAt += block.pairs.size();
    wallAt += block.wallPairs.size();
  }
}

void NeighborList::removePebbles(std::uint32_t first, std::uint32_t count) {
  const std::uint32_t end = first + count;
  const auto gone = [&](std::uint32_t p) { return p >= first && p < end; };
  const auto renumbered = [&](std::uint32_t p) { return p >= end ? p - count : p; };
  std::size_t kept = 0;
  for (std::size_t k = 0; k < pairs_.size(); ++k) {
    const PebblePair pair = pairs_[k];
    if (gone(pair.a) || gone(pair.b)) continue;
    pairs_[kept] = {renumbered(pair.a), renumbered(pair.b)};  // a < b and the order survive
    pairHistory_[kept] = pairHistory_[k];
    ++kept;
  }
  pairs_.erase(pairs_.begin() + static_cast<std::ptrdiff_t>(kept), pairs_.end());
  pairHistory_.erase(pairHistory_.begin() + static_cast<std::ptrdiff_t>(kept), pairHistory_.end());
  kept = 0;
  for (std::size_t k = 0; k < wallPairs_.size(); ++k) {
    const WallPair pair = wallPairs_[k];
    if (gone(pair.pebble)) continue;
    wallPairs_[kept] = {renumbered(pair.pebble), pair.wall, pair.end};
    wallHistory_[kept] = wallHistory_[k];
    ++kept;
  }
  wallPairs_.erase(wallPairs_.begin() + static_cast<std::ptrdiff_t>(kept), wallPairs_.end());
  wallHistory_.erase(wallHistory_.begin() + static_cast<std::ptrdiff_t>(kept), wallHistory_.end());
  if (end <= positionsAtBuild_.size()) {
    positionsAtBuild_.erase(positionsAtBuild_.begin() + first, positionsAtBuild_.begin() + end);
    limit2_.erase(limit2_.begin() + first, limit2_.begin() + end);
  } else {
    positionsAtBuild_.clear();  // no valid list: the next evaluation builds one
    limit2_.clear();
  }
}

NeighborList::Saved NeighborList::save() const {
  return {skin_, pairs_, wallPairs_, pairHistory_, wallHistory_, positionsAtBuild_, limit2_, rebuilds_};
}

void NeighborList::restore(const Saved& saved) {
  skin_ = saved.skin;
  pairs_ = saved.pairs;
  wallPairs_ = saved.wallPairs;
  pairHistory_ = saved.pairHistory;
  wallHistory_ = saved.wallHistory;
  positionsAtBuild_ = saved.positionsAtBuild;
  limit2_ = saved.limit2;
  rebuilds_ = saved.rebuilds;
}

}  // namespace clumplab
