#include "core/cim/ParticleNeighbors.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "base/FiniteBounds.hpp"

namespace clumplab::cim {

std::size_t NeighborCsr::pairCount() const {
  std::size_t count = 0;
  for (const std::int32_t e : entries) count += isWall(e) ? 0 : 1;
  return count / 2;
}

namespace {

// A uniform grid over the particles' (wrapped) centroids with cells at least `side` wide.
struct CellGrid {
  std::array<int, 3> count = {1, 1, 1};
  Vec3 lower = Vec3::Zero();
  Vec3 cellSize = Vec3::Ones();
  std::array<bool, 3> periodic = {false, false, false};

  int cellOf(const Vec3& p) const {
    std::array<int, 3> c{};
    for (int a = 0; a < 3; ++a) c[a] = clampedCell((p[a] - lower[a]) / cellSize[a], count[a]);
    return (c[2] * count[1] + c[1]) * count[0] + c[0];
  }
  int total() const { return count[0] * count[1] * count[2]; }

  // The distinct cells within one cell of `cell` (wrapping on periodic axes), ascending.
  void neighbours(int cell, std::vector<int>& out) const {
    const int cx = cell % count[0], cy = (cell / count[0]) % count[1], cz = cell / (count[0] * count[1]);
    out.clear();
    for (int dz = -1; dz <= 1; ++dz) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          std::array<int, 3> c = {cx + dx, cy + dy, cz + dz};
          bool inside = true;
          for (int a = 0; a < 3; ++a) {
            if (c[a] >= 0 && c[a] < count[a]) continue;
            if (periodic[a]) {
              c[a] = (c[a] + count[a]) % count[a];
            } else {
              inside = false;
            }
          }
          if (inside) out.push_back((c[2] * count[1] + c[1]) * count[0] + c[0]);
        }
      }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
};

CellGrid makeGrid(const std::vector<Vec3>& wrapped, const PeriodicBox& box, double side) {
  CellGrid grid;
  grid.periodic = box.periodic;
  Vec3 extent = Vec3::Zero();
  if (!wrapped.empty()) {
    const FiniteBounds bounds = finiteBounds(wrapped);  // a NaN or an infinity is binned at an edge
    grid.lower = bounds.lower;
    extent = bounds.extent();
  }
  for (int a = 0; a < 3; ++a) {
    if (box.periodic[a]) {
      grid.lower[a] = box.lower[a];
      extent[a] = box.length[a];
    }
  }
  // At most about 4 cells per particle (and 27): sparse particles spread far apart would otherwise
  // make a huge, empty grid.
  const double maxCells = std::max(27.0, 4.0 * static_cast<double>(wrapped.size()));
  for (;;) {
    double cells = 1.0;
    for (int a = 0; a < 3; ++a) {
      grid.count[a] =
          side > 0.0 ? std::max(1, static_cast<int>(std::min(1e6, std::floor(extent[a] / side)))) : 1;
      cells *= grid.count[a];
    }
    if (cells <= maxCells) break;
    side *= 1.5;
  }
  for (int a = 0; a < 3; ++a) {
    grid.cellSize[a] = extent[a] > 0.0 ? extent[a] / grid.count[a] : 1.0;
  }
  return grid;
}

}  // namespace

