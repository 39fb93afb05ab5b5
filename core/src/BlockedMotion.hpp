#pragma once
// The integrators' handling of blocked degrees of freedom (BlockedDofs.hpp): a blocked body's
// velocity keeps zero components along blocked translations, and its rotation is either frozen or
// a spin about its one free world axis a, kicked by h T_a / I_aa and drifted exactly about e_a.
#include <cstddef>

#include "PlanarMotion.hpp"
#include "core/BlockedDofs.hpp"
#include "core/BodyState.hpp"

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

// The angular velocity after a kick of h [s] from `omega` by the torque (world), for a body with
// blocked rotations: zero, or along its free axis a with omega_a + h T_a / I_aa.
inline Vec3 blockedSpinKick(const BodyState& s, std::size_t b, const Vec3& omega, double h) {
  const int a = freeRotationAxis(s.blocked[b]);
  if (a < 0) return Vec3::Zero();
  const Vec3 axis = Vec3::Unit(a);
  Vec3 w = Vec3::Zero();
  w[a] = omega[a] + h * s.torque[b][a] / normalInertia(s, b, axis);
  return w;
}

// Zeroes the blocked components of body b's angular velocity (round-off of a body-frame round trip).
inline void confineBlockedSpin(BodyState& s, std::size_t b) {
  const int free = freeRotationAxis(s.blocked[b]);
  for (int a = 0; a < 3; ++a) {
    if (a != free) s.angularVelocity[b][a] = 0.0;
  }
}

// The drift of a body with blocked rotations over tau [s]: q turned by tau omega (about the free
// axis, or not at all).
inline void blockedSpinDrift(BodyState& s, std::size_t b, double tau) {
  s.orientation[b] = renormalized(rotationFromVector(tau * s.angularVelocity[b]) * s.orientation[b]);
}

}  // namespace clumplab
