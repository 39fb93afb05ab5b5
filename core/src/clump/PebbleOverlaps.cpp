// Which pebbles of a set overlap which (PebbleOverlaps.hpp).
#include "core/clump/PebbleOverlaps.hpp"

#include <algorithm>
#include <numeric>

namespace clumplab {

std::vector<std::vector<std::uint32_t>> overlappingPebbles(const std::vector<Pebble>& pebbles) {
  std::vector<std::uint32_t> order(pebbles.size());
  std::iota(order.begin(), order.end(), 0u);
  const auto low = [&](std::uint32_t n) { return pebbles[n].center.x() - pebbles[n].reach(); };
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return low(a) < low(b) || (low(a) == low(b) && a < b); });
  std::vector<std::vector<std::uint32_t>> near(pebbles.size());
  for (std::size_t a = 0; a < order.size(); ++a) {
    const Pebble& p = pebbles[order[a]];
    const double high = p.center.x() + p.reach();
    for (std::size_t b = a + 1; b < order.size() && low(order[b]) < high; ++b) {
      const Pebble& q = pebbles[order[b]];
      const double reach = p.reach() + q.reach();
      if ((p.center - q.center).squaredNorm() < reach * reach) {
        near[order[a]].push_back(order[b]);
        near[order[b]].push_back(order[a]);
      }
    }
  }
  return near;
}

}  // namespace clumplab
