#include "core/NeighborList.hpp"

#include <algorithm>
#include <array>
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

NeighborList::Grid NeighborList::cellGrid(const std::vector<Vec3>& wrapped, double cell,
                                          const PeriodicBox& box) const {
  // Open axes: cells at least as wide as the largest interaction range over the positions' extent,
  // widened if the box is very sparse (a body flung far away must not make the grid huge). A
  // periodic axis holds floor(L / cell) cells exactly spanning the box, each at least `cell` wide.
  Vec3 lower = wrapped[0], upper = wrapped[0];
  for (const Vec3& p : wrapped) {
    lower = lower.cwiseMin(p);
    upper = upper.cwiseMax(p);
  }
  const Vec3 extent = (upper - lower).cwiseMax(Vec3::Constant(1e-12));
  const double maxCells = 8.0 * static_cast<double>(wrapped.size()) + 1024.0;
  Grid g;
  for (;;) {
    for (int a = 0; a < 3; ++a) {
      if (box.periodic[a]) {
        g.dims[a] = std::max(1, static_cast<int>(std::min(1e6, std::floor(box.length[a] / cell))));
        g.lower[a] = box.lower[a];
        g.cell[a] = box.length[a] / g.dims[a];
      } else {
        // Clamped only while the loop still widens cells (the grid returned has at most maxCells).
        g.dims[a] = static_cast<int>(std::min(1e9, std::floor(extent[a] / cell) + 1.0));
        g.lower[a] = lower[a];
        g.cell[a] = cell;
      }
    }
    if (g.dims.cast<double>().prod() <= maxCells) return g;
    cell *= 1.5;
  }
}

