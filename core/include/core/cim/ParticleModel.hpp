#pragma once
// A particle system described by callbacks, for the cluster integration method and its RK4
// baseline: inertia, reach, gravity, periodic box, and the geometry and forces of pairs and walls.
// Whatever the shapes are (spherocylinders, clumps, spheres), this is all the CIM needs to know.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/base/PeriodicBox.hpp"
#include "core/cim/ParticleNeighbors.hpp"
#include "core/cim/RigidBodyOde.hpp"

namespace clumplab::cim {

// Contact forces of a pair [N] and torques about each centre of mass [N m], lab frame.
struct PairForce {
  Vec3 forceOnI = Vec3::Zero();
  Vec3 torqueOnI = Vec3::Zero();
  Vec3 forceOnJ = Vec3::Zero();
  Vec3 torqueOnJ = Vec3::Zero();
  // The power the pair's dissipative forces take out of the bodies [W] (>= 0): minus their work
  // rate, -F_diss . (v_i - v_j) at the contact points. 0 for elastic laws.
  double dissipation = 0.0;
};

struct WallForce {
  Vec3 force = Vec3::Zero();   // [N], lab
  Vec3 torque = Vec3::Zero();  // [N m], about the centre of mass
  double dissipation = 0.0;    // [W], as PairForce::dissipation
};

// Forces on one body that are not contacts (global damping, a user's load), lab frame.
struct BodyForce {
  Vec3 force = Vec3::Zero();   // [N]
  Vec3 torque = Vec3::Zero();  // [N m], about the centre of mass
  double dissipation = 0.0;    // [W] taken out by its dissipative part (damping), >= 0
  double externalPower = 0.0;  // [W] put in by its external part (a load)
};

// What a contact law remembers that the state does not give (Mutze's hertz law with restitution_squared
// < 1 keeps the largest overlap each contact reached, ContactLaw.hpp): one value per contact, held by the
// particle that owns it (a pair by its lower-indexed particle, a wall contact by its particle) and keyed
// as the model likes (`partner`: the other particle, or kWallPartner + the wall's index; `first`,
// `second`: which pebbles, or shaft ends). The forces read it; it changes only after accepted steps
// (commitContacts), so that within a step the forces are functions of the state, as Runge-Kutta needs.
struct ContactMemoryEntry {
  std::uint32_t partner = 0;
  std::uint32_t first = 0;
  std::uint32_t second = 0;
  double value = 0.0;
  bool operator==(const ContactMemoryEntry&) const = default;
};
inline constexpr std::uint32_t kWallPartner = 0x80000000u;
using ContactMemoryView = std::span<const ContactMemoryEntry>;
struct ContactMemory {
  std::vector<std::vector<ContactMemoryEntry>> of;  // per particle, the contacts it owns
  // Particle `index` is gone and those above are renumbered down by one.
  void removeParticle(std::size_t index);
  std::size_t memoryBytes() const;  // [bytes], as a copy holds it
  bool operator==(const ContactMemory&) const = default;
};
struct ParticleModel {
  std::vector<RigidBodyInertia> inertia;  // per particle
  std::vector<double> reach;              // per particle: radius of a ball about R holding it [m]
  Vec3 gravity = Vec3::Zero();            // uniform [m/s^2]
  PeriodicBox box;
  std::size_t wallCount = 0;

  // Surface-to-surface distance of particles i and j [m] (negative: overlap), `separation` the
  // minimum-image x_j - x_i, `qi`, `qj` their orientations. Used to build the neighbour list.
  std::function<double(std::uint32_t i, std::uint32_t j, const Vec3& separation, const Quat& qi,
                       const Quat& qj)>
      surfaceDistance;
  // Contact forces of a listed pair i < j; `sj.position` is the image of j nearest to `si`. Zero when the
  // surfaces are apart. `memory`: i's entries of the ContactMemory (empty without one).
  std::function<PairForce(std::uint32_t i, std::uint32_t j, const ParticleState& si, const ParticleState& sj,
                          ContactMemoryView memory)>
      pairForce;
  // Distance of particle i's surface from wall w [m], and the wall's contact force on it (`memory` as above).
  std::function<double(std::uint32_t i, std::uint32_t wall, const ParticleState& s)> wallDistance;
  std::function<WallForce(std::uint32_t i, std::uint32_t wall, const ParticleState& s,
                          ContactMemoryView memory)>
      wallForce;
  // For a law with a ContactMemory: after an accepted step, appends to `next` the entries of the contacts
  // of i with j (or with a wall) that touch in the step's end state, brought up to it from i's entries
  // before the step (`previous`), and returns the energy that dissipated [J] (>= 0). Empty: no memory.
  std::function<double(std::uint32_t i, std::uint32_t j, const ParticleState& si, const ParticleState& sj,
                       ContactMemoryView previous, std::vector<ContactMemoryEntry>& next)>
      commitPair;
  std::function<double(std::uint32_t i, std::uint32_t wall, const ParticleState& s,
                       ContactMemoryView previous, std::vector<ContactMemoryEntry>& next)>
      commitWall;
  // A bound on the speed of the points of particle i that decide contacts [m/s] (for
  // spherocylinders shaftEndSpeed). Empty: |v| + reach_i angularSpeedBound (ClusterLifetime.hpp).
  std::function<double(std::uint32_t i, const ParticleState& s, const Vec3& bodyAngularVelocity)> pointSpeed;
  // Its counterpart for a motion: how far those points of particle i moved [m] when its centre moved
  // by `displacement` and it turned from orientation `before` to `after` (not necessarily unit; for
  // spherocylinders shaftEndDisplacement). Empty: boundingDisplacement with reach_i.
  std::function<double(std::uint32_t i, const Vec3& displacement, const Quat& before, const Quat& after)>
      pointDisplacement;

