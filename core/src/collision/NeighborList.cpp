#include "core/collision/NeighborList.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>

#include "BodyPairSearch.hpp"
#include "PebblePairSearch.hpp"
#include "TemplateGrid.hpp"
#include "base/StageClock.hpp"

namespace clumplab {

namespace {
// Sorted `keys` written to out* from `offset` on, each with the spring and stored value it has in the
// old* arrays (sorted by `less`), or zero (a linear merge from the first old key not below keys' first).
template <class Key, class Less>
void carryOver(const std::vector<Key>& keys, const std::vector<Key>& oldKeys,
               const std::vector<Vec3>& oldSprings, const std::vector<double>& oldStored, Less less,
               std::size_t offset, std::vector<Key>& outKeys, std::vector<Vec3>& outSprings,
               std::vector<double>& outStored) {
  if (keys.empty()) return;
  auto old = std::lower_bound(oldKeys.begin(), oldKeys.end(), keys.front(), less);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const Key& key = keys[k];
    while (old != oldKeys.end() && less(*old, key)) ++old;
    const bool kept = old != oldKeys.end() && !less(key, *old);
    const auto at = static_cast<std::size_t>(old - oldKeys.begin());
    outKeys[offset + k] = key;
    outSprings[offset + k] = kept ? oldSprings[at] : Vec3::Zero();
    outStored[offset + k] = kept ? oldStored[at] : 0.0;
  }
}
// limit^2 [m^2] in single precision, rounded down: x (1 - 2^-23) rounded to the nearest float is
// below x, since rounding adds at most 2^-24 x. 0 for a limit below zero or so small that floats
// lose that bound (the pebble is then tested as moved at once); the largest float for a larger one.
float squaredLimitBelow(double limit) {
  const double squared = limit * limit;
  if (!(limit > 0.0) || squared < static_cast<double>(std::numeric_limits<float>::min())) return 0.0F;
  constexpr auto kLargest = static_cast<double>(std::numeric_limits<float>::max());  // not rounded up to inf
  return static_cast<float>(std::min(squared * (1.0 - 0x1p-23), kLargest));
}
// A bound on the distance [m] between a position and its single-precision copy: the sum of the
// components' distances (no square root, at least the Euclidean distance).
double roundingOf(const Vec3& position, const Eigen::Vector3f& copy) {
  return (position - copy.cast<double>()).cwiseAbs().sum();
}
// Per pebble, its radius plus half its shaft [m]: the radii themselves when all are spheres.
const std::vector<double>& pebbleReach(const BroadPhaseInput& in, const std::vector<double>& capsuleReach) {
  return in.pebbleHalfLength.empty() ? in.pebbleRadius : capsuleReach;
}
// Displacement limits are shrunk by this factor against rounding in positions and distances.
constexpr double kLimitSafety = 0.999;
// Bodies of one block hold about this many pebbles: blocks are the unit of parallel work and of
// output order, and depend on the bodies only (never on the thread count).
constexpr std::size_t kBlockPebbles = 1024;

// Runs task(k) for k < count, on the pool's threads if there is one.
void runBlocks(ThreadPool* pool, std::size_t count, const std::function<void(std::size_t)>& task) {
  if (pool != nullptr) {
    pool->run(count, task);
  } else {
    for (std::size_t k = 0; k < count; ++k) task(k);
  }
}

}  // namespace

