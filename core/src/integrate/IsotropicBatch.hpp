#pragma once
// The leapfrog's kicks and drift for a batch of bodies that are all isotropic (equal principal
// moments: a sphere, a cube) and free (no blocked degree of freedom), in a world where no Lorentz
// force is kicked: the path of every body of a bed of spheres. Each body takes the operations that
// VelocityKicks, kickedTwice, isotropicKick and the drift's rotation give it one at a time, in the
// same order, so the bits are the same; only the per-body questions (blocked? isotropic? charged?)
// and the scratch arrays of the mixed path are gone, and the loops run over plain arrays of doubles.
#include <array>
#include <cstddef>

#include "IsotropicSpin.hpp"
#include "core/base/Math.hpp"
#include "core/clump/BodyState.hpp"

namespace clumplab {

// Whether bodies [begin, end) of `s` are all isotropic and free.
inline bool isotropicAndFree(const BodyState& s, std::size_t begin, std::size_t end) {
  bool all = true;
  for (std::size_t b = begin; b < end; ++b)
    all = all && s.blocked[b] == 0 && hasIsotropicInertia(s.moments[b]);
  return all;
}

// The first half kick (dt/2 = h) and the drift (dt) of bodies [begin, end), at most kMax of them:
// translation v1 = v + h F / m, x += dt v1, the body holding v1 kicked twice and `driftedLinear`
// v1 (VelocityPredictor.hpp); rotation as isotropicKick, then q = R(w1 dt) q with w1 the
// half-kicked angular velocity (IsotropicSpin.hpp).
template <std::size_t kMax>
void isotropicBatchKickDrift(BodyState& s, std::size_t begin, std::size_t end, double h, double dt,
                             Vec3* driftedLinear, Vec3* driftedAngular) {
  static_assert(sizeof(Vec3) == 3 * sizeof(double));
  const double* __restrict mass = s.mass.data();
  const double* __restrict moments = s.moments.front().data();
  const double* __restrict force = s.force.front().data();
  const double* __restrict torque = s.torque.front().data();
  double* __restrict position = s.position.front().data();
  double* __restrict velocity = s.velocity.front().data();
  double* __restrict spin = s.angularVelocity.front().data();
  double* __restrict linear = driftedLinear->data();
  double* __restrict angular = driftedAngular->data();
  std::array<double, kMax> a[3]{};  // the drift's rotation vectors w1 dt
  for (std::size_t b = begin; b < end; ++b) {
    const double hOverMass = h / mass[b];
    const double inertia = moments[3 * b];
    for (std::size_t c = 0; c < 3; ++c) {
      const std::size_t i = 3 * b + c;
      const double v0 = velocity[i];
      const double v1 = v0 + hOverMass * force[i];  // VelocityKicks
      position[i] += dt * v1;
      linear[i] = v1;
      velocity[i] = 2.0 * v1 - v0;              // kickedTwice
      const double rate = torque[i] / inertia;  // isotropicSpinRate
      const double w0 = spin[i];
      const double w1 = w0 + h * rate;  // isotropicKick
      angular[i] = w1;
      spin[i] = w0 + (2.0 * h) * rate;
      a[c][b - begin] = dt * w1;
    }
  }
  std::array<Quat, kMax> turn;
  rotationsFromVectors(a[0], a[1], a[2], end - begin, turn.data());
  for (std::size_t b = begin; b < end; ++b)
    s.orientation[b] = renormalized(turn[b - begin] * s.orientation[b]);
}

// The second half kick (h) of bodies [begin, end): v += h F / m, w += h T / I.
inline void isotropicBatchKick(BodyState& s, std::size_t begin, std::size_t end, double h) {
  const double* __restrict mass = s.mass.data();
  const double* __restrict moments = s.moments.front().data();
  const double* __restrict force = s.force.front().data();
  const double* __restrict torque = s.torque.front().data();
  double* __restrict velocity = s.velocity.front().data();
  double* __restrict spin = s.angularVelocity.front().data();
  for (std::size_t b = begin; b < end; ++b) {
    const double hOverMass = h / mass[b];
    const double inertia = moments[3 * b];
    for (std::size_t c = 0; c < 3; ++c) {
      const std::size_t i = 3 * b + c;
      velocity[i] += hOverMass * force[i];
      spin[i] += h * (torque[i] / inertia);
    }
  }
}

}  // namespace clumplab
