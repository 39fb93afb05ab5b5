#include "core/cim/Clusters.hpp"

#include <algorithm>
#include <limits>

namespace clumplab::cim {

std::size_t Clusters::freeCount() const {
  return static_cast<std::size_t>(std::count(isFree.begin(), isFree.end(), std::uint8_t{1}));
}

std::size_t Clusters::largestSize() const {
  std::size_t largest = 0;
  for (std::size_t c = 0; c < count(); ++c)
    largest = std::max<std::size_t>(largest, offsets[c + 1] - offsets[c]);
  return largest;
}

Clusters findClusters(const NeighborCsr& neighbors) {
  constexpr std::uint32_t kUnvisited = std::numeric_limits<std::uint32_t>::max();
  const std::size_t n = neighbors.particleCount();
  Clusters result;
  result.clusterOf.assign(n, kUnvisited);
  result.members.reserve(n);
  std::vector<std::uint32_t> stack;
  for (std::uint32_t seed = 0; seed < n; ++seed) {
    if (result.clusterOf[seed] != kUnvisited) continue;
    const auto cluster = static_cast<std::uint32_t>(result.count());
    const std::size_t first = result.members.size();
    result.clusterOf[seed] = cluster;
    stack.assign(1, seed);
    while (!stack.empty()) {
      const std::uint32_t i = stack.back();
      stack.pop_back();
      result.members.push_back(i);
      for (const std::int32_t e : neighbors.of(i)) {
        if (NeighborCsr::isWall(e)) continue;
        const auto j = static_cast<std::uint32_t>(e);
        if (result.clusterOf[j] != kUnvisited) continue;
        result.clusterOf[j] = cluster;
        stack.push_back(j);
      }
    }
    std::sort(result.members.begin() + static_cast<std::ptrdiff_t>(first), result.members.end());
    result.offsets.push_back(static_cast<std::uint32_t>(result.members.size()));
    const bool single = result.members.size() - first == 1;
    result.isFree.push_back(single && neighbors.of(seed).empty() ? 1 : 0);
  }
  return result;
}

}  // namespace clumplab::cim
