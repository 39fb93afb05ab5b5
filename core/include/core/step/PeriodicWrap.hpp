#pragma once
// Periodic axes: each centre of mass back into the primary box by whole box lengths.
#include <cstdint>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab {

struct BodyState;     // BodyState.hpp
struct ExternalLoad;  // ExternalLoad.hpp
struct PeriodicBox;   // PeriodicBox.hpp
class ContactSolver;  // ContactSolver.hpp
class NeighborList;   // NeighborList.hpp

// What moves with a wrapped body by the same shift, so that nothing needs recomputing and the last
// forces stay current: its pebbles, the neighbour list's reference positions (a wrap neither
// triggers nor hides a rebuild), its external load points, and the contact points of its contacts
// as body A (they lie next to A; as B the shift is found again from the centres).
struct WrapFollowers {
  const std::vector<std::uint32_t>& bodyFirstPebble;
  std::vector<Vec3>& pebblePositions;  // [m], world
  std::vector<ExternalLoad>& loads;
  ContactSolver& contacts;
  NeighborList& neighbors;
};

// Wraps the bodies' centres of mass into the primary box of `box` (nothing without periodic axes);
// `wrapDisplacement` (one per body) keeps the sum of each body's shifts [m]. Bodies from `first` on.
void wrapIntoBox(const PeriodicBox& box, BodyState& bodies, std::vector<Vec3>& wrapDisplacement,
                 const WrapFollowers& followers, std::size_t first = 0);

}  // namespace clumplab
