#include "core/collision/ContactSolver.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "ContactKernels.hpp"
#include "core/clump/ShaftDistance.hpp"
#include "core/collision/ContactLaw.hpp"

namespace clumplab {

namespace {

// The points that touch like spheres: for spherocylinders the closest points of the shafts
// (Meland et al., Cluster integration method, Fig. 2, R_ij = R_b - R_a), for spheres their centres.
void shaftPoints(const PebbleArrays& pebbles, std::uint32_t a, std::uint32_t b, Vec3& pa, Vec3& pb) {
  const double ha = pebbles.halfLength[a], hb = pebbles.halfLength[b];
  if (ha == 0.0 && hb == 0.0) return;
  const ShaftClosestPoints c = closestShaftPoints(pb - pa, pebbles.axis[a], ha, pebbles.axis[b], hb);
  pa += c.lambdaI * pebbles.axis[a];
  pb += c.lambdaJ * pebbles.axis[b];
}

// Where the sphere of a wall pair sits: a spherocylinder's shaft end `end`, else the centre.
Vec3 wallPoint(const PebbleArrays& pebbles, const WallPair& pair) {
  const Vec3& p = pebbles.position[pair.pebble];
  if (!pebbles.hasCapsules()) return p;
  const double h = pebbles.halfLength[pair.pebble];
  if (h == 0.0) return p;
  return p + (pair.end == 0 ? -h : h) * pebbles.axis[pair.pebble];
}

// A chunk's energy sums, made in list order (of the pairs that touch or release a spring).
struct ChunkSums {
  double springEnergyChange = 0.0;  // [J], released and stored springs
  double hysteresisLoss = 0.0;      // [J], Mutze's hysteresis
};

// One evaluation of the contact laws over the Verlet list's pebble pairs and wall pairs: what it
// reads (the law, the pebbles and bodies, the walls) and the springs it advances, with the loops of
// ContactSolver::compute as named steps. Each chunk's sums are made in list order, so they do not
// depend on the number of threads.
class ContactPass {
 public:
  ContactPass(const ContactModel& model, ContactHistory& history, const PebbleArrays& pebbles,
              const BodyState& bodies, const std::vector<Wall>& walls, double dt, const PeriodicBox& periodic,
              const DriftVelocities& drift, bool pebblesAreBodies)
      : model_(model),
        pebbles_(pebbles),
        bodies_(bodies),
        walls_(walls),
        periodic_(periodic),
        dt_(dt),
        pairs_(history.pairs),
        wallPairs_(history.wallPairs),
        history_(history.pairSprings),
        wallHistory_(history.wallSprings),
        stiffness_(history.pairStored),
        wallStiffness_(history.wallStored),
        dampingRatio_(modelDampingRatio(model)),
        // Only a tangential spring (the linear and Hertz-Mindlin laws' with friction) reads the drift
        // velocities.
        separateDrift_(drift.given() && !contactModelIsHistoryFree(model)),
        driftVelocity_(separateDrift_ ? *drift.linear : bodies.velocity),
        driftAngularVelocity_(separateDrift_ ? *drift.angular : bodies.angularVelocity),
        // The linear law's tangential stiffness is one constant: its contacts leave the stored
        // stiffness alone (no memory traffic in the hot loop); Hertz-Mindlin's follows each overlap
        // and is stored.
        linear_(model.kind == ContactModel::Kind::Linear),
        linearKt_(model.linear.tangentialStiffnessRatio * model.linear.stiffness),
        // Mutze's law with delta < 1 keeps each contact's largest overlap where the others keep the
        // spring's stiffness (ContactKernels.hpp, hertzNormalForce).
        overlapMemory_(keepsLargestOverlap(model)),
        pebblesAreBodies_(pebblesAreBodies) {}

  std::size_t pairCount() const { return pairs_.size(); }
  std::size_t wallPairCount() const { return wallPairs_.size(); }

