#pragma once
// A particle system described by callbacks, for the cluster integration method and its RK4
// baseline: inertia, reach, gravity, periodic box, and the geometry and forces of pairs and walls.
// Whatever the shapes are (spherocylinders, clumps, spheres), this is all the CIM needs to know.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/PeriodicBox.hpp"
#include "core/cim/ParticleNeighbors.hpp"
#include "core/cim/RigidBodyOde.hpp"

namespace clumplab::cim {

// Contact forces of a pair [N] and torques about each centre of mass [N m], lab frame.
struct PairForce {
  Vec3 forceOnI = Vec3::Zero();
  Vec3 torqueOnI = Vec3::Zero();
  Vec3 forceOnJ = Vec3::Zero();
  Vec3 torqueOnJ = Vec3::Zero();
};

struct WallForce {
  Vec3 force = Vec3::Zero();   // [N], lab
  Vec3 torque = Vec3::Zero();  // [N m], about the centre of mass
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
  // Contact forces of a listed pair; `sj.position` is the image of j nearest to `si`. Zero when the
  // surfaces are apart.
  std::function<PairForce(std::uint32_t i, std::uint32_t j, const ParticleState& si, const ParticleState& sj)>
      pairForce;
  // Distance of particle i's surface from wall w [m], and the wall's contact force on it.
  std::function<double(std::uint32_t i, std::uint32_t wall, const ParticleState& s)> wallDistance;
  std::function<WallForce(std::uint32_t i, std::uint32_t wall, const ParticleState& s)> wallForce;
  // A bound on the speed of the points of particle i that decide contacts [m/s] (for
  // spherocylinders shaftEndSpeed). Empty: |v| + reach_i angularSpeedBound (ClusterLifetime.hpp).
  std::function<double(std::uint32_t i, const ParticleState& s, const Vec3& bodyAngularVelocity)> pointSpeed;

  std::size_t size() const { return inertia.size(); }
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

// Forces and torques on the bodies of `local`, whose body k is particle members[k], from the pairs
// and walls in the neighbour lists of the members: each particle pair once (from its lower index),
// each listed wall once. `localIndex[g]` is the position of particle g in `members`, for every g that
// a member lists (all of them lie in `members` when `members` is a cluster). `forces` and `torques`
// are accumulated into (sized like `local`).
ForceCallCounts listForces(const ParticleModel& model, const NeighborCsr& neighbors,
                           std::span<const std::uint32_t> members, std::span<const std::uint32_t> localIndex,
                           const RigidBodySet& local, std::vector<Vec3>& forces, std::vector<Vec3>& torques);

// The neighbour list of the current state with buffer Delta [m] (ParticleNeighbors.hpp).
NeighborCsr neighborsOf(const ParticleModel& model, const RigidBodySet& state, double buffer);

// The speed bound of every particle (ParticleModel::pointSpeed or its default) [m/s].
std::vector<double> pointSpeeds(const ParticleModel& model, const RigidBodySet& state);

}  // namespace clumplab::cim
