#pragma once
// The part of a world's energy report that needs no pebbles or contacts (World::energy has the rest).
#include "core/energy/Energy.hpp"

namespace clumplab {

struct WorldModel;  // WorldModel.hpp
struct WorldState;  // WorldState.hpp

// Kinetic and gravitational energy (at the continuous, unwrapped positions), momenta and the ledger
// (peElastic and peFields zero). O(bodies): for callers that want only these, every frame.
EnergyReport motionEnergy(const WorldModel& model, const WorldState& state);

}  // namespace clumplab
