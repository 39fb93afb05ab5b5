#pragma once
// The first stage of a force evaluation: the pebbles' world positions from the bodies' poses
// (Mutze, Polyspherical grains, §4), fused with the broad phase's check of how far each moved.
#include "core/step/PebblePlacement.hpp"

namespace clumplab {

class ThreadPool;    // ThreadPool.hpp
class NeighborList;  // NeighborList.hpp

// Every body's pebbles placed (pebbles.world) at its current pose.
void placeAllPebbles(ThreadPool& pool, const BodyState& bodies, const PebblePlacement& pebbles);

// The same, and whether the neighbour list must be rebuilt: a pebble moved beyond its skin, or there
// is no list for these pebbles yet. Pebble by pebble only for bodies whose own motion cannot vouch
// for all their pebbles.
bool placePebblesAndCheckList(ThreadPool& pool, const NeighborList& neighbors, const BodyState& bodies,
                              const PebblePlacement& pebbles);

}  // namespace clumplab
