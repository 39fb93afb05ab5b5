#include "CellGrid.hpp"

#include <cmath>

#include "base/FiniteBounds.hpp"

namespace clumplab {

void CellGrid::build(const std::vector<Vec3>& points, double minCell, const PeriodicBox& box) {
  const std::size_t n = points.size();
  const FiniteBounds bounds = finiteBounds(points);  // a NaN or an infinity is binned at an edge
  const Vec3 lo = bounds.lower, extent = bounds.extent().cwiseMax(Vec3::Constant(1e-12));
  const double maxCells = 8.0 * static_cast<double>(n) + 64.0;
  double c = minCell > 0.0 ? minCell : extent.maxCoeff();
  for (;;) {
    for (int a = 0; a < 3; ++a) {
      if (box.periodic[a]) {
        dims[a] = std::max(1, static_cast<int>(std::min(1e6, std::floor(box.length[a] / c))));
        lower[a] = box.lower[a];
        cell[a] = box.length[a] / dims[a];
      } else {
        // Clamped only while the loop still widens cells (the grid kept has at most maxCells).
        dims[a] = static_cast<int>(std::min(1e9, std::floor(extent[a] / c) + 1.0));
        lower[a] = lo[a];
        cell[a] = c;
      }
    }
    if (dims.cast<double>().prod() <= maxCells) break;
    c *= 1.5;
  }

  // Counting sort by cell, in place of the counts: start[c] counts the points up to cell c, then the
  // points, last first, each go just below their cell's end, which leaves start[c] the cell's first
  // and each cell in ascending point order (no second array of the cells' size).
  const std::size_t cells = cellCount();
  start.assign(cells + 1, 0);
  std::vector<std::uint32_t> cellOf(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int x = std::clamp(coordinate(points[i], 0), 0, dims.x() - 1);
    const int y = std::clamp(coordinate(points[i], 1), 0, dims.y() - 1);
    const int z = std::clamp(coordinate(points[i], 2), 0, dims.z() - 1);
    cellOf[i] = static_cast<std::uint32_t>(index(x, y, z));
    ++start[cellOf[i]];
  }
  for (std::size_t k = 0; k < cells; ++k) start[k + 1] += start[k];
  item.resize(n);
  for (std::size_t i = n; i-- > 0;) item[--start[cellOf[i]]] = static_cast<std::uint32_t>(i);
}

int CellGrid::coordinate(const Vec3& x, int axis) const {
  const double u = std::floor((x[axis] - lower[axis]) / cell[axis]);
  return std::isnan(u) ? 0 : static_cast<int>(std::clamp(u, -1e9, 1e9));  // NaN: the first cell
}

AxisSearch searchAxis(const CellGrid& grid, const PeriodicBox& box, const Vec3& x, double halfWidth,
                      int axis) {
  AxisSearch s;
  const int dims = grid.dims[axis];
  const double lower = grid.lower[axis], cell = grid.cell[axis];
  const double inf = std::numeric_limits<double>::infinity();
  const auto at = [&](double u) {
    const double k = std::floor((u - lower) / cell);
    return std::isnan(k) ? 0 : static_cast<int>(std::clamp(k, -2e9, 2e9));
  };
  const int lo = at(x[axis] - halfWidth), hi = at(x[axis] + halfWidth);
  if (box.periodic[axis]) {
    // x lies in the box; the search covers [lower + lo cell, lower + (hi + 1) cell) around it.
    if (static_cast<long long>(hi) - lo + 1 >= dims) {
      s.runs = 1;
      s.run[0] = {0, dims - 1};
      s.unvisited = inf;
      return s;
    }
    const int first = ((lo % dims) + dims) % dims, last = ((hi % dims) + dims) % dims;
    if (first <= last) {
      s.runs = 1;
      s.run[0] = {first, last};
    } else {
      s.runs = 2;
      s.run[0] = {0, last};
      s.run[1] = {first, dims - 1};
    }
    s.unvisited = std::min(x[axis] - (lower + lo * cell), lower + (hi + 1.0) * cell - x[axis]);
    return s;
  }
  // Open axis: every point lies in cells 0 .. dims - 1. The cells below the search end at
  // min(lo, dims), those above start at max(hi + 1, 0).
  const int first = std::max(lo, 0), last = std::min(hi, dims - 1);
  if (first <= last) {
    s.runs = 1;
    s.run[0] = {first, last};
  }
  s.unvisited = inf;
  if (lo > 0) s.unvisited = std::min(s.unvisited, x[axis] - (lower + std::min(lo, dims) * cell));
  if (hi < dims - 1) s.unvisited = std::min(s.unvisited, lower + std::max(hi + 1, 0) * cell - x[axis]);
  s.unvisited = std::max(s.unvisited, 0.0);
  return s;
}

}  // namespace clumplab
