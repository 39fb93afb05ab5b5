#pragma once
// Contact laws between pebbles (and between pebbles and walls). SI units throughout.
#include <cmath>

namespace clumplab {

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

// Seed 001 §5, eq. 52-57 (Mutze's Hertz law with restitution on unloading and regularised friction).
struct HertzContactParameters {
  double young = 5e8;                  // E [Pa]
  double poisson = 0.3;                // sigma (scene files and the docs default to this one value)
  double restitutionSquared = 1.0;     // delta, the square of the normal restitution coefficient
  double friction = 0.0;               // mu
  double regularizingVelocity = 1e-3;  // nu [m/s]

  bool operator==(const HertzContactParameters&) const = default;
};

struct ContactModel {
  enum class Kind { Linear, Hertz };
  Kind kind = Kind::Linear;
  LinearContactParameters linear;
  HertzContactParameters hertz;

  bool operator==(const ContactModel&) const = default;
};

// Damping ratio of a linear spring-dashpot giving restitution e: gamma = -ln e / sqrt(pi^2 + ln^2 e),
// so that c = 2 gamma sqrt(m_eff k) (the standard closed-form solution of the damped oscillator).
inline double dampingRatioForRestitution(double e) {
  if (e <= 0.0) return 1.0;
  if (e >= 1.0) return 0.0;
  const double l = std::log(e);
  return -l / std::sqrt(M_PI * M_PI + l * l);
}

}  // namespace clumplab