  // Optional forces on single bodies besides contacts (global damping, loads). `driven` (empty, or
  // one flag per particle) marks the particles they act on: those are never moved as free
  // particles. `drivenAcceleration` (optional) bounds the acceleration [m/s^2] that bodyForce can
  // give any point of driven particle i, from its state when a cluster list is built and for as
  // long as its points stay within the buffer of where they were, for the list's lifetime.
  std::function<BodyForce(std::uint32_t i, const ParticleState& s)> bodyForce;
  std::vector<std::uint8_t> driven;
  std::function<double(std::uint32_t i, const ParticleState& s)> drivenAcceleration;

  std::size_t size() const { return inertia.size(); }
  bool isDriven(std::size_t i) const { return i < driven.size() && driven[i] != 0; }
  bool keepsMemory() const { return static_cast<bool>(commitPair); }
  // Memory it holds [bytes] as a copy holds it: the arrays, and a heap cell per callback (what the
  // callbacks hold, such as a world's description, is counted by its owner).
  std::size_t memoryBytes() const;
};

// Work done by a force evaluation over a neighbour list.
struct ForceCallCounts {
  std::size_t pairCalls = 0;
  std::size_t wallCalls = 0;
  void add(const ForceCallCounts& o) {
    pairCalls += o.pairCalls;
    wallCalls += o.wallCalls;
  }
};

// What the bookkeeping of energy and momentum needs from a force evaluation, summed over it.
struct ForceTally {
  double dissipation = 0.0;    // [W] taken out by dissipative forces (contacts, damping)
  double externalPower = 0.0;  // [W] put in by loads
  // Per wall of the model (empty: not collected), the force the particles exert on it [N].
  std::span<Vec3> wallForces;
};

// Forces and torques on the bodies of `local`, whose body k is particle members[k], from the pairs
// and walls in the neighbour lists of the members: each particle pair once (from its lower index),
// each listed wall once. `localIndex[g]` is the position of particle g in `members`, for every g that
// a member lists (all of them lie in `members` when `members` is a cluster). `forces` and `torques`
// are accumulated into (sized like `local`). With `tally`, the model's bodyForce of the driven
// members is added too, and dissipation, external power and wall forces are summed into it. `memory`
// (optional, one entry per particle of the model): what the contacts remember.
ForceCallCounts listForces(const ParticleModel& model, const NeighborCsr& neighbors,
                           std::span<const std::uint32_t> members, std::span<const std::uint32_t> localIndex,
                           const RigidBodySet& local, std::vector<Vec3>& forces, std::vector<Vec3>& torques,
                           ForceTally* tally = nullptr, const ContactMemory* memory = nullptr);

// After an accepted step that ended at `local` (the members as in listForces): the memory of the
// members' contacts brought up to it (ParticleModel::commitPair, commitWall; contacts that no longer touch
// are forgotten). Returns the energy that dissipated [J]. Nothing for a model without memory.
double commitContacts(const ParticleModel& model, const NeighborCsr& neighbors,
                      std::span<const std::uint32_t> members, std::span<const std::uint32_t> localIndex,
                      const RigidBodySet& local, ContactMemory& memory);

// The neighbour list of the current state with buffer Delta [m] (ParticleNeighbors.hpp).
NeighborCsr neighborsOf(const ParticleModel& model, const RigidBodySet& state, double buffer);

// Wraps the positions of `state` into `box` (PeriodicBox::wrap); with `shifts` (sized like the
// state) each body's shift, whole box lengths, is added to its entry [m].
void wrapPositions(const PeriodicBox& box, RigidBodySet& state, std::vector<Vec3>* shifts = nullptr);

// The speed bound of every particle (ParticleModel::pointSpeed or its default) [m/s].
std::vector<double> pointSpeeds(const ParticleModel& model, const RigidBodySet& state);

}  // namespace clumplab::cim
