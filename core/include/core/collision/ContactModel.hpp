#pragma once
// Contact laws between pebbles (and between pebbles and walls). SI units throughout.
#include <cmath>
#include <limits>

namespace clumplab {

// Damping ratio of a linear spring-dashpot giving restitution e: gamma = -ln e / sqrt(pi^2 + ln^2 e),
// so that c = 2 gamma sqrt(m_eff k) (the standard closed-form solution of the damped oscillator).
inline double dampingRatioForRestitution(double e) {
  if (e <= 0.0) return 1.0;
  if (e >= 1.0) return 0.0;
  const double l = std::log(e);
  return -l / std::sqrt(M_PI * M_PI + l * l);
}

// Linear spring-dashpot with a Coulomb-limited tangential spring and contact history.
struct LinearContactParameters {
  double stiffness = 1e3;                       // kn [N/m]
  bool dampingFromRestitution = true;           // if true, c is derived from `restitution` per pair
  double restitution = 0.5;                     // e in [0, 1]
  double damping = 0.0;                         // fixed normal dashpot c [N s/m] (when not derived)
  double friction = 0.5;                        // Coulomb mu
  double tangentialStiffnessRatio = 2.0 / 7.0;  // kt / kn
  double tangentialDamping = 0.0;               // [N s/m]
  // Clamp the normal force at zero so the dashpot never attracts (LAMMPS's limit_damping). Off by
  // default: the restitution coefficient is exact only for the unclamped spring-dashpot.
  bool limitDamping = false;

  bool operator==(const LinearContactParameters&) const = default;
};

// Mutze, Polyspherical grains, §5, eq. 52-57 (Mutze's Hertz law with restitution on unloading and regularised
// friction). The restitution is a hysteresis in the overlap: below the largest overlap a contact reached it
// follows a branch that gives back delta of the work of loading (collision/ContactKernels.hpp).
struct HertzContactParameters {
  double young = 5e8;                  // E [Pa]
  double poisson = 0.3;                // sigma (scene files and the docs default to this one value)
  double restitutionSquared = 1.0;     // delta, the square of the normal restitution coefficient
  double friction = 0.0;               // mu
  double regularizingVelocity = 1e-3;  // nu [m/s]

  // The largest tangent stiffness dF/dh of the normal force over that of eq. 57 at the same largest
  // overlap: 1/delta (the branch's, where it leaves h_max), 1 for delta = 1, infinite for delta = 0
  // (whose branch is vertical and carries no force: no oscillation to resolve). For time steps.
  double largestStiffnessFactor() const {
    if (restitutionSquared >= 1.0) return 1.0;
    return restitutionSquared > 0.0 ? 1.0 / restitutionSquared : std::numeric_limits<double>::infinity();
  }

  // The damping ratio of the dashpot on the unloading branch's approach strokes (hertzForce): that of a
  // linear contact of restitution sqrt(delta), so that a stroke across the branch (a half period of its
  // oscillation) keeps delta of its energy, as an impact does; 0 for delta = 1 (no branch).
  double branchDampingRatio() const { return dampingRatioForRestitution(std::sqrt(restitutionSquared)); }

  bool operator==(const HertzContactParameters&) const = default;
};

// Hertz-Mindlin as LIGGGHTS (pair gran model hertz tangential history) and EDEM derive it from a
// material card, every pebble and wall of one material: the normal force (4/3) E* sqrt(R* d) d of
// Hertz (Johnson, Contact Mechanics, eq. 4.22; Landau & Lifshitz, Theory of Elasticity, section 9)
// with 1/E* = (1 - nu^2)/E + (1 - nu^2)/E, R* = r1 r2 / (r1 + r2) (the pebble's radius against a
// plane), Mindlin's tangential stiffness S_t = 8 G* sqrt(R* d) with 1/G* = 2 (2 - nu)(1 + nu)/E
// twice (Mindlin & Deresiewicz 1953), and dashpots 2 sqrt(5/6) zeta sqrt(S m*) on both from the
// restitution (Tsuji, Tanaka & Ishida 1992). Mutze's `hertz` law is (3 sqrt(6)/4) = 1.84 times
// stiffer at the same Young's modulus (docs/physics.md, "Two Hertz laws").
struct HertzMindlinContactParameters {
  double youngsModulus = 7e9;  // E [Pa]
  double poisson = 0.3;        // nu (one default with the Hertz law's)
  double restitution = 0.5;    // e in [0, 1]
  double friction = 0.0;       // Coulomb mu

  // E* and G* of two bodies of this material [Pa].
  double effectiveYoung() const { return youngsModulus / (2.0 * (1.0 - poisson * poisson)); }
  double effectiveShear() const { return youngsModulus / (4.0 * (2.0 - poisson) * (1.0 + poisson)); }

  bool operator==(const HertzMindlinContactParameters&) const = default;
};

struct ContactModel {
  enum class Kind { Linear, Hertz, HertzMindlin };
  Kind kind = Kind::Linear;
  LinearContactParameters linear;
  HertzContactParameters hertz;
  HertzMindlinContactParameters hertzMindlin;

  bool operator==(const ContactModel&) const = default;
};

}  // namespace clumplab
