#include "core/NeighborList.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace clumplab {

namespace {
std::uint64_t pairKey(std::uint32_t a, std::uint32_t b) {
  return (static_cast<std::uint64_t>(a) << 32) | b;
}
}  // namespace

bool NeighborList::needsRebuild(const std::vector<Vec3>& pebblePositions) const {
  if (positionsAtBuild_.size() != pebblePositions.size()) return true;
  const double limit2 = 0.25 * skin_ * skin_;
  for (std::size_t i = 0; i < pebblePositions.size(); ++i) {
    if ((pebblePositions[i] - positionsAtBuild_[i]).squaredNorm() > limit2) return true;
  }
  return false;
}

void NeighborList::clearHistory() {
  std::fill(pairHistory_.begin(), pairHistory_.end(), Vec3::Zero());
  std::fill(wallHistory_.begin(), wallHistory_.end(), Vec3::Zero());
}

void NeighborList::rebuild(const std::vector<Vec3>& pos, const std::vector<double>& radii,
                           const std::vector<std::uint32_t>& pebbleBody,
                           const std::vector<Wall>& walls) {
  ++rebuilds_;
  // Keep the history of pairs that carry a tangential spring.
  std::unordered_map<std::uint64_t, Vec3> oldHistory;
  for (std::size_t k = 0; k < pairs_.size(); ++k) {
    if (!pairHistory_[k].isZero(0.0)) oldHistory.emplace(pairKey(pairs_[k].a, pairs_[k].b), pairHistory_[k]);
  }
  std::unordered_map<std::uint64_t, Vec3> oldWallHistory;
  for (std::size_t k = 0; k < wallPairs_.size(); ++k) {
    if (!wallHistory_[k].isZero(0.0)) {
      oldWallHistory.emplace(pairKey(wallPairs_[k].pebble, wallPairs_[k].wall), wallHistory_[k]);
    }
  }
  pairs_.clear();
  wallPairs_.clear();
  positionsAtBuild_ = pos;
  const std::size_t n = pos.size();
  if (n == 0) {
    pairHistory_.clear();
    wallHistory_.clear();
    return;
  }

  double maxRadius = 0.0;
  Vec3 lower = pos[0], upper = pos[0];
  for (std::size_t i = 0; i < n; ++i) {
    maxRadius = std::max(maxRadius, radii[i]);
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
  const auto cellIndex = [&](const Eigen::Array3i& c) {
    return static_cast<std::size_t>((c.z() * dims.y() + c.y()) * dims.x() + c.x());
  };
  const auto cellCoords = [&](const Vec3& p) {
    Eigen::Array3i c = ((p - lower) / cell).array().floor().cast<int>();
    return c.max(0).min(dims - 1).eval();
  };
  const std::size_t cellCount = static_cast<std::size_t>(dims.prod());

  // Counting sort of pebbles by cell.
  cellStart_.assign(cellCount + 1, 0);
  cellOf_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    cellOf_[i] = static_cast<std::uint32_t>(cellIndex(cellCoords(pos[i])));
    ++cellStart_[cellOf_[i] + 1];
  }
  for (std::size_t c = 0; c < cellCount; ++c) cellStart_[c + 1] += cellStart_[c];
  sorted_.resize(n);
  {
    std::vector<std::uint32_t> fill(cellStart_.begin(), cellStart_.end() - 1);
    for (std::size_t i = 0; i < n; ++i) sorted_[fill[cellOf_[i]]++] = static_cast<std::uint32_t>(i);
  }

  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Array3i c = cellCoords(pos[i]);
    for (int dz = -1; dz <= 1; ++dz) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const Eigen::Array3i nc = c + Eigen::Array3i(dx, dy, dz);
          if ((nc < 0).any() || (nc >= dims).any()) continue;
          const std::size_t cc = cellIndex(nc);
          for (std::uint32_t s = cellStart_[cc]; s < cellStart_[cc + 1]; ++s) {
            const std::uint32_t j = sorted_[s];
            if (j <= i || pebbleBody[j] == pebbleBody[i]) continue;
            const double range = radii[i] + radii[j] + skin_;
            if ((pos[i] - pos[j]).squaredNorm() < range * range) {
              pairs_.push_back({static_cast<std::uint32_t>(i), j});
            }
          }
        }
      }
    }
  }
  // Pairs sorted by (a, b): a deterministic order independent of the cell layout.
  std::sort(pairs_.begin(), pairs_.end(),
            [](const PebblePair& x, const PebblePair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
  pairHistory_.assign(pairs_.size(), Vec3::Zero());
  if (!oldHistory.empty()) {
    for (std::size_t k = 0; k < pairs_.size(); ++k) {
      const auto it = oldHistory.find(pairKey(pairs_[k].a, pairs_[k].b));
      if (it != oldHistory.end()) pairHistory_[k] = it->second;
    }
  }

  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t w = 0; w < walls.size(); ++w) {
      if (walls[w].clearance(pos[i]) < radii[i] + skin_) {
        wallPairs_.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(w)});
      }
    }
  }
  wallHistory_.assign(wallPairs_.size(), Vec3::Zero());
  if (!oldWallHistory.empty()) {
    for (std::size_t k = 0; k < wallPairs_.size(); ++k) {
      const auto it = oldWallHistory.find(pairKey(wallPairs_[k].pebble, wallPairs_[k].wall));
      if (it != oldWallHistory.end()) wallHistory_[k] = it->second;
    }
  }
}

}  // namespace clumplab
