#pragma once
// Narrow phase and contact laws: for every candidate pair of the neighbour list, the overlap,
// contact point (Mutze, Polyspherical grains, eq. 50), relative velocity and force. Spherocylinder pebbles
// touch like spheres centred at the closest points of their shafts (Meland et al., Cluster integration
// method, Fig. 2): overlap r_i + r_j - d, normal along the line joining those points, so the lever arms are
// the paper's rho_i = lambda_i* u_i + r_i n up to a shift along n (which leaves normal torques unchanged); a
// wall pair of a spherocylinder is one shaft end against the wall (Meland et al., Cluster integration method:
// the plane acts on one hemisphere, on both when the capsule lies flat, which keeps a flat capsule level).
// Work is split into chunks of fixed pebble ranges whose outputs are reduced in chunk order, so results
// depend neither on the thread count nor on the pairs the neighbour list holds beyond those that touch.
//
// Periodic boundaries (Meland et al., Cluster integration method): two bodies meet through one image, the one
// of B nearest A by the minimum image of their centres of mass (bodyImageShift). Every pebble pair of the two
// bodies uses that same shift, so a clump straddling a face acts as one rigid body: B's pebbles, shafts and
// centre are taken shifted, the contact point lies next to A, and the lever arm on B is measured from
// B's shifted centre. World checks that the periodic lengths leave no pair a second image in reach.
#include <cstdint>
#include <limits>
#include <vector>

#include "core/base/PeriodicBox.hpp"
#include "core/base/Scratch.hpp"
#include "core/base/ThreadPool.hpp"
#include "core/clump/BodyState.hpp"
#include "core/collision/ContactHistory.hpp"
#include "core/collision/ContactModel.hpp"
#include "core/walls/Walls.hpp"

namespace clumplab {

inline constexpr std::uint32_t kWallBody = std::numeric_limits<std::uint32_t>::max();

// The lattice vector [m] added to body B's centre and pebbles to reach its image nearest body A
// (zero without periodic axes): the one image through which all their pebbles meet.
inline Vec3 bodyImageShift(const PeriodicBox& periodic, const Vec3& centerA, const Vec3& centerB) {
  return periodic.imageShift(centerB - centerA);
}

// One touching pebble pair: force on body A (and -force on body B) acting at `point`. Across a
// periodic face `point` lies next to A; B's lever arm is point - (x_B + bodyImageShift(x_A, x_B)).
struct ContactRecord {
  std::uint32_t bodyA = 0;
  std::uint32_t bodyB = kWallBody;       // kWallBody for a wall contact
  Vec3 force = Vec3::Zero();             // [N]
  Vec3 point = Vec3::Zero();             // [m], world
  Vec3 dissipativeForce = Vec3::Zero();  // [N], the non-conservative part of `force` (see below)
  std::uint32_t wall = 0;                // the wall's index in WorldModel::walls for a wall contact
};

// Pebble world data that the contact stage reads.
struct PebbleArrays {
  std::vector<Vec3> position;       // world [m] (a spherocylinder's shaft centre)
  std::vector<double> radius;       // [m]
  std::vector<std::uint32_t> body;  // owning body
  // Spherocylinder pebbles (Pebble.hpp): both empty while every pebble of the world is a sphere.
  std::vector<Vec3> axis;          // world unit shaft axis
  std::vector<double> halfLength;  // [m], 0 for spheres

