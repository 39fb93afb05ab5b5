#include "core/step/ContactSums.hpp"

#include <algorithm>

#include "core/clump/BodyState.hpp"
#include "core/collision/ContactSolver.hpp"
#include "core/collision/MeshWallContacts.hpp"
#include "core/step/BodyForces.hpp"

namespace clumplab {

namespace {

// One chunk's records onto the bodies. Across a periodic face B's lever arm starts at its image
// nearest A (ContactSolver.hpp), which the same shift as the contact stage's finds.
template <bool kPeriodic>
void addRecords(const ContactChunk& chunk, const PeriodicBox& periodic, BodyState& bodies,
                DissipativeParts& dissipative, std::vector<Vec3>& wallForce) {
  for (const ContactRecord& r : chunk.records) {
    const Vec3 armA = r.point - bodies.position[r.bodyA];
    bodies.force[r.bodyA] += r.force;
    bodies.torque[r.bodyA] += armA.cross(r.force);
    dissipative.force[r.bodyA] += r.dissipativeForce;
    dissipative.torque[r.bodyA] += armA.cross(r.dissipativeForce);
    if (r.bodyB == kWallBody) {
      wallForce[r.wall] -= r.force;  // the reaction on the wall
      continue;
    }
    Vec3 armB;
    if constexpr (kPeriodic) {
      const Vec3& centerB = bodies.position[r.bodyB];
      armB = r.point - (centerB + bodyImageShift(periodic, bodies.position[r.bodyA], centerB));
    } else {
      armB = r.point - bodies.position[r.bodyB];
    }
    bodies.force[r.bodyB] -= r.force;
    bodies.torque[r.bodyB] -= armB.cross(r.force);
    dissipative.force[r.bodyB] -= r.dissipativeForce;
    dissipative.torque[r.bodyB] -= armB.cross(r.dissipativeForce);
  }
}

}  // namespace

ContactSums addContactForces(const ContactSolver& contacts, const MeshWallContacts& meshContacts,
                             const PeriodicBox& periodic, BodyState& bodies, DissipativeParts& dissipative,
                             std::vector<Vec3>& wallForce) {
  ContactSums sums;
  std::fill(wallForce.begin(), wallForce.end(), Vec3::Zero());
  const std::size_t pebbleChunks = contacts.chunkCount();
  for (std::size_t c = 0; c < pebbleChunks + meshContacts.chunkCount(); ++c) {
    const ContactChunk& chunk =
        c < pebbleChunks ? contacts.chunks()[c] : meshContacts.chunks()[c - pebbleChunks];
    if (periodic.any()) {
      addRecords<true>(chunk, periodic, bodies, dissipative, wallForce);
    } else {
      addRecords<false>(chunk, periodic, bodies, dissipative, wallForce);
    }
    sums.lostEnergy += chunk.hysteresisLoss - chunk.springEnergyChange;
    sums.pebbleContacts += chunk.pebbleContacts;
    sums.wallContacts += chunk.wallContacts;
    if (chunk.worstOverlapRatio > sums.worstOverlapRatio) {
      sums.worstOverlapRatio = chunk.worstOverlapRatio;
      sums.worstBody = chunk.worstBody;
    }
  }
  return sums;
}

}  // namespace clumplab
