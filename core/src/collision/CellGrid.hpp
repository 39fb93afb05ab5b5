#pragma once
// A uniform grid of cells over a set of points, as a compressed list (the points of cell c are
// item[start[c]] .. item[start[c + 1] - 1], in ascending point order), and the box searches of the
// broad phase over it: which cells a search of half-width h about x visits, and how far every point
// it does not visit is at least. Open axes span the points' extent; a periodic axis spans the
// primary box exactly (positions are binned wrapped into it).
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "core/base/Math.hpp"
#include "core/base/PeriodicBox.hpp"

namespace clumplab {

struct CellGrid {
  Vec3 lower = Vec3::Zero();  // origin [m]
  Vec3 cell = Vec3::Ones();   // edge per axis [m] (the box length over the cell count on periodic axes)
  Eigen::Array3i dims = Eigen::Array3i::Ones();
  std::vector<std::uint32_t> start;  // cellCount() + 1 entries
  std::vector<std::uint32_t> item;   // point indices in cell order

  // Bins `points` (inside the primary box on periodic axes) into cells at least `minCell` [m] wide.
  // Cells are widened when there would be more than 8 per point (a far-flung point must not make
  // the grid huge).
  void build(const std::vector<Vec3>& points, double minCell, const PeriodicBox& box);

  std::size_t cellCount() const { return static_cast<std::size_t>(dims.prod()); }
  // Cell coordinate of x along `axis`, not clamped to the grid.
  int coordinate(const Vec3& x, int axis) const;
  std::size_t index(int x, int y, int z) const {
    return (static_cast<std::size_t>(z) * static_cast<std::size_t>(dims.y()) + static_cast<std::size_t>(y)) *
               static_cast<std::size_t>(dims.x()) +
           static_cast<std::size_t>(x);
  }
};

// The cells a search visits along one axis: at most two runs of cell coordinates (two where the
// search wraps around a periodic axis), and a lower bound on the distance [m] from the searched
// position to any point binned in a cell the search does not visit (along this axis; infinity when
// it visits the whole axis).
struct AxisSearch {
  int runs = 0;
  std::array<std::pair<int, int>, 2> run{};  // inclusive [first, last]
  double unvisited = 0.0;
};

// The search of every point within `halfWidth` [m] of x (x inside the primary box on periodic axes)
// along `axis`. The caller pads halfWidth against rounding.
AxisSearch searchAxis(const CellGrid& grid, const PeriodicBox& box, const Vec3& x, double halfWidth,
                      int axis);

// Calls visit(first, last) (positions into grid.item, half open) for each contiguous row of cells a
// search of half-widths `halfWidth` [m] (per axis) about x covers, and returns per axis a lower bound
// on the distance [m] along that axis from x to every point in a cell it does not cover (a point it
// does not cover is at least that far along at least one axis).
template <class Visit>
Vec3 searchCells(const CellGrid& grid, const PeriodicBox& box, const Vec3& x, const Vec3& halfWidth,
                 Visit&& visit) {
  std::array<AxisSearch, 3> s;
  Vec3 unvisited;
  for (int a = 0; a < 3; ++a) {
    s[a] = searchAxis(grid, box, x, halfWidth[a], a);
    unvisited[a] = s[a].unvisited;
  }
  for (int rz = 0; rz < s[2].runs; ++rz) {
    for (int z = s[2].run[rz].first; z <= s[2].run[rz].second; ++z) {
      for (int ry = 0; ry < s[1].runs; ++ry) {
        for (int y = s[1].run[ry].first; y <= s[1].run[ry].second; ++y) {
          for (int rx = 0; rx < s[0].runs; ++rx) {
            visit(grid.start[grid.index(s[0].run[rx].first, y, z)],
                  grid.start[grid.index(s[0].run[rx].second, y, z) + 1]);
          }
        }
      }
    }
  }
  return unvisited;
}

}  // namespace clumplab
