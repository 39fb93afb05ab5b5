#pragma once
// Broad phase: Verlet lists of pebble pairs (different bodies only) and pebble-wall pairs, in two
// levels that know pebbles belong to rigid clumps. Bodies first: the bounding spheres of bodies, in a
// hierarchical grid of size classes, give the pairs of bodies that may touch (BodyPairSearch). Then
// pebbles, for those body pairs only: each template's pebbles are binned once in its body frame
// (TemplateGrid), and the pebbles of the body with the finer pebbles are taken into the other's
// frame and searched there. Pebbles of one body are never paired, and a cell never holds the small
// pebbles of a fine clump beside the coarse ones of another, whatever their sizes.
//
// A spherocylinder pebble takes part by its reach r + l/2 (the sphere about its shaft's centre that
// holds it whatever its orientation, so the displacement bookkeeping of centres stays valid while it
// turns) and has two wall pairs per wall, one per shaft end (Meland et al., Cluster integration
// method for non-spherical granular particles: a plane wall acts on one hemisphere; both when it
// lies flat). The lists are the keys of a ContactHistory (ContactHistory.hpp), which the caller keeps
// (the world, in its state): each pair's history (the tangential spring, or Mutze's largest overlap) is
// carried over to the pairs a rebuild lists again. What the broad phase keeps itself is a cache: where
// each pebble was at the last build and how far it may go. A list stays valid while every pebble stays within
// its own displacement limit: half its body's margin (a lower bound on the gap to every unlisted partner,
// never below the skin), or its clearance to a wall.
//
// Periodic boundaries (PeriodicBox): bodies are binned by their wrapped centres and pairs are
// measured by the minimum image. Pebble positions stay as the caller gives them (a body straddling a
// face has pebbles outside the box); the displacement bookkeeping compares such positions, so a
// caller that moves a body by whole box lengths calls translatePebbles with the same shift.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/base/Math.hpp"
#include "core/base/PeriodicBox.hpp"
#include "core/base/ThreadPool.hpp"
#include "core/clump/ClumpTemplate.hpp"
#include "core/collision/ContactHistory.hpp"
#include "core/walls/Walls.hpp"

namespace clumplab {

class PebblePairSearch;  // PebblePairSearch.hpp (private to the broad phase)

// What a rebuild reads: pebbles (world arrays, indexed as the pebbles of body b are
// [bodyFirstPebble[b], bodyFirstPebble[b + 1]), in body order), the bodies' poses and templates, walls
// and periodic axes. Every periodic length must be at least twice the largest body pair range
// 2 max(bounding radius) + skin (World checks this), so a pair meets by one image only.
struct BroadPhaseInput {
  const std::vector<Vec3>& pebblePosition;      // world [m] (a spherocylinder's shaft centre)
  const std::vector<double>& pebbleRadius;      // [m]
  const std::vector<double>& pebbleHalfLength;  // [m] half shaft lengths, or empty when all are spheres
  const std::vector<Vec3>& bodyPosition;        // centres of mass [m], the origins of the template frames
  const std::vector<Quat>& bodyOrientation;     // template frame to world
  const std::vector<std::uint32_t>& bodyFirstPebble;
  const std::vector<std::uint32_t>& bodyTemplate;  // into `templates`
  const std::vector<TemplatePtr>& templates;
  const std::vector<Wall>& walls;
  const PeriodicBox& periodic;
};

class NeighborList {
 public:
  NeighborList();
  ~NeighborList();
  NeighborList(NeighborList&&) noexcept;
  NeighborList& operator=(NeighborList&&) noexcept;

  void setSkin(double skin) { state_.skin = skin; }
  double skin() const { return state_.skin; }

  // True when some pebble left its displacement limit since the last build (or none was built).
  bool needsRebuild(const std::vector<Vec3>& pebblePositions) const;
  // The per-pebble form of needsRebuild, for callers that fuse it into their own loop; valid only
  // when builtFor(n) holds.
  bool builtFor(std::size_t pebbleCount) const { return state_.positionsAtBuild.size() == pebbleCount; }
  bool movedTooFar(std::size_t i, const Vec3& position) const {
    return (position - state_.positionsAtBuild[i].cast<double>()).squaredNorm() > state_.limit2[i];
  }
  // Pebble i's squared displacement limit [m^2] at the last build, measured from its reference
  // position (positionsAtBuild: single precision, the limit already short by its rounding).
  double squaredLimit(std::size_t i) const { return state_.limit2[i]; }