  // The pebble pairs [begin, end) into `out`, compiled for spheres only (the common case, untouched
  // by spherocylinders) or with spherocylinders, each without and with periodic axes.
  [[gnu::flatten]] void pairChunk(std::size_t begin, std::size_t end, ContactChunk& out,
                                  ChunkSums& sums) const {
    const bool capsules = pebbles_.hasCapsules();
    const bool periodic = periodic_.any();
    if (capsules && periodic) {
      pairContacts<true, true>(begin, end, out, sums);
    } else if (capsules) {
      pairContacts<true, false>(begin, end, out, sums);
    } else if (periodic) {
      pairContacts<false, true>(begin, end, out, sums);
    } else {
      pairContacts<false, false>(begin, end, out, sums);
    }
  }

  // The wall pairs [begin, end) into `out`.
  void wallChunk(std::size_t begin, std::size_t end, ContactChunk& out, ChunkSums& sums) const {
    Touch t{};
    for (std::size_t k = begin; k < end; ++k) {
      const std::uint32_t pebble = wallPairs_[k].pebble, wallIndex = wallPairs_[k].wall;
      const double r = pebbles_.radius[pebble];
      if (!touchWall(walls_[wallIndex], wallPoint(pebbles_, wallPairs_[k]), r, pebbles_.position[pebble],
                     t)) {
        release(wallHistory_, wallStiffness_, k, sums.springEnergyChange);
        continue;
      }
      const std::uint32_t body = pebbles_.body[pebble];
      const Vec3 w = velocityAt(body, t.point, bodies_.position[body]);
      const Vec3 wDrift = separateDrift_ ? driftAt(body, t.point, bodies_.position[body]) : w;
      const LawResult f = force(t, w, wDrift, bodies_.mass[body], wallHistory_[k], wallStiffness_[k]);
      sums.springEnergyChange += f.springEnergyChange;
      sums.hysteresisLoss += f.hysteresisLoss;
      out.records.push_back({body, kWallBody, f.force, t.point, f.dissipative, wallIndex});
      ++out.wallContacts;
      noteOverlap(out, t.overlap / r, body);
    }
  }

 private:
  // Pass 1, without a branch on the outcome: the pairs of [begin, end) that may touch (for spheres
  // exactly the test of pass 2; a spherocylinder within its shaft's half length of its centre), into
  // `near`, and the springs of the others released. Most candidate pairs of a Verlet list do not
  // touch, so this pass is most of the work, and the full test sees only the few that do.
  template <bool kCapsules, bool kPeriodic>
  std::size_t collectNearPairs(std::size_t begin, std::size_t end, std::vector<std::uint32_t>& near,
                               double& springEnergyChange) const {
    near.resize(end - begin);
    std::size_t nearCount = 0;
    for (std::size_t k = begin; k < end; ++k) {
      const auto [a, b] = pairs_[k];
      Vec3 pb = pebbles_.position[b];
      if constexpr (kPeriodic) pb += imageShift(a, b);
      double range = pebbles_.radius[a] + pebbles_.radius[b];
      if constexpr (kCapsules)
        range = (range + pebbles_.halfLength[a] + pebbles_.halfLength[b]) * (1.0 + 1e-12);
      const bool mayTouch = (pebbles_.position[a] - pb).squaredNorm() < range * range;
      near[nearCount] = static_cast<std::uint32_t>(k);
      nearCount += mayTouch ? 1 : 0;
      // Rarely true (a pair that just stopped touching): a predictable branch.
      const bool held = history_[k].squaredNorm() != 0.0 || (overlapMemory_ && stiffness_[k] != 0.0);
      if (static_cast<int>(!mayTouch) & static_cast<int>(held)) {
        release(history_, stiffness_, k, springEnergyChange);
      }
    }
    return nearCount;
  }

