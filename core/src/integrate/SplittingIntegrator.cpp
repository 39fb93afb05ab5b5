#include "SplittingIntegrator.hpp"

#include <algorithm>
#include <cmath>

#include "BlockedMotion.hpp"
#include "PlanarMotion.hpp"
#include "VelocityKick.hpp"
#include "base/BodyLoop.hpp"
#include "core/base/ThreadPool.hpp"
#include "core/integrate/StepContext.hpp"
#include "core/model/WorldModel.hpp"

namespace clumplab {

namespace {
// Exact flow of H_k = pi_k^2 / (2 I_k) for time h: the body turns about its axis k by
// phi = h pi_k / I_k, and pi (body components of the fixed world L) turns by -phi.
void rotateAbout(int k, Quat& q, Vec3& pi, const Vec3& moments, double h) {
  const double phi = h * pi[k] / moments[k];
  double s = 0.0, c = 0.0, sinHalf = 0.0, cosHalf = 0.0;
  sinCos(phi, s, c);
  sinCos(0.5 * phi, sinHalf, cosHalf);
  const int i = (k + 1) % 3, j = (k + 2) % 3;
  const double pii = pi[i], pij = pi[j];
  pi[i] = c * pii + s * pij;
  pi[j] = -s * pii + c * pij;
  Vec3 axis = Vec3::Zero();
  axis[k] = 1.0;
  q = q * Quat(cosHalf, sinHalf * axis.x(), sinHalf * axis.y(), sinHalf * axis.z());
}
}  // namespace

void SplittingIntegrator::freeRotor(Quat& q, Vec3& pi, const Vec3& moments, double h, int substeps) {
  // Miller et al. sub-step the free rotor; with axes ordered 1-2-3-2-1 (ascending moments) the
  // orientation error of a free asymmetric top was the smallest of the six orders we measured.
  const double hs = h / substeps;
  for (int m = 0; m < substeps; ++m) {
    rotateAbout(0, q, pi, moments, 0.5 * hs);
    rotateAbout(1, q, pi, moments, 0.5 * hs);
    rotateAbout(2, q, pi, moments, hs);
    rotateAbout(1, q, pi, moments, 0.5 * hs);
    rotateAbout(0, q, pi, moments, 0.5 * hs);
  }
  q = renormalized(q);
}

void SplittingIntegrator::step(const StepContext& step, ForceStageHistory& /*history: none*/,
                               ForceStage& forces) {
  BodyState& s = step.bodies;
  const VelocityKicks kickVelocity(forces);  // v += h F / m, Boris-rotated where a charge meets B
  const double dt = step.model.settings.timeStep;
  const double h = 0.5 * dt;
  const bool gyro = step.model.settings.gyroscopic;
  const int substeps = std::max(1, step.model.settings.rotorSubsteps);
  const std::size_t n = s.size();
  if (step.model.settings.plane.enabled) {  // 2D: the free rotor about a fixed axis is exact
    planarKickDriftKick(step, forces, drifted_);
    return;
  }
  forces.refreshIfStale();
  // Kick (half) and drift; the bodies keep the predicted end-of-step velocities for the force
  // evaluation, drifted_ the drifted ones (VelocityPredictor.hpp).
  drifted_.resize(n);
  forEachBody(step.pool, n, [&](std::size_t b) {
    const Vec3 v0 = s.velocity[b];
    kickVelocity(s, b, h);
    if (s.blocked[b] != 0) confineBlockedVelocity(s, b);
    s.position[b] += dt * s.velocity[b];
    drifted_.linear[b] = s.velocity[b];
    s.velocity[b] = kickedTwice(v0, s.velocity[b]);
    if (hasBlockedRotation(s, b)) {  // frozen, or turning about its free world axes (BlockedMotion.hpp)
      s.angularVelocity[b] = blockedSpinKick(s, b, s.angularVelocity[b], h);
      blockedSpinDrift(s, b, dt, gyro);
      drifted_.angular[b] = s.angularVelocity[b];
      s.angularVelocity[b] = blockedSpinKick(s, b, s.angularVelocity[b], h);
      return;
    }
    // Half kick of the world angular momentum, then the free rotor in the body frame.
    const Vec3 spin = s.spinAngularMomentum(b) + h * s.torque[b];
    Quat q = s.orientation[b];
    Vec3 pi = q.conjugate() * spin;
    if (gyro) {
      freeRotor(q, pi, s.moments[b], dt, substeps);
    } else {
      // Without the gyroscopic term the body-frame angular velocity is constant over the drift.
      q = renormalized(q * rotationFromVector(dt * pi.cwiseQuotient(s.moments[b])));
    }
    s.orientation[b] = q;
    drifted_.angular[b] = q * pi.cwiseQuotient(s.moments[b]);
    // The world angular momentum kicked once more, L* = L_{n+1/2} + h T_n, at the new orientation.
    const Vec3 piPredicted = pi + h * (q.conjugate() * s.torque[b]);
    s.angularVelocity[b] = q * piPredicted.cwiseQuotient(s.moments[b]);
  });
  computeForcesAtPredictedVelocities(forces, s, drifted_);
  forEachBody(step.pool, n, [&](std::size_t b) {
    kickVelocity(s, b, h);
    if (s.blocked[b] != 0) confineBlockedVelocity(s, b);
    if (hasBlockedRotation(s, b)) {
      s.angularVelocity[b] = blockedSpinKick(s, b, s.angularVelocity[b], h);
      return;
    }
    const Vec3 spin = s.spinAngularMomentum(b) + h * s.torque[b];
    s.angularVelocity[b] =
        s.orientation[b] * (s.orientation[b].conjugate() * spin).cwiseQuotient(s.moments[b]);
  });
}

}  // namespace clumplab