  bool hasCapsules() const { return !halfLength.empty(); }
};

// Cache-line aligned: chunks are filled by different threads.
struct alignas(64) ContactChunk {
  std::vector<ContactRecord> records;
  // The chunk's pairs that may touch (list indices): scratch of each evaluation, not copied with the
  // chunk (a chunk in a world checkpoint), so that checkpoints hold state only.
  Scratch<std::vector<std::uint32_t>> nearPairs;
  double springEnergyChange = 0.0;  // [J] change of the energy stored in tangential springs
  double hysteresisLoss = 0.0;      // [J] dissipated by Mutze's hysteresis as largest overlaps grew (>= 0)
  double worstOverlapRatio = 0.0;   // max overlap / smaller radius
  std::uint32_t worstBody = 0;
  std::size_t pebbleContacts = 0;
  std::size_t wallContacts = 0;
};

// Energy bookkeeping (Mutze, Polyspherical grains, §8: total + dissipated is conserved). The solver does not
// count dissipation itself: the power of a force depends on velocities the integrator has not produced yet
// when it evaluates forces (the leapfrog sees predicted ones). Each record carries the contact's
// non-conservative force on A instead: the dashpot plus the whole tangential force, spring included (Mutze's
// regularised friction for Hertz). Each chunk carries the change of the energy 1/2 kt |xi|^2 stored in the
// tangential springs during the evaluation (springs released when a pair stops touching included), and the
// energy Mutze's restitution dissipated: his normal force is conservative given each contact's largest
// overlap, and the growth of that overlap loses (1 - delta) of the work of eq. 57 over it, exactly what the
// stored energy (elasticEnergy) falls short of that work (ContactKernels.hpp, hertzNormalForce). World books
// the dissipation -F_diss . w dt - dU_t + that loss, with w the relative velocity taken from synchronous body
// velocities at the force time; the spring part of F_diss and dU_t cancel up to the spring's integration
// error.
class ContactSolver {
 public:
  // Computes every contact force at the current state over the pairs `history` lists (the broad
  // phase's lists) and advances their tangential springs by dt with the `drift` velocities (the
  // bodies' own when not given). `periodic`: the periodic axes (none by default).
  // `pebblesAreBodies`: the caller vouches that every body is one sphere at its centre of mass, so
  // that pebble i is body i and sits at its centre to the bit (placeBody copies it): images are then
  // found from the pebble positions the pair test reads anyway, the same shifts without the bodies'.
  void compute(const ContactModel& model, ContactHistory& history, const PebbleArrays& pebbles,
               const BodyState& bodies, const std::vector<Wall>& walls, double dt, ThreadPool& pool,
               const PeriodicBox& periodic = {}, const DriftVelocities& drift = {},
               bool pebblesAreBodies = false);

  const std::vector<ContactChunk>& chunks() const { return chunks_; }
  std::size_t chunkCount() const { return usedChunks_; }

  // Drops the records of `body`'s contacts and renumbers bodies above it down by one (the body was
  // removed from the world); chunk counts follow.
  void removeBody(std::uint32_t body);

  // Bodies were moved by whole periodic box lengths (World's wrap): every record's point moves with
  // its body A by `shiftOfBody[bodyA]` [m] (a pebble contact's point lies next to A; B's image is
  // found again from the centres).
  void translatePoints(const std::vector<Vec3>& shiftOfBody);

  // Elastic energy stored in all touching contacts at the current positions [J]: 1/2 kn d^2 plus
  // 1/2 kt |xi|^2 (linear), or for Hertz the integral of eq. 57 (delta = 1) or of the branch its largest
  // overlap puts the contact on (delta < 1; ContactKernels.hpp). With periodic axes, `bodyPositions`
  // (centres of mass [m]) pick the image of each pair as compute() does.
  static double elasticEnergy(const ContactModel& model, const ContactHistory& history,
                              const PebbleArrays& pebbles, const std::vector<Wall>& walls,
                              const std::vector<Vec3>& bodyPositions = {}, const PeriodicBox& periodic = {});

  // Pebbles of a chunk's range: a few hundred listed pairs in a pile.
  static constexpr std::size_t kChunkPebbles = 256;

 private:
  std::vector<ContactChunk> chunks_;
  std::vector<std::size_t> pairStart_;  // per pair chunk, its first pair (+1 entry): scratch
  std::vector<std::size_t> wallStart_;  // per wall chunk, its first wall pair (+1 entry)
  std::size_t usedChunks_ = 0;
};

}  // namespace clumplab