struct NeighborList::Scratch {
  struct BodyPairMargin {
    std::uint32_t a = 0, b = 0;
    double margin = 0.0;  // lower bound on the gap of every unlisted pebble pair of a and b [m]
  };
  // Output and work space of one block of bodies, concatenated in block order.
  struct Block {
    std::uint32_t firstBody = 0, endBody = 0;
    std::vector<std::uint32_t> partnerStart;  // per body of the block, into partners (+1 entry)
    std::vector<std::uint32_t> partners;      // candidate bodies b > a
    std::vector<BodyPairMargin> margins;      // per candidate pair
    std::vector<PebblePair> raw;              // one body's pairs before sorting
    std::vector<std::uint32_t> found;         // scratch for partner searches
    PebblePairSearch::Scratch search;
    // The block's pebble pairs and wall pairs, sorted: keys only (gatherBlocks writes them into the
    // lists with their carried history, so a pair's history is held once, in the lists).
    std::vector<PebblePair> pairs;
    std::vector<WallPair> wallPairs;
  };
  std::vector<Block> blocks;
  BodyPairSearch bodySearch;
  std::vector<TemplateGrid> templateGrids;   // per template index, rebuilt when the template changes
  std::vector<Vec3> boxLower, boxUpper;      // per body: world box of its pebbles' reaches [m]
  std::vector<Vec3> groupLower, groupUpper;  // the same per pebble group (TemplateGrid)
  std::vector<std::uint32_t> bodyFirstGroup;
  std::vector<double> capsuleReach;  // per pebble: radius plus half shaft [m], when there are capsules
  std::vector<double> bodyMargin;    // per body: lower bound on the gap to every unlisted partner [m]
  ContactHistory old;                // the held entries of the previous lists, for their history
};

NeighborList::NeighborList() : scratch_(std::make_unique<Scratch>()) {}
NeighborList::~NeighborList() = default;
NeighborList::NeighborList(NeighborList&&) noexcept = default;
NeighborList& NeighborList::operator=(NeighborList&&) noexcept = default;

bool NeighborList::needsRebuild(const std::vector<Vec3>& pebblePositions) const {
  if (!builtFor(pebblePositions.size())) return true;
  for (std::size_t i = 0; i < pebblePositions.size(); ++i) {
    if (movedTooFar(i, pebblePositions[i])) return true;
  }
  return false;
}

void NeighborList::rebuild(const BroadPhaseInput& in, ContactHistory& lists, ThreadPool* pool) {
  ++state_.rebuilds;
  startLists(in, lists);
  if (in.pebblePosition.empty() || in.bodyPosition.empty()) {
    lists.clear();
    return;
  }
  std::size_t blockCount = 0;
  {
    const StageTimer timer(seconds_.bodies);
    blockCount = findCandidateBodies(in, pool);
  }
  const StageTimer timer(seconds_.pebbles);
  Scratch& s = *scratch_;
  const PebblePairSearch bodies(in, s.templateGrids, pebbleReach(in, s.capsuleReach),
                                {s.boxLower, s.boxUpper, s.groupLower, s.groupUpper, s.bodyFirstGroup},
                                state_.skin, onePebbleShortcut_);
  listPebblePairs(bodies, blockCount, pool);
  listWallPairs(in, bodies, blockCount, pool);
  gatherBlocks(blockCount, lists);
}

// The held entries of the previous lists (sorted) are copied to the scratch, to be merged into the
// new ones for their history: an entry that holds nothing is what a new pair starts from anyway, and
// in a pile most listed pairs do not touch, so the copy is small and the lists' arrays are reused.
void NeighborList::startLists(const BroadPhaseInput& in, ContactHistory& lists) {
  Scratch& s = *scratch_;
  s.old = lists;  // the held entries only (ContactHistory's copy)
  const std::vector<Vec3>& pos = in.pebblePosition;
  const std::size_t n = pos.size();
  state_.positionsAtBuild.resize(n);
  for (std::size_t i = 0; i < n; ++i) state_.positionsAtBuild[i] = pos[i].cast<float>();
  const std::size_t bodyCount = in.bodyPosition.size();
  state_.limit2.resize(n);
  state_.bodiesAtBuild.resize(bodyCount);
  bodyPairs_ = 0;
}

