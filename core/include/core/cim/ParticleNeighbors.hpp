#pragma once
// The Verlet neighbour list of the cluster integration method (Meland et al., Cluster integration method):
// for each particle the particles whose surfaces are closer than the buffer Delta and the walls closer than
// Delta, built with a cell list. Pairs are stored twice (j in i's list and i in j's), which is what lets the
// clusters be found by a simple graph search; walls appear as negative entries -1 - w.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/base/Math.hpp"
#include "core/base/MemoryBytes.hpp"
#include "core/base/PeriodicBox.hpp"

namespace clumplab::cim {

// Compressed rows: neighbours of particle i are entries[offsets[i] .. offsets[i + 1]), particles
// first in ascending index order, then walls in ascending wall order.
struct NeighborCsr {
  std::vector<std::uint32_t> offsets = {0};  // particleCount + 1
  std::vector<std::int32_t> entries;
  // The listed particle pairs whose surfaces overlap (distance below 0), i < j, ascending: what the
  // cluster integration's guard against a missed contact looks at.
  struct Overlap {
    std::uint32_t i = 0, j = 0;
    double depth = 0.0;  // [m], > 0
  };
  std::vector<Overlap> overlaps;
  std::size_t memoryBytes() const {  // [bytes], as a copy holds it
    return elementBytes(offsets) + elementBytes(entries) + elementBytes(overlaps);
  }

  static constexpr std::int32_t wallEntry(std::uint32_t wall) { return -1 - static_cast<std::int32_t>(wall); }
  static constexpr bool isWall(std::int32_t entry) { return entry < 0; }
  static constexpr std::uint32_t wallIndex(std::int32_t entry) {
    return static_cast<std::uint32_t>(-1 - entry);
  }

  std::size_t particleCount() const { return offsets.size() - 1; }
  std::span<const std::int32_t> of(std::size_t i) const {
    return {entries.data() + offsets[i], entries.data() + offsets[i + 1]};
  }
  std::size_t pairCount() const;  // distinct particle pairs (each stored twice)
};

struct NeighborQuery {
  std::span<const Vec3> positions;  // centroids [m] (may lie outside the periodic box)
  // Per particle, the radius of a ball about its centroid that holds the whole particle [m]
  // (r + l/2 for a spherocylinder, the bounding radius for a clump).
  std::span<const double> reach;
  double buffer = 0.0;  // Delta [m]
  PeriodicBox box;
  // Shortest surface-to-surface distance of particles i and j [m] (negative when they overlap), given
  // the minimum-image separation of their centroids x_j - x_i. Called only for pairs whose balls of
  // `reach` come within `buffer`, once per pair with i < j.
  std::function<double(std::uint32_t i, std::uint32_t j, const Vec3& separation)> surfaceDistance;
  std::size_t wallCount = 0;
  // Distance of particle i's surface from wall w [m] (negative when it penetrates); every
  // particle-wall combination is asked.
  std::function<double(std::uint32_t i, std::uint32_t wall)> wallDistance;
};

// Lists every pair with surface distance below `buffer` and every particle-wall pair with
// distance below `buffer`. The result depends only on the query (not on the cell layout's
// iteration order). Throws std::invalid_argument when a periodic length is shorter than twice the
// largest interaction range 2 max(reach) + buffer (the minimum image would not be unique).
NeighborCsr buildNeighborList(const NeighborQuery& query);

}  // namespace clumplab::cim