void NeighborList::rebuild(const std::vector<Vec3>& pos, const std::vector<double>& radii,
                           const std::vector<std::uint32_t>& pebbleBody, const std::vector<Wall>& walls,
                           ThreadPool* pool, const std::vector<double>& halfLengths,
                           const PeriodicBox& periodic) {
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
  for (std::size_t i = 0; i < n; ++i) maxRadius = std::max(maxRadius, reachOf(i));
  const double minCell = 2.0 * maxRadius + skin_;
  const bool isPeriodic = periodic.any();
  // Periodic: pebbles are binned by their positions wrapped into the box (a straddling body's
  // pebbles lie outside it); distances are taken by the minimum image.
  if (isPeriodic) {
    wrapped_.resize(n);
    for (std::size_t i = 0; i < n; ++i) wrapped_[i] = periodic.wrap(pos[i]);
  }
  const std::vector<Vec3>& binned = isPeriodic ? wrapped_ : pos;
  const Grid grid = cellGrid(binned, minCell, periodic);
  const Eigen::Array3i dims = grid.dims;
  const std::size_t cellCount = static_cast<std::size_t>(dims.prod());

  // Counting sort of pebbles by cell, with their data copied in cell order.
  cellStart_.assign(cellCount + 1, 0);
  cellOf_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Array3i c =
        (binned[i] - grid.lower).cwiseQuotient(grid.cell).array().floor().cast<int>().max(0).min(dims - 1);
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
    sortedPos_[s] = binned[i];
    sortedRadius_[s] = reachOf(i);
    sortedBody_[s] = pebbleBody[i];
  }
  // cellStart_[c + 1] now holds the start of cell c; shift to the usual layout.
  for (std::size_t c = 0; c < cellCount; ++c) cellStart_[c] = cellStart_[c + 1];
  cellStart_[cellCount] = static_cast<std::uint32_t>(n);

  const std::size_t blockCount = (n + kBlockSize - 1) / kBlockSize;
  if (blocks_.size() < blockCount) blocks_.resize(blockCount);
  const auto buildBlockAt = [&](std::size_t blockIndex) {
    if (isPeriodic) {
      buildBlock<true>(blockIndex, grid, periodic, binned, radii, pebbleBody, walls, halfLengths, maxRadius);
    } else {
      buildBlock<false>(blockIndex, grid, periodic, binned, radii, pebbleBody, walls, halfLengths, maxRadius);
    }
  };
  if (pool != nullptr) {
    pool->run(blockCount, buildBlockAt);
  } else {
    for (std::size_t b = 0; b < blockCount; ++b) buildBlockAt(b);
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

template <bool kPeriodic>
void NeighborList::buildBlock(std::size_t blockIndex, const Grid& grid, const PeriodicBox& box,
                              const std::vector<Vec3>& pos, const std::vector<double>& radii,
                              const std::vector<std::uint32_t>& pebbleBody, const std::vector<Wall>& walls,
                              const std::vector<double>& halfLengths, double maxRadius) {
  // `pos` are the binned positions (wrapped on periodic axes); walls see the caller's positions,
  // which differ from them by whole box lengths along periodic axes only, where walls are uniform.
  const bool capsules = !halfLengths.empty();
  const auto reachOf = [&](std::size_t i) { return capsules ? radii[i] + halfLengths[i] : radii[i]; };
  const Eigen::Array3i dims = grid.dims;
  const double skin = skin_;
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t n = pos.size();
  // Periodic axes of at most three cells: there pairs take the minimum image one by one.
  PeriodicBox fewCells = box;
  for (int a = 0; a < 3; ++a) fewCells.periodic[a] = box.periodic[a] && dims[a] <= 3;
  const bool anyFewCells = fewCells.any();
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
    // Distance to the faces of the 3x3x3 block searched; no pebble lies beyond the grid's faces. On
    // a periodic axis of at most three cells the block is the whole axis (no face); with more, a
    // pebble outside the block is at least this far along the axis in every image.
    double reach = inf;
    const Eigen::Array3i c(cx, cy, cz);
    for (int axis = 0; axis < 3; ++axis) {
      const double lo = grid.lower[axis] + (c[axis] - 1) * grid.cell[axis];
      const double hi = grid.lower[axis] + (c[axis] + 2) * grid.cell[axis];
      if (kPeriodic && box.periodic[axis]) {
        if (dims[axis] > 3) reach = std::min(reach, std::min(p[axis] - lo, hi - p[axis]));
        continue;
      }
      if (c[axis] > 0) reach = std::min(reach, p[axis] - lo);
      if (c[axis] + 1 < dims[axis]) reach = std::min(reach, hi - p[axis]);
    }
    double nearestExcluded2 = inf;
    partners.clear();
    // Lists the partners among the pebbles [sBegin, sEnd) of one cell and returns the smallest
    // squared distance of the others [m^2] (kept in a register, not in the enclosing variable).
    // `cellShift` [m]: the image of the cell's pebbles nearest p (whole box lengths where the stencil
    // wrapped around a periodic axis; zero elsewhere).
    const auto visit = [&](std::uint32_t sBegin, std::uint32_t sEnd, const Vec3& cellShift) {
      double nearest = inf;
      for (std::uint32_t s = sBegin; s < sEnd; ++s) {
        if (sortedBody_[s] == body) continue;
        double d2;
        if constexpr (kPeriodic) {
          Vec3 d = (sortedPos_[s] + cellShift) - p;
          if (anyFewCells) d = fewCells.minimumImage(d);
          d2 = d.squaredNorm();
        } else {
          (void)cellShift;
          d2 = (sortedPos_[s] - p).squaredNorm();
        }
        const double range = r + sortedRadius_[s] + skin;
        if (d2 < range * range) {
          if (sorted_[s] > i) partners.push_back(sorted_[s]);
        } else {
          nearest = std::min(nearest, d2);
        }
      }
      return nearest;
    };
    if constexpr (kPeriodic) {
      // The distinct cells within one of c along each axis, wrapping on periodic axes, and the shift
      // that brings a wrapped cell next to c. With four or more cells that image is the minimum
      // image of every pebble in it (the stencil spans less than half the box); an axis of at most
      // three cells takes the minimum image pebble by pebble instead (fewCells).
      std::array<std::array<int, 3>, 3> near{};
      std::array<std::array<double, 3>, 3> shift{};
      std::array<int, 3> count{};
      for (int axis = 0; axis < 3; ++axis) {
        for (int d = -1; d <= 1; ++d) {
          int k = c[axis] + d;
          double image = 0.0;
          if (box.periodic[axis]) {
            if (dims[axis] > 3) image = k < 0 ? -box.length[axis] : k >= dims[axis] ? box.length[axis] : 0.0;
            k = (k + dims[axis]) % dims[axis];
          } else if (k < 0 || k >= dims[axis]) {
            continue;
          }
          const auto last = near[axis].begin() + count[axis];
          if (std::find(near[axis].begin(), last, k) != last) continue;
          shift[axis][count[axis]] = image;
          near[axis][count[axis]++] = k;
        }
      }
      for (int zi = 0; zi < count[2]; ++zi) {
        for (int yi = 0; yi < count[1]; ++yi) {
          const auto row = static_cast<std::size_t>(near[2][zi] * dims.y() + near[1][yi]) *
                           static_cast<std::size_t>(dims.x());
          for (int xi = 0; xi < count[0]; ++xi) {
            const std::size_t cell = row + static_cast<std::size_t>(near[0][xi]);
            nearestExcluded2 =
                std::min(nearestExcluded2, visit(cellStart_[cell], cellStart_[cell + 1],
                                                 Vec3(shift[0][xi], shift[1][yi], shift[2][zi])));
          }
        }
      }
    } else {
      const int x0 = std::max(cx - 1, 0), x1 = std::min(cx + 1, dims.x() - 1);
      for (int z = std::max(cz - 1, 0); z <= std::min(cz + 1, dims.z() - 1); ++z) {
        for (int y = std::max(cy - 1, 0); y <= std::min(cy + 1, dims.y() - 1); ++y) {
          const auto row = static_cast<std::size_t>(z * dims.y() + y) * static_cast<std::size_t>(dims.x());
          nearestExcluded2 = std::min(
              nearestExcluded2, visit(cellStart_[row + static_cast<std::size_t>(x0)],
                                      cellStart_[row + static_cast<std::size_t>(x1) + 1], Vec3::Zero()));
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
      if (walls[w].passes(radii[i])) continue;          // never touches: no pair and no limit
      if (walls[w].kind == Wall::Kind::Mesh) continue;  // mesh walls have their own stage (MeshWallContacts)
      const double clearance = walls[w].clearance(kPeriodic ? positionsAtBuild_[i] : p) - r;
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
            kept ? oldWallHistory_[static_cast<std::size_t>(oldWall - oldWallPairs_.begin())] : Vec3::Zero());
      }
    }
    limit *= kLimitSafety;
    limit2_[i] = limit * limit;
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

void NeighborList::translatePebbles(std::uint32_t first, std::uint32_t count, const Vec3& shift) {
  if (static_cast<std::size_t>(first) + count > positionsAtBuild_.size())
    return;  // no list: the next evaluation builds one
  for (std::uint32_t i = first; i < first + count; ++i) positionsAtBuild_[i] += shift;
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
