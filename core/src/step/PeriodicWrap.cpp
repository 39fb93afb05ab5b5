#include "core/step/PeriodicWrap.hpp"

#include "core/base/PeriodicBox.hpp"
#include "core/clump/BodyState.hpp"
#include "core/collision/ContactSolver.hpp"
#include "core/collision/NeighborList.hpp"
#include "core/forces/ExternalLoad.hpp"

namespace clumplab {

void wrapIntoBox(const PeriodicBox& box, BodyState& bodies, std::vector<Vec3>& wrapDisplacement,
                 const WrapFollowers& followers, std::size_t first) {
  if (!box.any()) return;
  std::vector<Vec3> shifts;  // per body, allocated once something wraps
  for (std::size_t b = first; b < bodies.size(); ++b) {
    const Vec3 x = bodies.position[b];
    if (!x.allFinite()) continue;  // blown up: left for the divergence check to name
    const Vec3 inside = box.wrap(x);
    if (inside == x) continue;
    const Vec3 shift = inside - x;
    bodies.position[b] = inside;
    wrapDisplacement[b] += shift;
    const std::uint32_t firstPebble = followers.bodyFirstPebble[b];
    const std::uint32_t endPebble = b + 1 < bodies.size()
                                        ? followers.bodyFirstPebble[b + 1]
                                        : static_cast<std::uint32_t>(followers.pebblePositions.size());
    for (std::uint32_t p = firstPebble; p < endPebble; ++p) followers.pebblePositions[p] += shift;
    followers.neighbors.translatePebbles(firstPebble, endPebble - firstPebble, shift);
    for (ExternalLoad& load : followers.loads) {
      if (load.body == b) load.point += shift;
    }
    if (shifts.empty()) shifts.assign(bodies.size(), Vec3::Zero());
    shifts[b] = shift;
  }
  if (!shifts.empty()) followers.contacts.translatePoints(shifts);
}

}  // namespace clumplab
