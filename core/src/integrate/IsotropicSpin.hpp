#pragma once
// The rotation of a body whose principal moments are equal (a sphere, a cube, any body of isotropic
// inertia I = m 1): its angular momentum is L = m w in every frame and w x I w = 0, so Euler's
// equations reduce to m dw/dt = T in the world frame (Landau & Lifshitz, Mechanics §36, eq. 36.5 with
// I1 = I2 = I3), and the fixed-point iteration of MercuryDPM rigid clumps, §2.6 (eq. 28) converges
// in its first pass. Its kicks need neither the body frame nor the solve; its drift turns the
// orientation by the world rotation vector w dt, the same exact rotation as the body-frame
// q R(q^-1 w dt) (R(q a) q = q R(a)). Only round-off tells the two apart.
#include <cstddef>

#include "core/base/Math.hpp"
#include "core/clump/BodyState.hpp"

namespace clumplab {

inline bool hasIsotropicInertia(const Vec3& moments) {
  return moments[0] == moments[1] && moments[1] == moments[2];
}

// Half kick of body b's angular velocity over h [s], the world-frame Euler equation of an isotropic body.
inline Vec3 isotropicSpinRate(const BodyState& s, std::size_t b) {
  return s.torque[b] / s.moments[b][0];
}

// The first half kick of an isotropic body b and its predicted end-of-step angular velocity (what
// eulerKicks gives an anisotropic one): `drifted` takes the half-kicked w, by which the drift turns
// the orientation, R(w dt) q; the body holds w kicked twice (VelocityPredictor.hpp).
inline void isotropicKick(BodyState& s, std::size_t b, double h, Vec3& drifted) {
  const Vec3 rate = isotropicSpinRate(s, b);
  const Vec3 w0 = s.angularVelocity[b];
  drifted = w0 + h * rate;
  s.angularVelocity[b] = w0 + (2.0 * h) * rate;
}

}  // namespace clumplab
