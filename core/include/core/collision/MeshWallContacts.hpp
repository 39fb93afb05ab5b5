#pragma once
// The contact stage of mesh walls (MeshWall.hpp): every pebble against every mesh wall at the
// wall's pose at the evaluation time, with the contact laws of ContactSolver.hpp. The relative
// velocity at a contact is the pebble's less the wall's surface velocity there, so a moving wall
// drags and pushes. Output is ContactChunk records (bodyB = kWallBody, `wall` the wall's index in
// WorldModel::walls) in fixed chunks of pebbles, so results do not depend on the thread count.
//
// Contact history: one tangential spring per (pebble, wall, feature) (MeshFeature: a face, edge or
// vertex), or for Mutze's hertz law with restitution_squared < 1 the largest overlap (ContactLaw.hpp).
// When a pebble moves from one feature to another (across an edge onto the next face, from a face onto
// an edge), its new contact inherits the history of the contact it lost in the same evaluation with the
// same wall whose normal is closest to the new one, a spring turned into the new tangent plane by the
// law; so sliding across a tessellated surface keeps its friction (and its restitution), and a spring is
// released (its energy dissipated) only when no contact with that wall takes it over.
//
// Energy (ContactSolver.hpp): each chunk carries the springs' energy change; besides, the stage
// gives the power of the contact forces at the walls' surface velocity u (sum of F . u over its
// contacts, F the force on the pebble) and of their dissipative parts. World books from them the
// work the imposed motion does on the bodies and the dissipation at the relative velocity:
// total + dissipated - wall work is conserved.
#include <array>
#include <cstdint>
#include <vector>

#include "core/base/ThreadPool.hpp"
#include "core/clump/BodyState.hpp"
#include "core/collision/ContactModel.hpp"
#include "core/collision/ContactSolver.hpp"
#include "core/walls/MeshWall.hpp"
#include "core/walls/Walls.hpp"

namespace clumplab {

struct MeshContactHistory {
  std::uint32_t pebble = 0;
  std::uint32_t wall = 0;
  std::uint32_t feature = 0;     // MeshFeature::key()
  Vec3 spring = Vec3::Zero();    // tangential spring [m]
  double springStiffness = 0.0;  // the kt it was last evaluated with [N/m]; Mutze's law: largest overlap [m]
  Vec3 normal = Vec3::UnitZ();   // the contact normal when it was last evaluated (world)
};

// Each pebble's triangles near it on each mesh wall (MeshWallShape::near, a Verlet list in the wall's
// frame), found again once the pebble has moved through the skin relative to the wall
// (MeshWallShape::nearReach, nearListHolds). Not state: the contacts are the same bits without it
// (MeshWallShape::nearFrom), so World keeps it beside the state, never in a checkpoint, and an entry
// left by a pebble that has gone or been renumbered is still right for the geometry it was made
// for, or refreshed.
class MeshNearCache {
 public:
  // Where pebble p's lists start: one per posed mesh wall (entries(p)[k] for the k-th).
  struct Entry {
    std::uint64_t shape = 0;     // MeshWallShape::serial (0: none yet)
    Vec3 centre = Vec3::Zero();  // where the list was made, wall frame [m]
    double reach = 0.0;          // its radius [m]
    std::vector<MeshWallShape::NearTriangle> list;
  };
  void resize(std::size_t pebbles, std::size_t walls);
  Entry* entries(std::size_t pebble) { return entries_.data() + pebble * walls_; }

 private:
  std::size_t walls_ = 0;
  std::vector<Entry> entries_;
};

class MeshWallContacts {
 public:
  // The contacts of every pebble with every mesh wall of `walls`, the walls posed at `time` [s];
  // tangential springs advance over dt [s] (0 for a refresh: the state has not moved) with the
  // `drift` velocities (the bodies' own when not given) relative to the wall's surface velocity.
  // `near` (optional) keeps the pebbles' near triangles between calls.
  void compute(const ContactModel& model, const PebbleArrays& pebbles, const BodyState& bodies,
               const std::vector<Wall>& walls, double time, double dt, ThreadPool& pool,
               const DriftVelocities& drift = {}, MeshNearCache* near = nullptr);

  const std::vector<ContactChunk>& chunks() const { return chunks_; }
  std::size_t chunkCount() const { return usedChunks_; }
  // Of the last compute(): sum of F . u and of F_diss . u over the contacts [W].
  double wallPower() const { return wallPower_; }
  double wallDissipativePower() const { return wallDissipativePower_; }
  const std::vector<MeshContactHistory>& history() const { return history_; }
  // Every contact's history forgotten (the next evaluation finds its contacts as new ones).
  void clearHistory() { history_.clear(); }

  // Body `body` with pebbles [first, first + count) was removed: its records and springs go, and
  // bodies and pebbles above are renumbered down.
  void removeBody(std::uint32_t body, std::uint32_t first, std::uint32_t count);

  // The energy stored in the mesh contacts at the current positions [J] (normal law plus the
  // springs of the contacts that still touch the same feature).
  double elasticEnergy(const ContactModel& model, const PebbleArrays& pebbles, const std::vector<Wall>& walls,
                       double time) const;

  static constexpr std::size_t kChunkSize = 512;

  // Memory its arrays hold [bytes] (element sizes times counts), for WorldCheckpoint::memoryBytes.
  std::size_t memoryBytes() const;

 private:
  struct ChunkExtra {
    std::vector<MeshContactHistory> history;
    // Per record of the chunk: F . u and F_diss . u [W] (so that a removed body's share can go).
    std::vector<std::array<double, 2>> recordPower;
  };
  void sumPowers();  // wallPower_ and wallDissipativePower_ from the records, in chunk order
  std::vector<ContactChunk> chunks_;
  std::vector<ChunkExtra> extra_;
  std::size_t usedChunks_ = 0;
  std::vector<MeshContactHistory> history_;  // sorted by pebble, then wall
  double wallPower_ = 0.0;
  double wallDissipativePower_ = 0.0;
};

// Why these walls cannot run with this world ("" when they can): spherocylinder pebbles against a
// mesh, or the cim / rk4 integrators (contacts of their own).
std::string meshWallProblem(const std::vector<Wall>& walls, bool anySpherocylinders, bool ownForces);

}  // namespace clumplab
