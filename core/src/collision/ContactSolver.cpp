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

}  // namespace

void ContactSolver::compute(const ContactModel& model, NeighborList& neighbors, const PebbleArrays& pebbles,
                            const BodyState& bodies, const std::vector<Wall>& walls, double dt,
                            ThreadPool& pool, const PeriodicBox& periodic, const DriftVelocities& drift) {
  const auto& pairs = neighbors.pairs();
  const auto& wallPairs = neighbors.wallPairs();
  auto& history = neighbors.pairHistory();
  auto& wallHistory = neighbors.wallHistory();
  auto& stiffness = neighbors.pairSpringStiffness();
  auto& wallStiffness = neighbors.wallSpringStiffness();
  const std::size_t pairChunks = (pairs.size() + kChunkSize - 1) / kChunkSize;
  const std::size_t wallChunks = (wallPairs.size() + kChunkSize - 1) / kChunkSize;
  usedChunks_ = pairChunks + wallChunks;
  if (chunks_.size() < usedChunks_) chunks_.resize(usedChunks_);

  // The velocity of body `body`'s point at `point`, from the velocities v, w, its centre at `center`.
  const auto pointVelocity = [](const std::vector<Vec3>& v, const std::vector<Vec3>& w, std::uint32_t body,
                                const Vec3& point, const Vec3& center) -> Vec3 {
    return v[body] + w[body].cross(point - center);
  };
  const double dampingRatio = modelDampingRatio(model);
  // Only a tangential spring (the linear and Hertz-Mindlin laws' with friction) reads the drift
  // velocities.
  const bool separateDrift = drift.given() && !contactModelIsHistoryFree(model);
  const std::vector<Vec3>& driftVelocity = separateDrift ? *drift.linear : bodies.velocity;
  const std::vector<Vec3>& driftAngularVelocity = separateDrift ? *drift.angular : bodies.angularVelocity;
  const auto velocityAt = [&](std::uint32_t body, const Vec3& point, const Vec3& center) {
    return pointVelocity(bodies.velocity, bodies.angularVelocity, body, point, center);
  };
  const auto driftAt = [&](std::uint32_t body, const Vec3& point, const Vec3& center) {
    return pointVelocity(driftVelocity, driftAngularVelocity, body, point, center);
  };
  const bool capsules = pebbles.hasCapsules();
  const bool isPeriodic = periodic.any();
  // The linear law's tangential stiffness is one constant: its contacts leave the stored stiffness
  // alone (no memory traffic in the hot loop); Hertz-Mindlin's follows each overlap and is stored.
  const bool linear = model.kind == ContactModel::Kind::Linear;
  const double linearKt = model.linear.tangentialStiffnessRatio * model.linear.stiffness;
  const auto force = [&](const Touch& t, const Vec3& w, const Vec3& wDrift, double massEff, Vec3& spring,
                         double& storedStiffness) -> LawResult {
    if (linear) {
      double kt = linearKt;
      return linearForce(model.linear, dampingRatio, t, w, wDrift, massEff, spring, kt, dt);
    }
    return lawForce(model, dampingRatio, t, w, wDrift, massEff, spring, storedStiffness, dt);
  };
  // Mutze's law with delta < 1 keeps each contact's largest overlap where the others keep the spring's
  // stiffness (ContactKernels.hpp, hertzNormalForce).
  const bool overlapMemory = keepsLargestOverlap(model);
  // A pair that stops touching releases its tangential spring: that energy 1/2 kt |xi|^2 is lost
  // (Mutze's Hertz law keeps no spring and elasticEnergy() counts none; it forgets the largest overlap,
  // whose branch stores nothing once the pebbles part).
  // Spring k of `springs`, its stiffness `stiffnesses[k]` read only here (the rare case).
  const auto release = [&](std::vector<Vec3>& springs, std::vector<double>& stiffnesses, std::size_t k,
                           double& springEnergyChange) {
    if (overlapMemory) {
      stiffnesses[k] = 0.0;
      return;
    }
    Vec3& spring = springs[k];
    const double length2 = spring.squaredNorm();
    if (length2 == 0.0) return;  // most pairs in the list: leave their cache lines clean
    springEnergyChange -= 0.5 * (linear ? linearKt : stiffnesses[k]) * length2;
    spring.setZero();
  };

  pool.run(usedChunks_, [&](std::size_t chunkIndex) {
    ContactChunk& out = chunks_[chunkIndex];
    out.records.clear();
    out.worstOverlapRatio = 0.0;
    out.pebbleContacts = 0;
    out.wallContacts = 0;
    double springEnergyChange = 0.0, hysteresisLoss = 0.0;
    Touch t{};
    // The pair loop, compiled for spheres only (the common case, untouched by spherocylinders) and
    // with spherocylinders, each without and with periodic axes.
    const auto pairLoop = [&](auto withCapsules, auto withPeriodic) {
      const std::size_t begin = chunkIndex * kChunkSize;
      const std::size_t end = std::min(pairs.size(), begin + kChunkSize);
      // Pass 1, without a branch on the outcome: the pairs that may touch (for spheres exactly the
      // test below; a spherocylinder within its shaft's half length of its centre), and the springs
      // of the others released. Most candidate pairs of a Verlet list do not touch, so this pass is
      // most of the work, and the full test in pass 2 sees only the few that do.
      std::vector<std::uint32_t>& near = out.scratch.nearPairs;
      near.resize(end - begin);
      std::size_t nearCount = 0;
      for (std::size_t k = begin; k < end; ++k) {
        const auto [a, b] = pairs[k];
        Vec3 pb = pebbles.position[b];
        if constexpr (decltype(withPeriodic)::value) {
          pb += bodyImageShift(periodic, bodies.position[pebbles.body[a]], bodies.position[pebbles.body[b]]);
        }
        double range = pebbles.radius[a] + pebbles.radius[b];
        if constexpr (decltype(withCapsules)::value) {
          range = (range + pebbles.halfLength[a] + pebbles.halfLength[b]) * (1.0 + 1e-12);
        }
        const bool mayTouch = (pebbles.position[a] - pb).squaredNorm() < range * range;
        near[nearCount] = static_cast<std::uint32_t>(k);
        nearCount += mayTouch ? 1 : 0;
        // Rarely true (a pair that just stopped touching): a predictable branch.
        const bool held = history[k].squaredNorm() != 0.0 || (overlapMemory && stiffness[k] != 0.0);
        if (static_cast<int>(!mayTouch) & static_cast<int>(held)) {
          release(history, stiffness, k, springEnergyChange);
        }
      }
      // Pass 2: the full test and the contact law, in list order.
      for (std::size_t i = 0; i < nearCount; ++i) {
        const std::size_t k = near[i];
        const auto [a, b] = pairs[k];
        const double ra = pebbles.radius[a], rb = pebbles.radius[b];
        // Across a periodic face: B's image nearest A, one shift for all pebbles of the two bodies.
        Vec3 shift = Vec3::Zero();
        if constexpr (decltype(withPeriodic)::value) {
          shift =
              bodyImageShift(periodic, bodies.position[pebbles.body[a]], bodies.position[pebbles.body[b]]);
        }
        bool touching = false;
        if constexpr (decltype(withCapsules)::value) {
          Vec3 pa = pebbles.position[a], pb = pebbles.position[b];
          if constexpr (decltype(withPeriodic)::value) pb += shift;
          shaftPoints(pebbles, a, b, pa, pb);
          touching = touchPebbles(pa, ra, pb, rb, t);
        } else if constexpr (decltype(withPeriodic)::value) {
          touching = touchPebbles(pebbles.position[a], ra, pebbles.position[b] + shift, rb, t);
        } else {
          touching = touchPebbles(pebbles.position[a], ra, pebbles.position[b], rb, t);
        }
        if (!touching) {
          release(history, stiffness, k, springEnergyChange);
          continue;
        }
        const std::uint32_t ba = pebbles.body[a], bb = pebbles.body[b];
        const Vec3& centerA = bodies.position[ba];
        Vec3 centerB = bodies.position[bb];
        if constexpr (decltype(withPeriodic)::value) centerB += shift;
        const Vec3 w = velocityAt(ba, t.point, centerA) - velocityAt(bb, t.point, centerB);
        const Vec3 wDrift =
            separateDrift ? Vec3(driftAt(ba, t.point, centerA) - driftAt(bb, t.point, centerB)) : w;
        const double ma = bodies.mass[ba], mb = bodies.mass[bb];
        const LawResult f = force(t, w, wDrift, ma * mb / (ma + mb), history[k], stiffness[k]);
        springEnergyChange += f.springEnergyChange;
        hysteresisLoss += f.hysteresisLoss;
        out.records.push_back({ba, bb, f.force, t.point, f.dissipative});
        ++out.pebbleContacts;
        const double ratio = t.overlap / std::min(ra, rb);
        if (ratio > out.worstOverlapRatio) {
          out.worstOverlapRatio = ratio;
          out.worstBody = ba;
        }
      }
    };
    if (chunkIndex < pairChunks) {
      if (capsules && isPeriodic) {
        pairLoop(std::true_type{}, std::true_type{});
      } else if (capsules) {
        pairLoop(std::true_type{}, std::false_type{});
      } else if (isPeriodic) {
        pairLoop(std::false_type{}, std::true_type{});
      } else {
        pairLoop(std::false_type{}, std::false_type{});
      }
    } else {
      const std::size_t begin = (chunkIndex - pairChunks) * kChunkSize;
      const std::size_t end = std::min(wallPairs.size(), begin + kChunkSize);
      for (std::size_t k = begin; k < end; ++k) {
        const std::uint32_t pebble = wallPairs[k].pebble, wallIndex = wallPairs[k].wall;
        const double r = pebbles.radius[pebble];
        if (!touchWall(walls[wallIndex], wallPoint(pebbles, wallPairs[k]), r, pebbles.position[pebble], t)) {
          release(wallHistory, wallStiffness, k, springEnergyChange);
          continue;
        }
        const std::uint32_t body = pebbles.body[pebble];
        const Vec3 w = velocityAt(body, t.point, bodies.position[body]);
        const Vec3 wDrift = separateDrift ? driftAt(body, t.point, bodies.position[body]) : w;
        const LawResult f = force(t, w, wDrift, bodies.mass[body], wallHistory[k], wallStiffness[k]);
        springEnergyChange += f.springEnergyChange;
        hysteresisLoss += f.hysteresisLoss;
        out.records.push_back({body, kWallBody, f.force, t.point, f.dissipative, wallIndex});
        ++out.wallContacts;
        const double ratio = t.overlap / r;
        if (ratio > out.worstOverlapRatio) {
          out.worstOverlapRatio = ratio;
          out.worstBody = body;
        }
      }
    }
    out.springEnergyChange = springEnergyChange;
    out.hysteresisLoss = hysteresisLoss;
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

double ContactSolver::elasticEnergy(const ContactModel& model, const NeighborList& neighbors,
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
  const auto& pairs = neighbors.pairs();
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const auto [a, b] = pairs[k];
    Vec3 pa = pebbles.position[a], pb = pebbles.position[b];
    if (periodic.any())
      pb += bodyImageShift(periodic, bodyPositions[pebbles.body[a]], bodyPositions[pebbles.body[b]]);
    if (pebbles.hasCapsules()) shaftPoints(pebbles, a, b, pa, pb);
    if (touchPebbles(pa, pebbles.radius[a], pb, pebbles.radius[b], t)) {
      add(t, neighbors.pairHistory()[k], neighbors.pairSpringStiffness()[k]);
    }
  }
  const auto& wallPairs = neighbors.wallPairs();
  for (std::size_t k = 0; k < wallPairs.size(); ++k) {
    const std::uint32_t pebble = wallPairs[k].pebble, wall = wallPairs[k].wall;
    if (touchWall(walls[wall], wallPoint(pebbles, wallPairs[k]), pebbles.radius[pebble],
                  pebbles.position[pebble], t)) {
      add(t, neighbors.wallHistory()[k], neighbors.wallSpringStiffness()[k]);
    }
  }
  return energy;
}

}  // namespace clumplab