  // Pass 2: the full test of the pairs pass 1 kept and the contact law, in list order.
  template <bool kCapsules, bool kPeriodic>
  void pairContacts(std::size_t begin, std::size_t end, ContactChunk& out, ChunkSums& sums) const {
    std::vector<std::uint32_t>& near = *out.nearPairs;
    const std::size_t nearCount =
        collectNearPairs<kCapsules, kPeriodic>(begin, end, near, sums.springEnergyChange);
    Touch t{};
    for (std::size_t i = 0; i < nearCount; ++i) {
      const std::size_t k = near[i];
      const auto [a, b] = pairs_[k];
      const double ra = pebbles_.radius[a], rb = pebbles_.radius[b];
      // Across a periodic face: B's image nearest A, one shift for all pebbles of the two bodies.
      Vec3 shift = Vec3::Zero();
      if constexpr (kPeriodic) shift = imageShift(a, b);
      bool touching = false;
      if constexpr (kCapsules) {
        Vec3 pa = pebbles_.position[a], pb = pebbles_.position[b];
        if constexpr (kPeriodic) pb += shift;
        shaftPoints(pebbles_, a, b, pa, pb);
        touching = touchPebbles(pa, ra, pb, rb, t);
      } else if constexpr (kPeriodic) {
        touching = touchPebbles(pebbles_.position[a], ra, pebbles_.position[b] + shift, rb, t);
      } else {
        touching = touchPebbles(pebbles_.position[a], ra, pebbles_.position[b], rb, t);
      }
      if (!touching) {
        release(history_, stiffness_, k, sums.springEnergyChange);
        continue;
      }
      const std::uint32_t ba = pebblesAreBodies_ ? a : pebbles_.body[a];
      const std::uint32_t bb = pebblesAreBodies_ ? b : pebbles_.body[b];
      const Vec3& centerA = bodies_.position[ba];
      Vec3 centerB = bodies_.position[bb];
      if constexpr (kPeriodic) centerB += shift;
      const Vec3 w = velocityAt(ba, t.point, centerA) - velocityAt(bb, t.point, centerB);
      const Vec3 wDrift =
          separateDrift_ ? Vec3(driftAt(ba, t.point, centerA) - driftAt(bb, t.point, centerB)) : w;
      const double ma = bodies_.mass[ba], mb = bodies_.mass[bb];
      const LawResult f = force(t, w, wDrift, ma * mb / (ma + mb), history_[k], stiffness_[k]);
      sums.springEnergyChange += f.springEnergyChange;
      sums.hysteresisLoss += f.hysteresisLoss;
      out.records.push_back({ba, bb, f.force, t.point, f.dissipative});
      ++out.pebbleContacts;
      noteOverlap(out, t.overlap / std::min(ra, rb), ba);
    }
  }

  // The shift that brings pebble b's body to its image nearest pebble a's (periodic axes). Where
  // every body is its one centred pebble, the pebbles' positions are the centres (two random reads
  // of the bodies' fewer per pair).
  Vec3 imageShift(std::uint32_t a, std::uint32_t b) const {
    if (pebblesAreBodies_) return bodyImageShift(periodic_, pebbles_.position[a], pebbles_.position[b]);
    return bodyImageShift(periodic_, bodies_.position[pebbles_.body[a]], bodies_.position[pebbles_.body[b]]);
  }

  // The velocity of body `body`'s point at `point`, from the velocities v, w, its centre at `center`.
  static Vec3 pointVelocity(const std::vector<Vec3>& v, const std::vector<Vec3>& w, std::uint32_t body,
                            const Vec3& point, const Vec3& center) {
    return v[body] + w[body].cross(point - center);
  }
  Vec3 velocityAt(std::uint32_t body, const Vec3& point, const Vec3& center) const {
    return pointVelocity(bodies_.velocity, bodies_.angularVelocity, body, point, center);
  }
  Vec3 driftAt(std::uint32_t body, const Vec3& point, const Vec3& center) const {
    return pointVelocity(driftVelocity_, driftAngularVelocity_, body, point, center);
  }

  LawResult force(const Touch& t, const Vec3& w, const Vec3& wDrift, double massEff, Vec3& spring,
                  double& storedStiffness) const {
    if (linear_) {
      double kt = linearKt_;
      return linearForce(model_.linear, dampingRatio_, t, w, wDrift, massEff, spring, kt, dt_);
    }
    return lawForce(model_, dampingRatio_, t, w, wDrift, massEff, spring, storedStiffness, dt_);
  }

