// World's invariants, checked after every step, removal and restore in builds with
// CLUMPLAB_ASSERTIONS (core/base/Assert.hpp): the parallel arrays agree in size, indices are in range,
// masses and moments are positive and orientations are unit quaternions.
#include <cmath>

#include "core/base/Assert.hpp"
#include "core/forces/Fields.hpp"
#include "core/world/World.hpp"

namespace clumplab {

void World::checkInvariants() const {
  const BodyState& b = state_.bodies;
  const std::size_t n = b.size();
  CLUMPLAB_ASSERT(b.templateIndex.size() == n && b.mass.size() == n && b.moments.size() == n &&
                      b.orientation.size() == n && b.velocity.size() == n && b.angularVelocity.size() == n &&
                      b.force.size() == n && b.torque.size() == n && b.point.size() == n &&
                      b.blocked.size() == n,
                  "the body arrays hold one entry per body");
  CLUMPLAB_ASSERT(state_.dissipative.force.size() == n && state_.dissipative.torque.size() == n &&
                      state_.wrapDisplacement.size() == n && state_.bodyFirstPebble.size() == n,
                  "the per-body force and pebble arrays hold one entry per body");
  const std::size_t pebbleCount = state_.pebbles.position.size();
  const PebbleArrays& p = state_.pebbles;
  CLUMPLAB_ASSERT(
      p.position.size() == pebbleCount && p.radius.size() == pebbleCount && p.body.size() == pebbleCount,
      "the pebble arrays hold one entry per pebble");
  CLUMPLAB_ASSERT(!p.hasCapsules() || (p.axis.size() == pebbleCount && p.halfLength.size() == pebbleCount),
                  "with spherocylinders, every pebble carries an axis and a half length");
  CLUMPLAB_ASSERT(
      state_.wallForce.size() == model_.walls.size() && state_.wallImpulse.size() == model_.walls.size(),
      "one wall force and impulse per wall");
  for (std::size_t i = 0; i < n; ++i) {
    CLUMPLAB_ASSERT(b.templateIndex[i] < model_.templates.size(), "a body's template index is in range");
    CLUMPLAB_ASSERT(b.mass[i] > 0.0 && b.moments[i].minCoeff() > 0.0,
                    "bodies have positive masses and moments");
    CLUMPLAB_ASSERT(state_.bodyFirstPebble[i] <= pebbleCount &&
                        (i == 0 || state_.bodyFirstPebble[i - 1] < state_.bodyFirstPebble[i]),
                    "every body owns a non-empty run of pebbles, in body order");
    const std::size_t end = i + 1 < n ? state_.bodyFirstPebble[i + 1] : pebbleCount;
    CLUMPLAB_ASSERT(end - state_.bodyFirstPebble[i] == model_.templates[b.templateIndex[i]]->pebbles.size(),
                    "a body's run of pebbles is its template's (the placement reads them there)");
    // A diverged state is reported by the divergence checks, not here.
    const double norm = b.orientation[i].norm();
    CLUMPLAB_ASSERT(!std::isfinite(norm) || std::abs(norm - 1.0) < 1e-9, "orientations are unit quaternions");
  }
  CLUMPLAB_ASSERT(pointProperties_ == hasPointProperties(b),
                  "the point-properties flag says whether some body has them (bodiesChanged after edits)");
  for (const std::uint32_t owner : p.body) CLUMPLAB_ASSERT(owner < n, "a pebble's body index is in range");
  for (std::size_t l = 0; l < state_.loads.size(); ++l) {
    CLUMPLAB_ASSERT(state_.loads[l].body < n, "an external load's body index is in range");
    CLUMPLAB_ASSERT(l == 0 || state_.loads[l - 1].body < state_.loads[l].body,
                    "external loads are sorted by body, one a body");
  }
  const ContactHistory& list = state_.contactHistory;
  CLUMPLAB_ASSERT(list.pairSprings.size() == list.pairs.size() && list.pairStored.size() == list.pairs.size(),
                  "every listed pebble pair has a spring and its stiffness");
  CLUMPLAB_ASSERT(
      list.wallSprings.size() == list.wallPairs.size() && list.wallStored.size() == list.wallPairs.size(),
      "every listed wall pair has a spring and its stiffness");
  for (const PebblePair& pair : list.pairs)
    CLUMPLAB_ASSERT(pair.a < pair.b && pair.b < pebbleCount, "a listed pair's pebbles are in range, a < b");
  for (const WallPair& pair : list.wallPairs)
    CLUMPLAB_ASSERT(pair.pebble < pebbleCount && pair.wall < model_.walls.size(),
                    "a wall pair's indices are in range");
}

}  // namespace clumplab
