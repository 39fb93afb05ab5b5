#pragma once
// The translational kick of the kick-drift-kick integrators, with the magnetic Lorentz force.
#include "core/clump/BodyState.hpp"
#include "core/integrate/StepContext.hpp"

namespace clumplab {

// v' = v + dv + (q h / m) ((v + v') / 2) x B: the implicit midpoint rule for the Lorentz term
// (dv = h F / m the other forces' kick), solved in closed form by the Boris rotation (J. P. Boris,
// Proc. 4th Conf. Num. Sim. Plasmas, 1970; Birdsall & Langdon, Plasma Physics via Computer
// Simulation, §4-4): half kick, rotation by t = q h B / (2m), half kick. The rotation keeps |v|
// exactly (the magnetic force does no work), and with the kicks of a step mirrored about the drift
// the scheme stays symmetric, hence second order (Hairer, Lubich, Wanner, Geometric Numerical
// Integration, §II.3).
inline Vec3 borisKick(const Vec3& v, const Vec3& dv, const Vec3& t) {
  const Vec3 vMinus = v + 0.5 * dv;
  const Vec3 vPrime = vMinus + vMinus.cross(t);
  const Vec3 s = (2.0 / (1.0 + t.squaredNorm())) * t;
  return vMinus + vPrime.cross(s) + 0.5 * dv;
}

// The velocity kicks of one pass over the bodies: v += h F / m for body b over h [s], with the Boris
// rotation where the body is charged and a magnetic field acts. Whether any body can feel one is
// decided once for the pass, so a world without a field or charges pays no per-body call for it.
class VelocityKicks {
 public:
  explicit VelocityKicks(const ForceStage& forces) : forces_(forces), lorentz_(forces.hasLorentzKicks()) {}
  void operator()(BodyState& s, std::size_t b, double h) const {
    if (lorentz_) {
      const Vec3 t = forces_.lorentzRotation(b, h);
      if (t != Vec3::Zero()) {
        s.velocity[b] = borisKick(s.velocity[b], h / s.mass[b] * s.force[b], t);
        return;
      }
    }
    s.velocity[b] += h / s.mass[b] * s.force[b];
  }

 private:
  const ForceStage& forces_;
  bool lorentz_;
};

}  // namespace clumplab
