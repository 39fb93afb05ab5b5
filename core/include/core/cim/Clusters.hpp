#pragma once
// Clusters of the cluster integration method (Melheim 2005; Meland et al., Cluster integration method): the
// connected components of the particle neighbour graph (pairs closer than the buffer Delta). Particles of
// different clusters are at least Delta apart, so each cluster can be integrated on its own for as long as no
// particle moves Delta/2 (ClusterLifetime.hpp). The paper's recursive search runs here with an explicit
// stack, so a long chain of touching particles cannot overflow the call stack.
#include <cstdint>
#include <span>
#include <vector>

#include "core/base/MemoryBytes.hpp"
#include "core/cim/ParticleNeighbors.hpp"

namespace clumplab::cim {

struct Clusters {
  // Members of cluster c: members[offsets[c] .. offsets[c + 1]), ascending. Clusters are numbered
  // in the order of their lowest particle index.
  std::vector<std::uint32_t> offsets = {0};
  std::vector<std::uint32_t> members;
  std::vector<std::uint32_t> clusterOf;  // per particle
  // Per cluster: a single particle with no neighbour at all (no particle, no wall). Such a
  // particle moves analytically (FreeMotion.hpp); a lone particle near a wall is integrated.
  std::vector<std::uint8_t> isFree;
  std::size_t memoryBytes() const {  // [bytes], as a copy holds it
    return elementBytes(offsets) + elementBytes(members) + elementBytes(clusterOf) + elementBytes(isFree);
  }

  std::size_t count() const { return offsets.size() - 1; }
  std::span<const std::uint32_t> membersOf(std::size_t c) const {
    return {members.data() + offsets[c], members.data() + offsets[c + 1]};
  }
  std::size_t freeCount() const;
  std::size_t largestSize() const;
};

Clusters findClusters(const NeighborCsr& neighbors);

}  // namespace clumplab::cim
