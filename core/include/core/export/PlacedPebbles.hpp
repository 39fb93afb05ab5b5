#pragma once
// Every pebble of the world placed from the current body state (centre x + q p, shaft axis q u),
// body by body in template order, as the outputs need it. WorldState::pebbles is the force stage's
// copy: placed at the start of a step (so one step behind after step() returns), and unplaced in
// a world that has not stepped yet.
#include <vector>

#include "core/clump/BodyState.hpp"
#include "core/clump/ClumpTemplate.hpp"
#include "core/collision/ContactSolver.hpp"

namespace clumplab {

// `axis` and `halfLength` are filled only if some pebble is a spherocylinder (as in PebbleArrays).
PebbleArrays placedPebbles(const BodyState& bodies, const std::vector<TemplatePtr>& templates);

}  // namespace clumplab