// Body level: bounds, size-class grids, candidate partners b > a per body and each body's margin
// to the bodies that are not its candidates. Returns the number of blocks of bodies.
std::size_t NeighborList::findCandidateBodies(const BroadPhaseInput& in, ThreadPool* pool) {
  Scratch& s = *scratch_;
  const std::vector<Vec3>& pos = in.pebblePosition;
  const std::size_t n = pos.size();
  const std::size_t bodyCount = in.bodyPosition.size();
  s.templateGrids.resize(in.templates.size());
  for (std::size_t t = 0; t < in.templates.size(); ++t) {
    if (s.templateGrids[t].source() != in.templates[t].get())
      s.templateGrids[t] = TemplateGrid(in.templates[t]);
  }
  s.bodyMargin.resize(bodyCount);
  std::size_t blockCount = 0;
  for (std::uint32_t b = 0; b < bodyCount;) {
    if (s.blocks.size() <= blockCount) s.blocks.emplace_back();
    Scratch::Block& block = s.blocks[blockCount++];
    block.firstBody = b;
    const std::uint32_t firstPebble = in.bodyFirstPebble[b];
    do {
      ++b;
    } while (b < bodyCount && in.bodyFirstPebble[b] - firstPebble < kBlockPebbles);
    block.endBody = b;
  }
  s.boxLower.resize(bodyCount);
  s.boxUpper.resize(bodyCount);
  const bool capsules = !in.pebbleHalfLength.empty();
  s.capsuleReach.resize(capsules ? n : 0);
  for (std::size_t i = 0; capsules && i < n; ++i)
    s.capsuleReach[i] = in.pebbleRadius[i] + in.pebbleHalfLength[i];
  const std::vector<double>& reach = pebbleReach(in, s.capsuleReach);
  s.bodyFirstGroup.resize(bodyCount + 1);
  s.bodyFirstGroup[0] = 0;
  for (std::size_t b = 0; b < bodyCount; ++b) {
    s.bodyFirstGroup[b + 1] =
        s.bodyFirstGroup[b] + static_cast<std::uint32_t>(s.templateGrids[in.bodyTemplate[b]].groupCount());
  }
  s.groupLower.resize(s.bodyFirstGroup[bodyCount]);
  s.groupUpper.resize(s.bodyFirstGroup[bodyCount]);
  runBlocks(pool, blockCount, [&](std::size_t k) {
    const Scratch::Block& block = s.blocks[k];
    for (std::uint32_t b = block.firstBody; b < block.endBody; ++b) {
      const TemplateGrid& grid = s.templateGrids[in.bodyTemplate[b]];
      const std::uint32_t first = in.bodyFirstPebble[b];
      Vec3 lower = in.bodyPosition[b], upper = lower;  // a body without pebbles: a point
      for (std::size_t g = 0; g < grid.groupCount(); ++g) {
        Vec3 gl = Vec3::Constant(std::numeric_limits<double>::infinity()), gu = -gl;
        for (std::uint32_t m = grid.groupStart()[g]; m < grid.groupStart()[g + 1]; ++m) {
          const std::uint32_t i = first + grid.groupPebble()[m];
          const Vec3 r = Vec3::Constant(reach[i]);
          gl = gl.cwiseMin(pos[i] - r);
          gu = gu.cwiseMax(pos[i] + r);
        }
        s.groupLower[s.bodyFirstGroup[b] + g] = gl;
        s.groupUpper[s.bodyFirstGroup[b] + g] = gu;
        lower = g == 0 ? gl : Vec3(lower.cwiseMin(gl));
        upper = g == 0 ? gu : Vec3(upper.cwiseMax(gu));
      }
      s.boxLower[b] = lower;
      s.boxUpper[b] = upper;
    }
  });
  s.bodySearch.build(s.boxLower, s.boxUpper, state_.skin, in.periodic);
  runBlocks(pool, blockCount, [&](std::size_t k) {
    Scratch::Block& block = s.blocks[k];
    block.partnerStart.clear();
    block.partners.clear();
    for (std::uint32_t a = block.firstBody; a < block.endBody; ++a) {
      block.partnerStart.push_back(static_cast<std::uint32_t>(block.partners.size()));
      s.bodyMargin[a] = s.bodySearch.partnersOf(a, block.found);
      block.partners.insert(block.partners.end(), block.found.begin(), block.found.end());
    }
    block.partnerStart.push_back(static_cast<std::uint32_t>(block.partners.size()));
  });

  return blockCount;
}

