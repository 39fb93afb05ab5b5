#include "LeapfrogIntegrator.hpp"

#include <algorithm>
#include <array>

#include "BlockedMotion.hpp"
#include "IsotropicBatch.hpp"
#include "IsotropicSpin.hpp"
#include "PlanarMotion.hpp"
#include "VelocityKick.hpp"
#include "base/BodyLoop.hpp"
#include "core/base/ThreadPool.hpp"
#include "core/integrate/StepContext.hpp"
#include "core/model/WorldModel.hpp"

namespace clumplab {

void LeapfrogIntegrator::eulerKicks(const Vec3* omega0, const Vec3* torqueBody, const Vec3* moments, double h,
                                    int iterations, bool gyroscopic, std::size_t count, Vec3* out,
                                    Vec3* predicted) {
  // MercuryDPM rigid clumps, §2.6: w[0] = w0; (*) solve (28) for w'; w_new = w0 + w' h; w[n+1] = (w0 +
  // w_new)/2. Component-wise in structure-of-arrays form over up to kBatch bodies; each operation is the one
  // the vector form performs, so the result is bit-identical to it.
  std::array<double, kBatch> w0[3], w[3], t[3], m[3], inv[3], rate[3];
  for (std::size_t begin = 0; begin < count; begin += kBatch) {
    const std::size_t k = std::min(kBatch, count - begin);
    for (std::size_t j = 0; j < k; ++j) {
      for (int c = 0; c < 3; ++c) {
        w0[c][j] = w[c][j] = omega0[begin + j][c];
        t[c][j] = torqueBody[begin + j][c];
        m[c][j] = moments[begin + j][c];
        inv[c][j] = 1.0 / m[c][j];
        rate[c][j] = 0.0;
      }
    }
    for (int n = 0; n < std::max(1, iterations); ++n) {  // "2 - 5" iterations (§2.6)
      for (std::size_t j = 0; j < k; ++j) {
        double gx = 0.0, gy = 0.0, gz = 0.0;
        if (gyroscopic) {  // w x (I w)
          const double ix = m[0][j] * w[0][j], iy = m[1][j] * w[1][j], iz = m[2][j] * w[2][j];
          gx = w[1][j] * iz - w[2][j] * iy;
          gy = w[2][j] * ix - w[0][j] * iz;
          gz = w[0][j] * iy - w[1][j] * ix;
        }
        rate[0][j] = (t[0][j] - gx) * inv[0][j];  // eq. 28: I w' = M - W
        rate[1][j] = (t[1][j] - gy) * inv[1][j];
        rate[2][j] = (t[2][j] - gz) * inv[2][j];
        for (int c = 0; c < 3; ++c) w[c][j] = w0[c][j] + 0.5 * h * rate[c][j];  // (w0 + w_new) / 2
      }
    }
    if (predicted != nullptr) {
      for (std::size_t j = 0; j < k; ++j) {
        const double h2 = 2.0 * h;
        predicted[begin + j] =
            Vec3(w0[0][j] + rate[0][j] * h2, w0[1][j] + rate[1][j] * h2, w0[2][j] + rate[2][j] * h2);
      }
    }
    for (std::size_t j = 0; j < k; ++j) {
      out[begin + j] = Vec3(w0[0][j] + rate[0][j] * h, w0[1][j] + rate[1][j] * h, w0[2][j] + rate[2][j] * h);
    }
  }
}

namespace {
// How a body turns in a step: by the Euler solve in its own frame, as an isotropic body in the world
// frame (IsotropicSpin.hpp), or with blocked rotations (BlockedMotion.hpp).
enum class Spin : std::uint8_t { Free, Isotropic, Blocked };

Spin spinOf(const BodyState& s, std::size_t b) {
  if (hasBlockedRotation(s, b)) return Spin::Blocked;
  return hasIsotropicInertia(s.moments[b]) ? Spin::Isotropic : Spin::Free;
}
}  // namespace

void LeapfrogIntegrator::step(const StepContext& step, ForceStageHistory& history, ForceStage& forces) {
  BodyState& s = step.bodies;
  std::vector<Vec3>& omegaBody = history.omegaBody;  // body-frame angular velocity after the last kick
  const VelocityKicks kickVelocity(forces);          // v += h F / m, Boris-rotated where a charge meets B
  const double dt = step.model.settings.timeStep;
  const double h = 0.5 * dt;
  const bool gyro = step.model.settings.gyroscopic;
  const std::size_t n = s.size();
  if (step.model.settings.plane.enabled) {  // 2D: rotation about the fixed normal
    planarKickDriftKick(step, forces, drifted_);
    omegaBody.clear();
    return;
  }
  forces.refreshIfStale();
  // The body-frame angular velocity of the previous step's last kick is still valid unless the state
  // was edited (the history forgotten) or bodies were added out of step with it.
  const bool cached = omegaBody.size() == n;
  omegaBody.resize(n);
  drifted_.resize(n);
  // Batches of bodies go through each stage together, so the long dependency chains of different
  // bodies overlap. Bodies are independent: chunks may run on any thread.
  const auto kick = [&](std::size_t begin, std::size_t end, Vec3* torqueBody, Vec3* predicted) {
    eulerKicks(&omegaBody[begin], torqueBody, &s.moments[begin], h, iterations_, gyro, end - begin,
               &omegaBody[begin], predicted);
  };
  // Kick (half) and drift; the bodies keep the predicted end-of-step velocities for the force
  // evaluation, drifted_ the drifted ones (VelocityPredictor.hpp).
  const bool lorentz = forces.hasLorentzKicks();
  forEachBodyBatch(step.pool, n, kBatch, kChunk / kBatch, [&](std::size_t begin, std::size_t end) {
    if (!lorentz && isotropicAndFree(s, begin, end)) {  // spheres, cubes: IsotropicBatch.hpp
      isotropicBatchKickDrift<kBatch>(s, begin, end, h, dt, drifted_.linear.data(), drifted_.angular.data());
      return;
    }
    std::array<Vec3, kBatch> torqueBody, predictedBody;
    std::array<Spin, kBatch> spin;
    std::size_t solved = 0;  // bodies of the batch that need the Euler solve
    for (std::size_t b = begin; b < end; ++b) {
      const Vec3 v0 = s.velocity[b];
      kickVelocity(s, b, h);
      if (s.blocked[b] != 0) confineBlockedVelocity(s, b);
      s.position[b] += dt * s.velocity[b];
      drifted_.linear[b] = s.velocity[b];
      s.velocity[b] = kickedTwice(v0, s.velocity[b]);
      spin[b - begin] = spinOf(s, b);
      if (spin[b - begin] == Spin::Isotropic) {
        isotropicKick(s, b, h, drifted_.angular[b]);
        torqueBody[b - begin].setZero();  // the solve below may run over it in a mixed batch, unused
        continue;
      }
      ++solved;
      const Quat q = s.orientation[b].conjugate();
      if (!cached) omegaBody[b] = q * s.angularVelocity[b];
      torqueBody[b - begin] = q * s.torque[b];
    }
    if (solved > 0) kick(begin, end, torqueBody.data(), predictedBody.data());
    // The drift's rotations, each stage in a loop of its own over the batch: one body's chain (series,
    // product, renormalisation) is long, and the bodies' chains overlap only when the loop is short.
    std::array<double, kBatch> ax{}, ay{}, az{};  // rotation vectors; a blocked body's stays 0
    for (std::size_t b = begin; b < end; ++b) {
      Vec3 a = Vec3::Zero();
      switch (spin[b - begin]) {
        case Spin::Free:  // the body-frame rotation vector w dt (exact exponential)
          a = dt * omegaBody[b];
          break;
        case Spin::Isotropic:  // the world-frame one (IsotropicSpin.hpp)
          a = dt * drifted_.angular[b];
          break;
        case Spin::Blocked:  // frozen, or turning about its free world axes (BlockedMotion.hpp)
          s.angularVelocity[b] = blockedSpinKick(s, b, s.angularVelocity[b], h);
          blockedSpinDrift(s, b, dt, gyro);
          omegaBody[b] = s.orientation[b].conjugate() * s.angularVelocity[b];
          drifted_.angular[b] = s.angularVelocity[b];
          s.angularVelocity[b] = blockedSpinKick(s, b, s.angularVelocity[b], h);
          break;
      }
      ax[b - begin] = a.x();
      ay[b - begin] = a.y();
      az[b - begin] = a.z();
    }
    std::array<Quat, kBatch> turn;
    rotationsFromVectors(ax, ay, az, end - begin, turn.data());
    for (std::size_t b = begin; b < end; ++b) {
      if (spin[b - begin] == Spin::Free) s.orientation[b] = renormalized(s.orientation[b] * turn[b - begin]);
      if (spin[b - begin] == Spin::Isotropic)
        s.orientation[b] = renormalized(turn[b - begin] * s.orientation[b]);
    }
    for (std::size_t b = begin; b < end; ++b) {
      if (spin[b - begin] != Spin::Free) continue;
      drifted_.angular[b] = s.orientation[b] * omegaBody[b];
      s.angularVelocity[b] = s.orientation[b] * predictedBody[b - begin];
    }
  });
  computeForcesAtPredictedVelocities(forces, s, drifted_);
  // Kick (half) with the forces at t + dt.
  forEachBodyBatch(step.pool, n, kBatch, kChunk / kBatch, [&](std::size_t begin, std::size_t end) {
    if (!lorentz && isotropicAndFree(s, begin, end)) {
      isotropicBatchKick(s, begin, end, h);
      return;
    }
    std::array<Vec3, kBatch> torqueBody;
    std::array<Spin, kBatch> spin;
    std::size_t solved = 0;
    for (std::size_t b = begin; b < end; ++b) {
      kickVelocity(s, b, h);
      if (s.blocked[b] != 0) confineBlockedVelocity(s, b);
      spin[b - begin] = spinOf(s, b);
      if (spin[b - begin] == Spin::Isotropic) {
        s.angularVelocity[b] += h * isotropicSpinRate(s, b);
        torqueBody[b - begin].setZero();
        continue;
      }
      ++solved;
      torqueBody[b - begin] = s.orientation[b].conjugate() * s.torque[b];
    }
    if (solved == 0) return;
    kick(begin, end, torqueBody.data(), nullptr);
    for (std::size_t b = begin; b < end; ++b) {
      if (spin[b - begin] == Spin::Isotropic) continue;
      if (spin[b - begin] == Spin::Blocked) {
        omegaBody[b] = s.orientation[b].conjugate() * blockedSpinKick(s, b, s.angularVelocity[b], h);
      }
      s.angularVelocity[b] = s.orientation[b] * omegaBody[b];
      if (spin[b - begin] == Spin::Blocked) confineBlockedSpin(s, b);
    }
  });
}

}  // namespace clumplab
