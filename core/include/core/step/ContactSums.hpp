#pragma once
// The contact stage's records summed onto the bodies (Woo, Clumps, forceTorqueFromMembers): the
// contact forces and their torques about the centres of mass, the same sums of their dissipative
// parts, the reactions on the walls, and what the evaluation counted.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab {

struct BodyState;         // BodyState.hpp
struct DissipativeParts;  // BodyForces.hpp
struct PeriodicBox;       // PeriodicBox.hpp
class ContactSolver;      // ContactSolver.hpp
class MeshWallContacts;   // MeshWallContacts.hpp

struct ContactSums {
  double lostEnergy = 0.0;  // [J] taken from the springs (slip, release) and lost to Mutze's hysteresis
  std::size_t pebbleContacts = 0;
  std::size_t wallContacts = 0;
  double worstOverlapRatio = 0.0;  // the deepest overlap over the smaller radius
  std::uint32_t worstBody = 0;     // a body of that contact
};

// Adds the records of the pebble and plane-wall contacts, then of the mesh-wall ones, chunk by chunk
// in chunk order (the sums independent of the thread count), to the bodies' forces and torques and
// to `dissipative`; `wallForce` (one per wall, zeroed here) gets the reaction on each wall.
ContactSums addContactForces(const ContactSolver& contacts, const MeshWallContacts& meshContacts,
                             const PeriodicBox& periodic, BodyState& bodies, DissipativeParts& dissipative,
                             std::vector<Vec3>& wallForce);

}  // namespace clumplab