// Pebble level: the pebble pairs of each candidate body pair, sorted per body; each body's margin to
// its unlisted partners.
void NeighborList::listPebblePairs(const PebblePairSearch& bodies, std::size_t blockCount, ThreadPool* pool) {
  Scratch& s = *scratch_;
  runBlocks(pool, blockCount, [&](std::size_t k) {
    Scratch::Block& block = s.blocks[k];
    block.margins.clear();
    block.pairs.clear();
    for (std::uint32_t a = block.firstBody; a < block.endBody; ++a) {
      block.raw.clear();
      const std::uint32_t local = a - block.firstBody;
      for (std::uint32_t p = block.partnerStart[local]; p < block.partnerStart[local + 1]; ++p) {
        const std::uint32_t b = block.partners[p];
        const double margin = bodies.collect(a, b, block.raw, block.search);
        block.margins.push_back({a, b, margin});
      }
      std::sort(block.raw.begin(), block.raw.end(), pairLess);
      block.pairs.insert(block.pairs.end(), block.raw.begin(), block.raw.end());
    }
  });
  // Each body pair's margin bounds both bodies' (in block order: the same bits for any thread count).
  for (std::size_t k = 0; k < blockCount; ++k) {
    for (const Scratch::BodyPairMargin& m : s.blocks[k].margins) {
      s.bodyMargin[m.a] = std::min(s.bodyMargin[m.a], m.margin);
      s.bodyMargin[m.b] = std::min(s.bodyMargin[m.b], m.margin);
      ++bodyPairs_;
    }
  }
}

// Wall pairs and displacement limits, pebble by pebble.
void NeighborList::listWallPairs(const BroadPhaseInput& in, const PebblePairSearch& bodies,
                                 std::size_t blockCount, ThreadPool* pool) {
  Scratch& s = *scratch_;
  const std::vector<Vec3>& pos = in.pebblePosition;
  const bool capsules = !in.pebbleHalfLength.empty();
  runBlocks(pool, blockCount, [&](std::size_t k) {
    Scratch::Block& block = s.blocks[k];
    block.wallPairs.clear();
    for (std::uint32_t a = block.firstBody; a < block.endBody; ++a) {
      // Every unlisted partner is at least `margin` beyond touching (never less than the skin: the
      // lists hold every pair closer than that).
      const double margin = std::max(state_.skin, s.bodyMargin[a]);
      BodyAtBuild& atBuild = state_.bodiesAtBuild[a];
      atBuild = {bodies.firstPebble(a),
                 bodies.endPebble(a),
                 in.bodyPosition[a],
                 in.bodyOrientation[a],
                 0.0,
                 std::numeric_limits<double>::infinity()};
      for (std::uint32_t i = bodies.firstPebble(a), end = bodies.endPebble(a); i < end; ++i) {
        atBuild.reach = std::max(atBuild.reach, (pos[i] - in.bodyPosition[a]).norm());
        double limit = 0.5 * margin;
        const double r = bodies.reach(i);
        for (std::size_t w = 0; w < in.walls.size(); ++w) {
          const Wall& wall = in.walls[w];
          if (wall.passes(in.pebbleRadius[i])) continue;  // never touches: no pair and no limit
          if (wall.kind == Wall::Kind::Mesh) continue;  // mesh walls have their own stage (MeshWallContacts)
          const double clearance = wall.clearance(pos[i]) - r;
          if (clearance >= state_.skin) {
            limit = std::min(limit, clearance);
            continue;
          }
          const std::uint32_t ends = capsules && in.pebbleHalfLength[i] > 0.0 ? 2 : 1;
          for (std::uint32_t e = 0; e < ends; ++e)
            block.wallPairs.push_back({i, static_cast<std::uint32_t>(w), e});
        }
        limit *= kLimitSafety;
        // The reference position is kept in single precision: the limit from it gives up the distance
        // to the pebble, and the body's bound twice that (NeighborList.hpp, State).
        const double rounding = roundingOf(pos[i], state_.positionsAtBuild[i]);
        state_.limit2[i] = squaredLimitBelow(limit - rounding);
        atBuild.limit = std::min(atBuild.limit, limit - 2.0 * rounding);
      }
      atBuild.reach *= 1.0 + 1e-9;  // rounding of the distances
    }
  });
}