NeighborCsr buildNeighborList(const NeighborQuery& q) {
  const std::size_t n = q.positions.size();
  if (q.reach.size() != n) throw std::invalid_argument("buildNeighborList: one reach per particle needed");
  NeighborCsr csr;
  csr.offsets.assign(n + 1, 0);
  if (n == 0) return csr;

  const double maxReach = *std::max_element(q.reach.begin(), q.reach.end());
  const double range = 2.0 * maxReach + q.buffer;  // largest centroid distance of a listed pair
  for (int a = 0; a < 3; ++a) {
    if (q.box.periodic[a] && !(q.box.length[a] >= 2.0 * range)) {
      throw std::invalid_argument("buildNeighborList: periodic length " + std::to_string(q.box.length[a]) +
                                  " m below twice the interaction range " + std::to_string(range) + " m");
    }
  }

  std::vector<Vec3> wrapped(n);
  for (std::size_t i = 0; i < n; ++i) wrapped[i] = q.box.wrap(q.positions[i]);
  const CellGrid grid = makeGrid(wrapped, q.box, range);

  // Counting sort of the particles by cell.
  const int cells = grid.total();
  std::vector<std::uint32_t> cellStart(static_cast<std::size_t>(cells) + 1, 0), sorted(n);
  std::vector<int> cellOf(n);
  for (std::size_t i = 0; i < n; ++i) {
    cellOf[i] = grid.cellOf(wrapped[i]);
    ++cellStart[static_cast<std::size_t>(cellOf[i]) + 1];
  }
  for (int c = 0; c < cells; ++c) cellStart[c + 1] += cellStart[c];
  {
    std::vector<std::uint32_t> fill(cellStart.begin(), cellStart.end() - 1);
    for (std::size_t i = 0; i < n; ++i) sorted[fill[cellOf[i]]++] = static_cast<std::uint32_t>(i);
  }

  // Each unordered pair is examined once: from its lower index, the cells being mutual neighbours.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  std::vector<int> near;
  for (int c = 0; c < cells; ++c) {
    if (cellStart[c] == cellStart[c + 1]) continue;
    grid.neighbours(c, near);
    for (std::uint32_t s = cellStart[c]; s < cellStart[c + 1]; ++s) {
      const std::uint32_t i = sorted[s];
      for (const int nc : near) {
        for (std::uint32_t u = cellStart[nc]; u < cellStart[nc + 1]; ++u) {
          const std::uint32_t j = sorted[u];
          if (j <= i) continue;
          const Vec3 separation = q.box.minimumImage(q.positions[j] - q.positions[i]);
          const double reachSum = q.reach[i] + q.reach[j] + q.buffer;
          if (separation.squaredNorm() >= reachSum * reachSum) continue;
          const double distance = q.surfaceDistance(i, j, separation);
          if (distance < q.buffer) pairs.emplace_back(i, j);
          if (distance < 0.0) csr.overlaps.push_back({i, j, -distance});
        }
      }
    }
  }

  // Walls: every particle against every wall (walls are few).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> wallPairs;
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t w = 0; w < q.wallCount; ++w) {
      if (q.wallDistance(i, w) < q.buffer) wallPairs.emplace_back(i, w);
    }
  }

  // Compressed rows, each pair stored twice; rows sorted so the layout of cells does not show.
  std::vector<std::uint32_t>& off = csr.offsets;
  for (const auto& [i, j] : pairs) {
    ++off[i + 1];
    ++off[j + 1];
  }
  for (const auto& wp : wallPairs) ++off[wp.first + 1];
  for (std::size_t i = 0; i < n; ++i) off[i + 1] += off[i];
  csr.entries.resize(off[n]);
  std::vector<std::uint32_t> fill(off.begin(), off.end() - 1);
  for (const auto& [i, j] : pairs) {
    csr.entries[fill[i]++] = static_cast<std::int32_t>(j);
    csr.entries[fill[j]++] = static_cast<std::int32_t>(i);
  }
  for (std::size_t i = 0; i < n; ++i) {
    std::sort(csr.entries.begin() + off[i], csr.entries.begin() + fill[i]);
  }
  for (const auto& [i, w] : wallPairs) csr.entries[fill[i]++] = NeighborCsr::wallEntry(w);
  std::sort(csr.overlaps.begin(), csr.overlaps.end(),
            [](const NeighborCsr::Overlap& a, const NeighborCsr::Overlap& b) {
              return a.i != b.i ? a.i < b.i : a.j < b.j;
            });
  return csr;
}

}  // namespace clumplab::cim