  // A cheaper test for a rigid body's pebbles: true when the body's own motion since the last build
  // keeps every one of its pebbles within its limit, by |x - x0| + 2 sin(theta / 2) rho <= the
  // smallest limit of its pebbles (theta the rotation since the build, rho the pebbles' largest
  // distance from the centre), with room for rounding: then movedTooFar is false for each of them.
  // False when that bound cannot tell, and for a body the last build did not see (`firstPebble`
  // checks it is the same body): test its pebbles one by one then.
  bool bodyWithinLimits(std::size_t body, std::uint32_t firstPebble, const Vec3& position,
                        const Quat& orientation) const {
    if (body >= state_.bodiesAtBuild.size()) return false;
    const BodyAtBuild& b = state_.bodiesAtBuild[body];
    if (b.firstPebble != firstPebble || b.endPebble == b.firstPebble) return false;
    const double moved = (position - b.position).norm();
    if (b.reach == 0.0)
      return moved <= kBodyBoundShare * b.limit;  // pebbles at the centre: no turn moves them
    const double turn = 2.0 * (orientation * b.orientation.conjugate()).vec().norm();  // 2 sin(theta/2)
    return moved + turn * b.reach <= kBodyBoundShare * b.limit;
  }

  // Lists the pairs of `input` into `lists`, whose previous keys and values are carried over to
  // the pairs listed again (the others start at zero; the held entries of a copy are enough, as a
  // restored checkpoint gives). Pairs come out sorted by (a, b) and wall pairs by (pebble, wall, end)
  // whatever `pool` is: the same lists, to the bit, for any thread count.
  void rebuild(const BroadPhaseInput& input, ContactHistory& lists, ThreadPool* pool = nullptr);
  // Forgets where pebbles were at the last build: needsRebuild holds until the next rebuild.
  void invalidate();
  std::size_t rebuildCount() const { return state_.rebuilds; }
  // Pairs of bodies of one pebble each (spheres) take a direct path that gives the general search's
  // pairs and bounds to the bit, without its gathering; off, they take the general search (tests
  // compare the two).
  void setOnePebbleShortcut(bool on) { onePebbleShortcut_ = on; }
  std::size_t bodyPairCount() const { return bodyPairs_; }  // candidate body pairs of the last build

  // Seconds spent in the two levels of rebuilds since construction (or the last reset): the body
  // level (size-class grids and body pairs) and the pebble level (pebble pairs of those body pairs,
  // wall pairs, displacement limits, history carried over).
  struct Seconds {
    double bodies = 0.0;
    double pebbles = 0.0;
  };
  const Seconds& seconds() const { return seconds_; }
  void resetSeconds() { seconds_ = {}; }

  // Pebbles [first, first + count) are gone and those above renumbered down by `count` (the
  // caller's ContactHistory::removePebbles drops their pairs). The lists stay valid (the displacement
  // limits only grow when partners disappear), so no rebuild is needed.
  void removePebbles(std::uint32_t first, std::uint32_t count);

  // Pebbles [first, first + count) were moved by `shift` [m] (a body wrapped into the periodic box
  // by whole box lengths): their reference positions follow, so the move neither triggers a rebuild
  // nor hides a real displacement. Pairs and their history are unchanged (they are by index).
  void translatePebbles(std::uint32_t first, std::uint32_t count, const Vec3& shift);

  // A body's pose at the last build, its pebbles [firstPebble, endPebble), their largest distance
  // from its centre [m] and their smallest displacement limit [m], less twice the rounding of their
  // reference positions (bodyWithinLimits).
  struct BodyAtBuild {
    std::uint32_t firstPebble = 0;
    std::uint32_t endPebble = 0;
    Vec3 position = Vec3::Zero();
    Quat orientation = Quat::Identity();
    double reach = 0.0;
    double limit = 0.0;
  };

 private:
  struct Scratch;  // per-block buffers and the two levels' structures (NeighborList.cpp)

  // The steps of rebuild(), in order (NeighborList.cpp).
  void startLists(const BroadPhaseInput& in, ContactHistory& lists);
  std::size_t findCandidateBodies(const BroadPhaseInput& in, ThreadPool* pool);
  void listPebblePairs(const PebblePairSearch& bodies, std::size_t blockCount, ThreadPool* pool);
  void listWallPairs(const BroadPhaseInput& in, const PebblePairSearch& bodies, std::size_t blockCount,
                     ThreadPool* pool);
  void gatherBlocks(std::size_t blockCount, ContactHistory& lists);

  // The rebuild bookkeeping (not the scratch buffers or timings).
  struct State {
    double skin = 0.0;  // [m]
    // Per pebble, where it was at the last build [m] and its squared displacement limit from there
    // [m^2], in single precision (16 bytes a pebble, not 32): the limit is the true one less the
    // distance between the pebble and its rounded position, and rounded down, so a pebble within it is
    // within the true limit (and the body bound, bodiesAtBuild, gives up that distance twice).
    std::vector<Eigen::Vector3f> positionsAtBuild;
    std::vector<float> limit2;
    std::vector<BodyAtBuild> bodiesAtBuild;
    std::size_t rebuilds = 0;
  };
  State state_;
  // bodyWithinLimits claims only this share of a body's limit: the rest is far more than the
  // rounding of pebble positions computed from poses.
  static constexpr double kBodyBoundShare = 0.99;
  std::size_t bodyPairs_ = 0;
  bool onePebbleShortcut_ = true;
  Seconds seconds_;
  std::unique_ptr<Scratch> scratch_;  // kept to avoid reallocating in rebuilds
};

}  // namespace clumplab
