#pragma once
// What a clump costs in a pile: the time step it allows and the simulated seconds per wall second a
// pile of such clumps reaches, estimated before any run (the clump wizard's fill page, `fill` on the
// command line) from the benchmark's cost per body and per pebble.
#include <string>

#include "core/clump/ClumpTemplate.hpp"
#include "core/collision/ContactModel.hpp"

namespace clumplab {

// Wall seconds per step on one core, for a body and for each of its pebbles, in a settled pile: the
// shared benchmark scene tbar-bulk (1000 T-bars of 10 pebbles) ran 20 000 steps in 11.9 s on one
// thread (docs/performance.md, `tests/bench/liggghts_side_by_side.py`), 6.0e-7 s per body-step, of
// which the body stage (integration) was 9.5e-8 s; the rest, 5.0e-8 s per pebble, is placement, broad
// phase, contacts and the force reduction of pebbles that all touch a neighbour. A pebble wholly
// inside the others of its clump never touches anything: it costs its placement, 2.3e-9 s (tbar-bulk's
// pebble stage, `clumplab-cli bench`). A loose pile, where few pebbles touch, runs several times
// faster than this estimate (tests/bench/fill/pile_speed.py): it is the safe side.
inline constexpr double kBodyStepSeconds = 9.5e-8;
inline constexpr double kPebbleStepSeconds = 5.0e-8;
inline constexpr double kBuriedPebbleStepSeconds = 2.3e-9;

// `clump` in a pile of `bodies` copies under `law`: the recommended and critical steps World::timeSteps
// would give a world of these clumps, and the rate.
PileCost estimatePileCost(const ClumpTemplate& clump, const ContactModel& law, int bodies = 100);

// The pebbles of `clump` not wholly inside the union of the others (their surface sampled at 64
// points): the only ones that can touch another body or a wall.
int exposedPebbleCount(const ClumpTemplate& clump);

// A contact law in a few words ("linear, kn 1e+06 N/m, e 0.35").
std::string describeContactLaw(const ContactModel& law);

}  // namespace clumplab