// The blocks' keys, concatenated in block order into the lists (the same bits for any thread count),
// each with the history the previous lists held for it.
void NeighborList::gatherBlocks(std::size_t blockCount, ContactHistory& lists) {
  const Scratch& s = *scratch_;
  std::size_t pairCount = 0, wallCount = 0;
  for (std::size_t k = 0; k < blockCount; ++k) {
    pairCount += s.blocks[k].pairs.size();
    wallCount += s.blocks[k].wallPairs.size();
  }
  lists.pairs.resize(pairCount);
  lists.pairSprings.resize(pairCount);
  lists.pairStored.resize(pairCount);
  lists.wallPairs.resize(wallCount);
  lists.wallSprings.resize(wallCount);
  lists.wallStored.resize(wallCount);
  std::size_t pairAt = 0, wallAt = 0;
  for (std::size_t k = 0; k < blockCount; ++k) {
    const Scratch::Block& block = s.blocks[k];
    carryOver(block.pairs, s.old.pairs, s.old.pairSprings, s.old.pairStored, pairLess, pairAt, lists.pairs,
              lists.pairSprings, lists.pairStored);
    carryOver(block.wallPairs, s.old.wallPairs, s.old.wallSprings, s.old.wallStored, wallPairLess, wallAt,
              lists.wallPairs, lists.wallSprings, lists.wallStored);
    pairAt += block.pairs.size();
    wallAt += block.wallPairs.size();
  }
}

void NeighborList::invalidate() {
  state_.positionsAtBuild.clear();  // no list for any pebble: needsRebuild holds
  state_.limit2.clear();
  state_.bodiesAtBuild.clear();
}

void NeighborList::removePebbles(std::uint32_t first, std::uint32_t count) {
  const std::uint32_t end = first + count;
  if (end <= state_.positionsAtBuild.size()) {
    state_.positionsAtBuild.erase(state_.positionsAtBuild.begin() + first,
                                  state_.positionsAtBuild.begin() + end);
    state_.limit2.erase(state_.limit2.begin() + first, state_.limit2.begin() + end);
    // The bodies that had any of these pebbles go too (those above are renumbered). An entry left
    // for a removed body without pebbles never matches: bodyWithinLimits wants pebbles.
    std::erase_if(state_.bodiesAtBuild,
                  [&](const BodyAtBuild& b) { return b.firstPebble < end && b.endPebble > first; });
    for (BodyAtBuild& b : state_.bodiesAtBuild) {
      if (b.firstPebble >= end) {
        b.firstPebble -= count;
        b.endPebble -= count;
      }
    }
  } else {
    state_.positionsAtBuild.clear();  // no valid list: the next evaluation builds one
    state_.limit2.clear();
    state_.bodiesAtBuild.clear();
  }
}

void NeighborList::translatePebbles(std::uint32_t first, std::uint32_t count, const Vec3& shift) {
  if (static_cast<std::size_t>(first) + count > state_.positionsAtBuild.size())
    return;  // no list: the next evaluation builds one
  // A shifted reference is rounded again (single precision): each limit gives up what that moved it
  // from the exact shift, and the body's bound twice the most of its pebbles'.
  double rounded = 0.0;
  for (std::uint32_t i = first; i < first + count; ++i) {
    const Vec3 exact = state_.positionsAtBuild[i].cast<double>() + shift;
    state_.positionsAtBuild[i] = exact.cast<float>();
    const double rounding = roundingOf(exact, state_.positionsAtBuild[i]);
    state_.limit2[i] = squaredLimitBelow(std::sqrt(static_cast<double>(state_.limit2[i])) - rounding);
    rounded = std::max(rounded, rounding);
  }
  // The body that holds exactly these pebbles moved with them (else its test stays conservative:
  // its reference pose is then off by the shift, and its pebbles are tested one by one).
  const auto body = std::lower_bound(state_.bodiesAtBuild.begin(), state_.bodiesAtBuild.end(), first,
                                     [](const BodyAtBuild& b, std::uint32_t p) { return b.firstPebble < p; });
  if (body != state_.bodiesAtBuild.end() && body->firstPebble == first && body->endPebble == first + count) {
    body->position += shift;
    body->limit -= 2.0 * rounded;
  }
}

}  // namespace clumplab