  // A pair that stops touching releases its tangential spring: that energy 1/2 kt |xi|^2 is lost
  // (Mutze's Hertz law keeps no spring and elasticEnergy() counts none; it forgets the largest
  // overlap, whose branch stores nothing once the pebbles part). Spring k of `springs`, its
  // stiffness `stiffnesses[k]` read only here (the rare case).
  void release(std::vector<Vec3>& springs, std::vector<double>& stiffnesses, std::size_t k,
               double& springEnergyChange) const {
    if (overlapMemory_) {
      stiffnesses[k] = 0.0;
      return;
    }
    Vec3& spring = springs[k];
    const double length2 = spring.squaredNorm();
    if (length2 == 0.0) return;  // most pairs in the list: leave their cache lines clean
    springEnergyChange -= 0.5 * (linear_ ? linearKt_ : stiffnesses[k]) * length2;
    spring.setZero();
    stiffnesses[k] = 0.0;  // nothing held (ContactHistory::held)
  }

  static void noteOverlap(ContactChunk& out, double ratio, std::uint32_t body) {
    if (ratio > out.worstOverlapRatio) {
      out.worstOverlapRatio = ratio;
      out.worstBody = body;
    }
  }

  const ContactModel& model_;
  const PebbleArrays& pebbles_;
  const BodyState& bodies_;
  const std::vector<Wall>& walls_;
  const PeriodicBox& periodic_;
  const double dt_;
  const std::vector<PebblePair>& pairs_;
  const std::vector<WallPair>& wallPairs_;
  std::vector<Vec3>& history_;
  std::vector<Vec3>& wallHistory_;
  std::vector<double>& stiffness_;
  std::vector<double>& wallStiffness_;
  const double dampingRatio_;
  const bool separateDrift_;
  const std::vector<Vec3>& driftVelocity_;
  const std::vector<Vec3>& driftAngularVelocity_;
  const bool linear_;
  const double linearKt_;
  const bool overlapMemory_;
  const bool pebblesAreBodies_;
};

// Per chunk c of `chunks`, the index of the first key whose first pebble is at least c x kChunkPebbles
// (one more entry closes the last chunk). `keys` are sorted by `less`, which compares first pebbles first;
// `smallestKeyOf(p)` is the smallest key whose first pebble is p.
template <class Key, class Less, class SmallestKey>
void chunkStarts(const std::vector<Key>& keys, Less less, SmallestKey smallestKeyOf, std::size_t pebbleCount,
                 std::size_t chunks, std::vector<std::size_t>& starts) {
  starts.resize(chunks + 1);
  for (std::size_t c = 0; c <= chunks; ++c) {
    const Key probe =
        smallestKeyOf(static_cast<std::uint32_t>(std::min(c * ContactSolver::kChunkPebbles, pebbleCount)));
    starts[c] =
        static_cast<std::size_t>(std::lower_bound(keys.begin(), keys.end(), probe, less) - keys.begin());
  }
}

}  // namespace

void ContactSolver::compute(const ContactModel& model, ContactHistory& history, const PebbleArrays& pebbles,
                            const BodyState& bodies, const std::vector<Wall>& walls, double dt,
                            ThreadPool& pool, const PeriodicBox& periodic, const DriftVelocities& drift,
                            bool pebblesAreBodies) {
  const ContactPass pass(model, history, pebbles, bodies, walls, dt, periodic, drift, pebblesAreBodies);
  // Chunks are pebble ranges: chunk c takes the pairs whose first pebble (the wall pairs whose pebble)
  // lies in [c, c + 1) x kChunkPebbles, found by bisection in the sorted lists. Its records and sums
  // then depend on the pairs that touch or held a spring, never on which other pairs the list holds:
  // a list rebuilt at another time (a restored checkpoint) gives the ledger the same bits.
  const std::size_t pebbleCount = pebbles.position.size();
  const std::size_t ranges = (pebbleCount + kChunkPebbles - 1) / kChunkPebbles;
  const std::vector<PebblePair>& pairs = history.pairs;
  const std::vector<WallPair>& wallPairs = history.wallPairs;
  const std::size_t pairChunks = pairs.empty() ? 0 : ranges;
  const std::size_t wallChunks = wallPairs.empty() ? 0 : ranges;
  const auto smallestPairOf = [](std::uint32_t p) { return PebblePair{p, 0}; };
  const auto smallestWallPairOf = [](std::uint32_t p) { return WallPair{p, 0, 0}; };
  chunkStarts(pairs, pairLess, smallestPairOf, pebbleCount, pairChunks, pairStart_);
  chunkStarts(wallPairs, wallPairLess, smallestWallPairOf, pebbleCount, wallChunks, wallStart_);
  usedChunks_ = pairChunks + wallChunks;
  if (chunks_.size() < usedChunks_) chunks_.resize(usedChunks_);
  pool.run(usedChunks_, [&](std::size_t chunkIndex) {
    ContactChunk& out = chunks_[chunkIndex];
    out.records.clear();
    out.worstOverlapRatio = 0.0;
    out.pebbleContacts = 0;
    out.wallContacts = 0;
    ChunkSums sums;
    if (chunkIndex < pairChunks) {
      pass.pairChunk(pairStart_[chunkIndex], pairStart_[chunkIndex + 1], out, sums);
    } else {
      const std::size_t c = chunkIndex - pairChunks;
      pass.wallChunk(wallStart_[c], wallStart_[c + 1], out, sums);
    }
    out.springEnergyChange = sums.springEnergyChange;
    out.hysteresisLoss = sums.hysteresisLoss;
  });
}

void ContactSolver::removeBody(std::uint32_t body) {
  const auto renumbered = [&](std::uint32_t b) { return b != kWallBody && b > body ? b - 1 : b; };
  for (std::size_t c = 0; c < usedChunks_; ++c) {
    ContactChunk& chunk = chunks_[c];
    std::erase_if(chunk.records, [&](const ContactRecord& r) { return r.bodyA == body || r.bodyB == body; });
    chunk.pebbleContacts = chunk.wallContacts = 0;
    for (ContactRecord& r : chunk.records) {
      r.bodyA = renumbered(r.bodyA);
      r.bodyB = renumbered(r.bodyB);
      ++(r.bodyB == kWallBody ? chunk.wallContacts : chunk.pebbleContacts);
    }
    if (chunk.worstBody == body) chunk.worstOverlapRatio = 0.0;
    chunk.worstBody = renumbered(chunk.worstBody);
  }
}

void ContactSolver::translatePoints(const std::vector<Vec3>& shiftOfBody) {
  for (std::size_t c = 0; c < usedChunks_; ++c) {
    for (ContactRecord& r : chunks_[c].records) r.point += shiftOfBody[r.bodyA];
  }
}

double ContactSolver::elasticEnergy(const ContactModel& model, const ContactHistory& history,
                                    const PebbleArrays& pebbles, const std::vector<Wall>& walls,
                                    const std::vector<Vec3>& bodyPositions, const PeriodicBox& periodic) {
  double energy = 0.0;
  Touch t{};
  const bool linear = model.kind == ContactModel::Kind::Linear;  // one kt, not stored (compute())
  const double linearKt = model.linear.tangentialStiffnessRatio * model.linear.stiffness;
  // `stored`: the spring's stiffness, or for Mutze's law its largest overlap (its spring is zero).
  const auto add = [&](const Touch& touch, const Vec3& spring, double stored) {
    energy +=
        normalElasticEnergy(model, touch, stored) + 0.5 * (linear ? linearKt : stored) * spring.squaredNorm();
  };
  const auto& pairs = history.pairs;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const auto [a, b] = pairs[k];
    Vec3 pa = pebbles.position[a], pb = pebbles.position[b];
    if (periodic.any())
      pb += bodyImageShift(periodic, bodyPositions[pebbles.body[a]], bodyPositions[pebbles.body[b]]);
    if (pebbles.hasCapsules()) shaftPoints(pebbles, a, b, pa, pb);
    if (touchPebbles(pa, pebbles.radius[a], pb, pebbles.radius[b], t)) {
      add(t, history.pairSprings[k], history.pairStored[k]);
    }
  }
  const auto& wallPairs = history.wallPairs;
  for (std::size_t k = 0; k < wallPairs.size(); ++k) {
    const std::uint32_t pebble = wallPairs[k].pebble, wall = wallPairs[k].wall;
    if (touchWall(walls[wall], wallPoint(pebbles, wallPairs[k]), pebbles.radius[pebble],
                  pebbles.position[pebble], t)) {
      add(t, history.wallSprings[k], history.wallStored[k]);
    }
  }
  return energy;
}

}  // namespace clumplab
