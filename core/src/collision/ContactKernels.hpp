#pragma once
// The contact laws themselves, for one touching pair: its geometry (Mutze, Polyspherical grains,
// eq. 50) and the linear, Hertz and Hertz-Mindlin forces with their energies. Shared by the solver
// (ContactSolver.cpp) and the one-pair API (ContactLaw.cpp), so both use one implementation.
// Private to core/src/collision. The functions have internal linkage on purpose (an unnamed
// namespace): each includer gets its own copy, which the compiler inlines into the solver's loop
// as it did when these lived in the solver's file.
#include <algorithm>
#include <cmath>

#include "core/base/Math.hpp"
#include "core/collision/ContactModel.hpp"
#include "core/walls/Walls.hpp"

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

// What a contact law returns: the force on A [N] and, for the energy bookkeeping (ContactSolver.hpp),
// its non-conservative part [N], the change of the energy stored in the tangential spring [J] and the
// energy Mutze's hysteresis dissipated as the contact's largest overlap grew [J] (hertzNormalForce).
struct LawResult {
  Vec3 force;
  Vec3 dissipative;
  double springEnergyChange;
  double hysteresisLoss = 0.0;
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
  // Beside a zero spring, which stores nothing whatever kt is, the stored stiffness is zero too: a
  // pair then holds history exactly when its spring is not zero (ContactHistory::held).
  springStiffness = kt;
  if (s.friction <= 0.0) {
    spring.setZero();
    springStiffness = 0.0;
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
    if (spring == Vec3::Zero()) springStiffness = 0.0;
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
  if (spring == Vec3::Zero()) springStiffness = 0.0;
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

// Mutze, Polyspherical grains, eq. 57: F_Hertz = k h^(3/2), k = (sqrt 3 / 2) E~ sqrt(r~), E~ = E / (1 - s^2)
// (H(E/(1-s^2), same)).
double hertzStiffness(const HertzContactParameters& p, const Touch& t) {
  const double effectiveYoung = p.young / (1.0 - p.poisson * p.poisson);
  return std::sqrt(3.0) / 2.0 * effectiveYoung * std::sqrt(t.hertzRadius);
}

// The integral of eq. 57 from 0 to h: E_Hertz(h) = sqrt(3)/5 E~ sqrt(r~) h^(5/2) [J].
double hertzEnergyAt(const HertzContactParameters& p, const Touch& t, double h) {
  const double effectiveYoung = p.young / (1.0 - p.poisson * p.poisson);
  return std::sqrt(3.0) / 5.0 * effectiveYoung * std::sqrt(t.hertzRadius) * std::pow(h, 2.5);
}

// Mutze's restitution (Polyspherical grains, eq. 56: delta F_Hertz while the grains separate, so that
// e^2 = delta) as a hysteresis in the overlap, not in the sign of the velocity: at rest that sign is
// round-off, and a force that jumps with it made a resting grain chatter, sink and create energy. The contact
// keeps the largest overlap h_m it reached (`largest`, 0 for a new contact). Loading (h >= h_m) follows eq.
// 57 and h_m grows with h; below h_m the force follows a Hertz-shaped branch through (h_m, F_Hertz(h_m)),
//   F = F_Hertz(h_m) ((h - h_p) / (h_m - h_p))^(3/2) for h > h_p = (1 - delta) h_m, 0 below,
// the shape of Thornton & Ning's elastic-plastic unloading (A theoretical model for the stick/bounce
// behaviour of adhesive, elastic-plastic spheres, Powder Technology 1998), its plastic overlap h_p chosen so
// that the branch gives back delta times the work eq. 57 took, (2/5) F_Hertz(h_m) delta h_m: e^2 = delta for
// an impact. The branch is elastic (a body at rest stays at its overlap), meets eq. 57 at h_m and is 1/delta
// stiffer there. delta = 0: no force below h_m (perfectly plastic); delta = 1: eq. 57 alone, no memory.
struct HertzNormal {
  double force;                  // [N], >= 0
  double lost;                   // [J] dissipated as h_m grew: (1 - delta) (E_Hertz(h) - E_Hertz(h_m)) >= 0
  double branchStiffness = 0.0;  // dF/dh on the branch [N/m] for its dashpot (hertzForce), 0 while loading
  double largestForce = 0.0;     // F_Hertz(h_m) [N] on the branch, 0 while loading
};

bool keepsLargestOverlap(const ContactModel& model) {
  return model.kind == ContactModel::Kind::Hertz && model.hertz.restitutionSquared < 1.0;
}

// The branch below the largest overlap h_m (`largest` > h), for F_Hertz = k h^(3/2): its force [N] and the
// stiffness its dashpot is sized on (hertzForce) [N/m]: the tangent dF/dh = 3/2 F / (h - h_p), taken at most
// 100 times eq. 57's at h_m (where the time-step estimate stops, ContactStiffness.cpp: delta below 0.01 has
// a steeper branch, which its dashpot does not follow), and faded by (1 - x) to zero at h_m, where the
// branch meets loading, which has no dashpot: the force stays continuous there.
HertzNormal hertzBranch(double k, double delta, double largest, double h) {
  const double plastic = (1.0 - delta) * largest;  // h_p
  const double s = h - plastic;
  if (!(s > 0.0)) return {0.0, 0.0};         // delta = 0: always (h_p = h_m > h); nothing is divided
  const double x = s / (largest - plastic);  // largest > plastic here: h_p < h < h_m
  const double largestForce = k * largest * std::sqrt(largest);
  const double force = largestForce * x * std::sqrt(x);
  const double steepest = 100.0 * 1.5 * largestForce / largest;
  return {force, 0.0, std::min(1.5 * force / s, steepest) * (1.0 - x), largestForce};
}

// The normal force of Mutze's law at the touch, the largest overlap brought up to it.
HertzNormal hertzNormalForce(const HertzContactParameters& p, const Touch& t, double& largest) {
  const double k = hertzStiffness(p, t);
  const double h = t.overlap;
  const double fHertz = k * h * std::sqrt(h);  // eq. 57
  const double delta = p.restitutionSquared;
  if (!(delta < 1.0)) return {fHertz, 0.0};
  if (h >= largest) {
    // E_Hertz is non-decreasing in h in floating point too (pow is monotonic): lost >= 0 exactly.
    const double lost = (1.0 - delta) * (hertzEnergyAt(p, t, h) - hertzEnergyAt(p, t, largest));
    largest = h;
    return {fHertz, lost};
  }
  return hertzBranch(k, delta, largest, h);
}

// The energy Mutze's law stores at the touch with the largest overlap h_m (the integral of the force from
// where it starts): on the branch (h < h_m) delta E_Hertz(h_m) x^(5/2), x = (h - h_p) / (h_m - h_p), which
// is delta E_Hertz(h_m) at h_m; beyond h_m (loading not yet taken into h_m) that plus the work of eq. 57
// from h_m to h, E_Hertz(h) - (1 - delta) E_Hertz(h_m). The loss booked when h_m grows (HertzNormal::lost)
// is then exactly the drop of this energy: total + dissipated does not jump.
double hertzStoredEnergy(const HertzContactParameters& p, const Touch& t, double largest) {
  const double delta = p.restitutionSquared;
  const double h = t.overlap;
  if (!(delta < 1.0) || h >= largest) {
    const double loading = hertzEnergyAt(p, t, h);
    return delta < 1.0 ? loading - (1.0 - delta) * hertzEnergyAt(p, t, largest) : loading;
  }
  const double plastic = (1.0 - delta) * largest;
  const double s = h - plastic;
  if (!(s > 0.0)) return 0.0;
  const double x = s / (largest - plastic);
  return delta * hertzEnergyAt(p, t, largest) * x * x * std::sqrt(x);
}

// Mutze, Polyspherical grains, eq. 53-57. Mutze writes w for the velocity of the partner relative to the
// grain; with w taken as the velocity of A relative to B (as here), his law reads: eq. 57 loading, the
// restitution delta as the hysteresis of hertzNormalForce (eq. 56), and friction against the tangential
// slip. `largest` is the contact's largest overlap (hertzNormalForce), `massEff` the pair's effective mass
// [kg].
//
// Eq. 56 asks every approach to keep delta of its work. The hysteresis does that for an impact, but below
// h_m its branch is elastic, so a body that landed and stayed would ring there for ever (a 5 mm sphere
// dropped 5 mm with delta 0.25: 4e-4 of the drop energy). While the pebbles approach on the branch, a
// dashpot c = 2 zeta sqrt(k_branch m) acts against the approach, zeta that of a linear contact of
// restitution sqrt(delta) (HertzContactParameters::branchDampingRatio): a stroke across the branch keeps
// about delta of its energy. It is proportional to the approach speed, so the force stays continuous where
// the speed changes sign (a body at rest, whose speed is round-off, feels round-off); it never acts on
// loading past h_m nor while the pebbles part, so an impact still gives e^2 = delta.
LawResult hertzForce(const HertzContactParameters& p, const Touch& t, const Vec3& w, double massEff,
                     double& largest) {
  const HertzNormal normal = hertzNormalForce(p, t, largest);
  const double fn = normal.force;
  // The normal force is conservative given the largest overlap (its potential is hertzStoredEnergy); the
  // hysteresis is booked as the loss when the largest overlap grows.
  LawResult out{fn * t.normal, Vec3::Zero(), 0.0, normal.lost};
  if (normal.branchStiffness > 0.0) {
    const double approach = -w.dot(t.normal);  // [m/s], > 0 while the overlap grows
    // On approach only, switched on smoothly: approach (1 + tanh(approach / v_s)) / 2, v_s a thousandth of
    // the speed at which the branch sends the pebbles apart from h_m (delta E_Hertz(h_m) as kinetic
    // energy of the pair). A step cut off at zero speed would leave a kink in the force where a resting
    // body's speed changes sign, which the cim integrator's error control resolves with ever shorter
    // steps; below v_s the dashpot acts half on both strokes, and an impact's rebound, which leaves h_m
    // where the dashpot is off (the branch's stiffness is faded to zero there) and outruns v_s within
    // the first percent of the branch, keeps e^2 = delta to 1e-6.
    const double largestEnergy = 0.4 * normal.largestForce * largest;  // E_Hertz(h_m)
    const double speedScale = 1e-3 * std::sqrt(2.0 * p.restitutionSquared * largestEnergy / massEff);
    const double weight = 0.5 * (1.0 + std::tanh(approach / speedScale));
    const double damping = 2.0 * p.branchDampingRatio() * std::sqrt(normal.branchStiffness * massEff);
    const Vec3 dashpot = (damping * weight * approach) * t.normal;
    out.force += dashpot;
    out.dissipative += dashpot;
  }
  if (p.friction > 0.0) {
    const Vec3 wt = w - w.dot(t.normal) * t.normal;
    const double factor = p.friction * fn / (p.regularizingVelocity + wt.norm());  // eq. 53
    out.force -= factor * wt;
    out.dissipative -= factor * wt;
  }
  return out;
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

// The law of `model` with the contact's history: a tangential spring `spring` and the stiffness it was last
// evaluated with `memory` (linear, Hertz-Mindlin), or, for Mutze's law, which keeps no spring (`spring` stays
// zero), its largest overlap in `memory` (hertzNormalForce; untouched when delta = 1).
LawResult lawForce(const ContactModel& model, double dampingRatio, const Touch& t, const Vec3& w,
                   const Vec3& wDrift, double massEff, Vec3& spring, double& memory, double dt) {
  switch (model.kind) {
    case ContactModel::Kind::Linear:
      return linearForce(model.linear, dampingRatio, t, w, wDrift, massEff, spring, memory, dt);
    case ContactModel::Kind::HertzMindlin:
      return hertzMindlinForce(model.hertzMindlin, dampingRatio, t, w, wDrift, massEff, spring, memory, dt);
    case ContactModel::Kind::Hertz:
      break;
  }
  return hertzForce(model.hertz, t, w, massEff, memory);
}

// The elastic energy of the normal law at a touch [J]; `largest` the contact's largest overlap for Mutze's
// law (hertzStoredEnergy), unused by the others.
double normalElasticEnergy(const ContactModel& model, const Touch& t, double largest) {
  switch (model.kind) {
    case ContactModel::Kind::Linear:
      return 0.5 * model.linear.stiffness * t.overlap * t.overlap;
    case ContactModel::Kind::HertzMindlin:
      return hertzMindlinEnergy(model.hertzMindlin, t);
    case ContactModel::Kind::Hertz:
      break;
  }
  return hertzStoredEnergy(model.hertz, t, largest);
}

}  // namespace

}  // namespace clumplab
