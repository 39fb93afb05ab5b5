#pragma once
// The integrators' handling of blocked degrees of freedom (BlockedDofs.hpp): a blocked body's
// velocity keeps zero components along blocked translations; its angular velocity keeps zero
// components along blocked rotations and lies along its free world axes F.
//
// With a blocked rotation about e_c, Euler's law with the constraint torque lambda e_c reads
// dL/dt = T + lambda e_c, w.e_c = 0 (Landau & Lifshitz, Mechanics §38: a rigid body in contact
// with a constraint). So the world components L_F = P_F I(q) w of the angular momentum along the
// free axes change only by the torque, dL_F/dt = T_F, and w_F = I_F(q)^-1 L_F with I_F the F-block
// of the world inertia R diag(I) R^T. A kick adds h T_F to L_F at fixed q; a drift turns q with
// L_F fixed. With one free axis a, I_aa does not change when the body turns about e_a, so the drift
// is exact; with two, w changes as the body turns (the gyroscopic part), and the drift takes the
// implicit midpoint rule on q (symmetric, second order), solved by fixed-point iteration.
#include <cstddef>

#include "PlanarMotion.hpp"
#include "core/clump/BodyState.hpp"
#include "core/integrate/BlockedDofs.hpp"

namespace clumplab {

inline bool hasBlockedRotation(const BodyState& s, std::size_t b) {
  return (s.blocked[b] & blocked_dofs::kRotations) != 0;
}

// Zeroes the blocked translation components of body b's velocity.
inline void confineBlockedVelocity(BodyState& s, std::size_t b) {
  const std::uint8_t mask = s.blocked[b];
  for (int a = 0; a < 3; ++a) {
    if (mask & (1u << a)) s.velocity[b][a] = 0.0;
  }
}

namespace blocked_motion_detail {

// The two free axes (i, j) of a body with exactly one blocked rotation.
inline void twoFreeAxes(unsigned free, int& i, int& j) {
  i = (free & 1u) ? 0 : 1;
  j = (free & 4u) ? 2 : 1;
}

// w_F = I_F(q)^-1 L_F for two free axes (i, j): the 2x2 block of R diag(I) R^T, inverted.
inline Vec3 spinFromMomentum(const Quat& q, const Vec3& moments, int i, int j, double li, double lj) {
  const Vec3 ei = q.conjugate() * Vec3::Unit(i), ej = q.conjugate() * Vec3::Unit(j);
  const double iii = ei.dot(moments.cwiseProduct(ei)), ijj = ej.dot(moments.cwiseProduct(ej));
  const double iij = ei.dot(moments.cwiseProduct(ej));
  const double det = iii * ijj - iij * iij;  // > 0: a principal-axis block of a positive definite tensor
  Vec3 w = Vec3::Zero();
  w[i] = (ijj * li - iij * lj) / det;
  w[j] = (iii * lj - iij * li) / det;
  return w;
}

// L_F = P_F I(q) w for the free axes (i, j).
inline void momentumAlong(const Quat& q, const Vec3& moments, const Vec3& w, int i, int j, double& li,
                          double& lj) {
  const Vec3 l = q * moments.cwiseProduct(q.conjugate() * w);
  li = l[i];
  lj = l[j];
}

}  // namespace blocked_motion_detail

// The angular velocity after a kick of h [s] from `omega` by the torque (world), for a body with
// blocked rotations: zero; along its one free axis a, omega_a + h T_a / I_aa; in the plane of two
// free axes, I_F^-1 (I_F omega_F + h T_F), i.e. omega_F + h I_F^-1 T_F at the current orientation.
inline Vec3 blockedSpinKick(const BodyState& s, std::size_t b, const Vec3& omega, double h) {
  const unsigned free = freeRotationAxes(s.blocked[b]);
  if (free == 0) return Vec3::Zero();
  if (free == 1u || free == 2u || free == 4u) {
    const int a = free == 1u ? 0 : free == 2u ? 1 : 2;
    const Vec3 axis = Vec3::Unit(a);
    Vec3 w = Vec3::Zero();
    w[a] = omega[a] + h * s.torque[b][a] / normalInertia(s, b, axis);
    return w;
  }
  int i = 0, j = 0;
  blocked_motion_detail::twoFreeAxes(free, i, j);
  const Vec3 dw = blocked_motion_detail::spinFromMomentum(s.orientation[b], s.moments[b], i, j,
                                                          h * s.torque[b][i], h * s.torque[b][j]);
  Vec3 w = Vec3::Zero();
  w[i] = omega[i] + dw[i];
  w[j] = omega[j] + dw[j];
  return w;
}

// Zeroes the blocked components of body b's angular velocity (round-off of a body-frame round trip).
inline void confineBlockedSpin(BodyState& s, std::size_t b) {
  const unsigned free = freeRotationAxes(s.blocked[b]);
  for (int a = 0; a < 3; ++a) {
    if ((free & (1u << a)) == 0) s.angularVelocity[b][a] = 0.0;
  }
}

// The drift of a body with blocked rotations over tau [s], torque-free: not at all, exactly about
// one free axis, or, with two free axes and the gyroscopic term, the implicit midpoint rule
// q1 = exp(tau w(q_half)) q0 with q_half = exp(tau/2 w(q_half)) q0 and w(q) = I_F(q)^-1 L_F, then
// w = w(q1). Without the gyroscopic term (lessons), w stays as it is.
inline void blockedSpinDrift(BodyState& s, std::size_t b, double tau, bool gyroscopic = true) {
  const unsigned free = freeRotationAxes(s.blocked[b]);
  const Quat q0 = s.orientation[b];
  const bool twoFree = free == 3u || free == 5u || free == 6u;
  if (!twoFree || !gyroscopic) {  // w stays as it is over the drift
    s.orientation[b] = renormalized(rotationFromVector(tau * s.angularVelocity[b]) * q0);
    return;
  }
  using namespace blocked_motion_detail;
  int i = 0, j = 0;
  twoFreeAxes(free, i, j);
  double li = 0.0, lj = 0.0;
  momentumAlong(q0, s.moments[b], s.angularVelocity[b], i, j, li, lj);
  Vec3 wHalf = s.angularVelocity[b];
  // A contraction with factor ~ tau |w| (anisotropy of I_F): a handful of iterations at the steps
  // contacts need; capped so a huge step cannot loop.
  for (int k = 0; k < 50; ++k) {
    const Vec3 next =
        spinFromMomentum(rotationFromVector(0.5 * tau * wHalf) * q0, s.moments[b], i, j, li, lj);
    const double change = (next - wHalf).norm();
    wHalf = next;
    if (change <= 1e-15 * wHalf.norm()) break;
  }
  const Quat q1 = renormalized(rotationFromVector(tau * wHalf) * q0);
  s.orientation[b] = q1;
  s.angularVelocity[b] = spinFromMomentum(q1, s.moments[b], i, j, li, lj);
}

}  // namespace clumplab
