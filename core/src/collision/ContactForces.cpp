#include "core/collision/ContactForces.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/clump/ShaftDistance.hpp"
#include "core/collision/ContactLaw.hpp"

namespace clumplab {

namespace {

// The geometry of one touching pair, after Mutze, Polyspherical grains, eq. 50: n points from B to A.
struct Touch {
  Vec3 normal;         // unit, force on A is along +normal for repulsion
  double overlap;      // [m] > 0
  Vec3 point;          // contact point [m]
  double hertzRadius;  // Mutze's r~ = H(r, r') (eq. 55) [m]
};

double harmonicMean(double x, double y) {
  return 2.0 * x * y / (x + y);
}

bool touchPebbles(const Vec3& pa, double ra, const Vec3& pb, double rb, Touch& t) {
  const Vec3 d = pa - pb;
  const double dist2 = d.squaredNorm();
  const double range = ra + rb;
  if (dist2 >= range * range || dist2 == 0.0) return false;
  const double dist = std::sqrt(dist2);
  t.normal = d / dist;
  t.overlap = range - dist;
  // c_ij = (c_i + c_j)/2 + (r_j - r_i)/2 n_ij (eq. 50)
  t.point = 0.5 * (pa + pb) + 0.5 * (rb - ra) * t.normal;
  t.hertzRadius = harmonicMean(ra, rb);
  return true;
}

// A sphere of radius r at p against a wall. A membrane pushes it back to the side `side` is on (the
// pebble's centre: for a spherocylinder's end, the middle of its shaft).
bool touchWall(const Wall& w, const Vec3& p, double r, const Vec3& side, Touch& t) {
  if (w.kind == Wall::Kind::Mesh) return false;  // MeshWallContacts has its own stage
  if (w.kind == Wall::Kind::Plane || w.kind == Wall::Kind::Membrane) {
    if (w.passes(r)) return false;  // a membrane lets pebbles below its pass radius through
    const double signedDistance = (p - w.point).dot(w.normal);
    // A membrane repels from both sides: from the side the pebble's centre is on.
    const bool below = w.kind == Wall::Kind::Membrane && (side - w.point).dot(w.normal) < 0.0;
    const double s = below ? -signedDistance : signedDistance;
    const Vec3 normal = below ? Vec3(-w.normal) : w.normal;
    if (s >= r) return false;
    t.normal = normal;
    t.overlap = r - s;
    t.point = p - 0.5 * (r + s) * normal;  // middle of the overlap zone
    t.hertzRadius = 2.0 * r;               // H(r, infinity)
    return true;
  }
  const Vec3 d = p - w.point;
  const double dist = d.norm();
  const double h = dist + r - w.radius;
  if (h <= 0.0) return false;
  const Vec3 outward = dist > 0.0 ? Vec3(d / dist) : Vec3::UnitZ();
  t.normal = -outward;
  t.overlap = h;
  t.point = w.point + 0.5 * (dist + r + w.radius) * outward;
  // Concave wall of radius R: H(r, -R) = 2 r R / (R - r) (conforming contact, larger r~).
  t.hertzRadius = w.radius > r ? 2.0 * r * w.radius / (w.radius - r) : 2.0 * r;
  return true;
}

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

// What a contact law returns: the force on A [N] and, for the energy bookkeeping (ContactForces.hpp),
// its non-conservative part [N] and the change of the energy stored in the tangential spring [J].
struct LawResult {
  Vec3 force;
  Vec3 dissipative;
  double springEnergyChange;
};

// A spring-dashpot at one touch, as a law sets it for the touch's overlap: the normal spring's force
// and dashpot, and a tangential spring and dashpot capped by Coulomb's limit.
struct SpringDashpot {
  double elastic = 0.0;              // normal spring force [N]
  double normalDamping = 0.0;        // [N s/m]
  double tangentialStiffness = 0.0;  // kt [N/m]
  double tangentialDamping = 0.0;    // [N s/m]
  double friction = 0.0;             // Coulomb mu
  bool limitDamping = false;         // the normal force clamped at zero (LAMMPS's limit_damping)
  // LIGGGHTS's tangential history: the spring's force alone is held to mu |F_n|, and the tangential
  // dashpot acts only while the spring sticks. Otherwise the spring and dashpot together are held
  // to mu max(F_n, 0).
  bool dashpotWhileSticking = false;
};

// The spring-dashpot's force. `w` is the velocity of A relative to B at the contact point (the
// dashpots'), `wDrift` the one the contact point moved with over dt (the spring's increment,
// DriftVelocities); `spring` is the pair's tangential displacement history and `springStiffness` the
// kt it was last evaluated with [N/m] (its energy 1/2 kt |spring|^2), set to this evaluation's.
LawResult springDashpotForce(const SpringDashpot& s, const Touch& t, const Vec3& w, const Vec3& wDrift,
                             Vec3& spring, double& springStiffness, double dt) {
  const double wn = w.dot(t.normal);  // > 0: separating
  const Vec3 wt = w - wn * t.normal;
  const double c = s.normalDamping;
  const double elastic = s.elastic;
  // With limitDamping the dashpot may not pull the pebbles together at the end of a contact.
  const double fn = s.limitDamping ? std::max(0.0, elastic - c * wn) : elastic - c * wn;
  const Vec3 dashpot = (fn - elastic) * t.normal;  // as applied (clamp included)
  const double kt = s.tangentialStiffness;
  const double oldLength2 = spring.squaredNorm();
  const double oldEnergy = 0.5 * springStiffness * oldLength2;
  springStiffness = kt;
  if (s.friction <= 0.0) {
    spring.setZero();
    return {fn * t.normal, dashpot, -oldEnergy};
  }
  // Keep the spring in the current tangent plane, with its length (rotation of the contact frame).
  if (oldLength2 > 0.0) {
    spring -= spring.dot(t.normal) * t.normal;
    const double newLength2 = spring.squaredNorm();
    spring = newLength2 > 0.0 ? Vec3(spring * std::sqrt(oldLength2 / newLength2)) : Vec3::Zero();
  }
  const Vec3 trial = spring + (wDrift - wDrift.dot(t.normal) * t.normal) * dt;
  if (s.dashpotWhileSticking) {
    Vec3 ft = -kt * trial;
    const double limit = s.friction * std::abs(fn);
    const double ft2 = ft.squaredNorm();
    if (ft2 > limit * limit) {  // sliding: Coulomb's limit, the spring on it
      ft *= limit / std::sqrt(ft2);
      spring = -ft / kt;  // kt > 0: ft2 > 0
    } else {
      spring = trial;
      ft -= s.tangentialDamping * wt;
    }
    return {fn * t.normal + ft, dashpot + ft, 0.5 * kt * spring.squaredNorm() - oldEnergy};
  }
  Vec3 ft = -kt * trial - s.tangentialDamping * wt;
  const double limit = s.friction * std::max(fn, 0.0);
  const double ft2 = ft.squaredNorm();
  if (ft2 > limit * limit) {  // sliding: Coulomb's limit
    ft *= limit / std::sqrt(ft2);
    spring = kt > 0.0 ? Vec3(-(ft + s.tangentialDamping * wt) / kt) : Vec3::Zero();
  } else {
    spring = trial;
  }
  // The whole tangential force counts as non-conservative and the spring's energy change is taken
  // off: when the spring slips, the work of -mu fn t along the slip minus what the spring gives
  // back is what friction dissipated (the old rate 1/2 kt (|trial|^2 - |spring|^2) / dt, booked
  // at the evaluation's velocities, was first order in dt).
  return {fn * t.normal + ft, dashpot + ft, 0.5 * kt * spring.squaredNorm() - oldEnergy};
}

// Linear spring-dashpot with Coulomb-limited tangential spring; `dampingRatio` is zeta for the
// restitution coefficient (used when the dashpot is derived from it).
LawResult linearForce(const LinearContactParameters& p, double dampingRatio, const Touch& t, const Vec3& w,
                      const Vec3& wDrift, double massEff, Vec3& spring, double& springStiffness, double dt) {
  const double c =
      p.dampingFromRestitution ? 2.0 * dampingRatio * std::sqrt(massEff * p.stiffness) : p.damping;
  const SpringDashpot s{p.stiffness * t.overlap,
                        c,
                        p.tangentialStiffnessRatio * p.stiffness,
                        p.tangentialDamping,
                        p.friction,
                        p.limitDamping,
                        false};
  return springDashpotForce(s, t, w, wDrift, spring, springStiffness, dt);
}

// Hertz-Mindlin from a material card (ContactModel.hpp), as LIGGGHTS's hertz/tangential history:
// R* = r~/2 (r~ Mutze's harmonic mean, a plane's 2r), S_n = 2 E* sqrt(R* d), the normal force
// (2/3) S_n d = (4/3) E* sqrt(R* d) d (Johnson, Contact Mechanics, eq. 4.22), S_t = 8 G* sqrt(R* d)
// (Mindlin), and both dashpots 2 sqrt(5/6) zeta sqrt(S m*) with zeta from the restitution (Tsuji,
// Tanaka & Ishida 1992). The tangential spring is the total displacement, its force -S_t xi at the
// current overlap held to mu |F_n|, its dashpot acting while it sticks (LIGGGHTS's tangential
// history, so that a material card behaves as it does there).
LawResult hertzMindlinForce(const HertzMindlinContactParameters& p, double dampingRatio, const Touch& t,
                            const Vec3& w, const Vec3& wDrift, double massEff, Vec3& spring,
                            double& springStiffness, double dt) {
  const double root = std::sqrt(0.5 * t.hertzRadius * t.overlap);
  const double normalStiffness = 2.0 * p.effectiveYoung() * root;
  const double tangentialStiffness = 8.0 * p.effectiveShear() * root;
  const double damping = 2.0 * std::sqrt(5.0 / 6.0) * dampingRatio;
  const SpringDashpot s{2.0 / 3.0 * normalStiffness * t.overlap,
                        damping * std::sqrt(normalStiffness * massEff),
                        tangentialStiffness,
                        damping * std::sqrt(tangentialStiffness * massEff),
                        p.friction,
                        false,
                        true};
  return springDashpotForce(s, t, w, wDrift, spring, springStiffness, dt);
}

// The integral of the Hertz-Mindlin normal force over the overlap: (8/15) E* sqrt(R*) d^(5/2).
double hertzMindlinEnergy(const HertzMindlinContactParameters& p, const Touch& t) {
  return 8.0 / 15.0 * p.effectiveYoung() * std::sqrt(0.5 * t.hertzRadius) * std::pow(t.overlap, 2.5);
}

// Mutze, Polyspherical grains, eq. 53-57. Mutze writes w for the velocity of the partner relative to the
// grain; with w taken as the velocity of A relative to B (as here), his law reads: restitution factor delta
// on unloading (w_n > 0, separating) and friction against the tangential slip.
LawResult hertzForce(const HertzContactParameters& p, const Touch& t, const Vec3& w) {
  const double effectiveYoung = p.young / (1.0 - p.poisson * p.poisson);  // H(E/(1-s^2), same)
  const double fHertz = std::sqrt(3.0) / 2.0 * effectiveYoung * std::sqrt(t.hertzRadius) * t.overlap *
                        std::sqrt(t.overlap);  // eq. 57
  const double wn = w.dot(t.normal);
  const bool unloading = wn > 0.0;
  const double fn = unloading ? p.restitutionSquared * fHertz : fHertz;  // eq. 56
  // The conservative part is F_Hertz n (its potential is hertzEnergy): the unloading deficit
  // (delta - 1) F_Hertz n is hysteresis.
  LawResult out{fn * t.normal, (fn - fHertz) * t.normal, 0.0};
  if (p.friction > 0.0) {
    const Vec3 wt = w - wn * t.normal;
    const double factor = p.friction * fn / (p.regularizingVelocity + wt.norm());  // eq. 53
    out.force -= factor * wt;
    out.dissipative -= factor * wt;
  }
  return out;
}

double hertzEnergy(const HertzContactParameters& p, const Touch& t) {
  const double effectiveYoung = p.young / (1.0 - p.poisson * p.poisson);
  // Integral of eq. 57 over the overlap: sqrt(3)/5 E~ sqrt(r~) h^(5/2).
  return std::sqrt(3.0) / 5.0 * effectiveYoung * std::sqrt(t.hertzRadius) * std::pow(t.overlap, 2.5);
}

// The dashpots' damping ratio zeta of `model`'s restitution (0 for Mutze's law, which has none).
double modelDampingRatio(const ContactModel& model) {
  switch (model.kind) {
    case ContactModel::Kind::Linear:
      return dampingRatioForRestitution(model.linear.restitution);
    case ContactModel::Kind::HertzMindlin:
      return dampingRatioForRestitution(model.hertzMindlin.restitution);
    case ContactModel::Kind::Hertz:
      break;
  }
  return 0.0;
}

// The law of `model` with a tangential spring (Mutze's law keeps none: `spring` stays zero).
LawResult lawForce(const ContactModel& model, double dampingRatio, const Touch& t, const Vec3& w,
                   const Vec3& wDrift, double massEff, Vec3& spring, double& springStiffness, double dt) {
  switch (model.kind) {
    case ContactModel::Kind::Linear:
      return linearForce(model.linear, dampingRatio, t, w, wDrift, massEff, spring, springStiffness, dt);
    case ContactModel::Kind::HertzMindlin:
      return hertzMindlinForce(model.hertzMindlin, dampingRatio, t, w, wDrift, massEff, spring,
                               springStiffness, dt);
    case ContactModel::Kind::Hertz:
      break;
  }
  return hertzForce(model.hertz, t, w);
}

// The elastic energy of the normal law at a touch [J].
double normalElasticEnergy(const ContactModel& model, const Touch& t) {
  switch (model.kind) {
    case ContactModel::Kind::Linear:
      return 0.5 * model.linear.stiffness * t.overlap * t.overlap;
    case ContactModel::Kind::HertzMindlin:
      return hertzMindlinEnergy(model.hertzMindlin, t);
    case ContactModel::Kind::Hertz:
      break;
  }
  return hertzEnergy(model.hertz, t);
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
  // A pair that stops touching releases its tangential spring: that energy 1/2 kt |xi|^2 is lost
  // (Mutze's Hertz law keeps no spring and elasticEnergy() counts none).
  // Spring k of `springs`, its stiffness `stiffnesses[k]` read only here (the rare case).
  const auto release = [&](std::vector<Vec3>& springs, const std::vector<double>& stiffnesses, std::size_t k,
                           double& springEnergyChange) {
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
    double springEnergyChange = 0.0;
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
      std::vector<std::uint32_t>& near = out.nearPairs;
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
        if (static_cast<int>(!mayTouch) & static_cast<int>(history[k].squaredNorm() != 0.0)) {
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
  const auto add = [&](const Touch& touch, const Vec3& spring, double storedStiffness) {
    energy += normalElasticEnergy(model, touch) +
              0.5 * (linear ? linearKt : storedStiffness) * spring.squaredNorm();
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

// --- the laws for one pair (ContactLaw.hpp), for engines with contacts of their own -----------

namespace {
ContactTouch publicTouch(const Touch& t) {
  return {t.normal, t.overlap, t.point, t.hertzRadius};
}
Touch solverTouch(const ContactTouch& t) {
  return {t.normal, t.overlap, t.point, t.hertzRadius};
}
}  // namespace

bool touchSpheres(const Vec3& pa, double ra, const Vec3& pb, double rb, ContactTouch& touch) {
  Touch t{};
  if (!touchPebbles(pa, ra, pb, rb, t)) return false;
  touch = publicTouch(t);
  return true;
}

bool touchWall(const Wall& wall, const Vec3& p, double r, const Vec3& side, ContactTouch& touch) {
  Touch t{};
  if (!touchWall(wall, p, r, side, t)) return false;
  touch = publicTouch(t);
  return true;
}

bool contactModelIsHistoryFree(const ContactModel& model) {
  switch (model.kind) {
    case ContactModel::Kind::Hertz:
      return true;
    case ContactModel::Kind::HertzMindlin:
      return model.hertzMindlin.friction <= 0.0;
    case ContactModel::Kind::Linear:
      break;
  }
  return model.linear.friction <= 0.0 || model.linear.tangentialStiffnessRatio <= 0.0;
}

std::string contactHistoryProblem(const ContactModel& model, const std::string& integrator) {
  if (contactModelIsHistoryFree(model)) return "";
  if (model.kind == ContactModel::Kind::HertzMindlin) {
    return "the " + integrator +
           " integrator takes contact laws without history only, and the hertz-mindlin contact has "
           "Mindlin's tangential spring when \"friction\" > 0: set \"friction\" to 0, use the Hertz "
           "law (regularised friction), or another integrator";
  }
  return "the " + integrator +
         " integrator takes contact laws without history only, and this linear contact has a "
         "tangential spring (friction > 0 with tangential_stiffness_ratio > 0): set \"friction\" to 0 "
         "or \"tangential_stiffness_ratio\" to 0 (a tangential dashpot capped by Coulomb's limit), use "
         "the Hertz law (regularised friction), or another integrator";
}

ContactLawForce historyFreeContactForce(const ContactModel& model, const ContactTouch& touch, const Vec3& w,
                                        double massEff) {
  // No history: the spring starts and ends at zero (zero friction zeroes it; kt = 0 ignores it).
  Vec3 spring = Vec3::Zero();
  double springStiffness = 0.0;
  const LawResult r = lawForce(model, modelDampingRatio(model), solverTouch(touch), w, w, massEff, spring,
                               springStiffness, 0.0);
  return {r.force, r.dissipative};
}

ContactLawStep contactForceWithSpring(const ContactModel& model, const ContactTouch& touch, const Vec3& w,
                                      const Vec3& wDrift, double massEff, Vec3& spring,
                                      double& springStiffness, double dt) {
  const LawResult r = lawForce(model, modelDampingRatio(model), solverTouch(touch), w, wDrift, massEff,
                               spring, springStiffness, dt);
  return {r.force, r.dissipative, r.springEnergyChange};
}

double tangentialSpringEnergy(const Vec3& spring, double springStiffness) {
  return 0.5 * springStiffness * spring.squaredNorm();
}

double contactElasticEnergy(const ContactModel& model, const ContactTouch& touch) {
  return normalElasticEnergy(model, solverTouch(touch));
}

}  // namespace clumplab
