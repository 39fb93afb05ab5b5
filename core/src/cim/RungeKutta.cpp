#include "core/cim/RungeKutta.hpp"

#include <algorithm>
#include <cmath>

namespace clumplab::cim {

namespace {

// Fehlberg's 4(5) pair (NASA TR R-315, 1969, Table III; HNW Table II.5.1).
namespace rkf {
constexpr double c2 = 1.0 / 4.0, c3 = 3.0 / 8.0, c4 = 12.0 / 13.0, c5 = 1.0, c6 = 1.0 / 2.0;
constexpr double a21 = 1.0 / 4.0;
constexpr double a31 = 3.0 / 32.0, a32 = 9.0 / 32.0;
constexpr double a41 = 1932.0 / 2197.0, a42 = -7200.0 / 2197.0, a43 = 7296.0 / 2197.0;
constexpr double a51 = 439.0 / 216.0, a52 = -8.0, a53 = 3680.0 / 513.0, a54 = -845.0 / 4104.0;
constexpr double a61 = -8.0 / 27.0, a62 = 2.0, a63 = -3544.0 / 2565.0, a64 = 1859.0 / 4104.0,
                 a65 = -11.0 / 40.0;
// Fourth-order weights (b2 = b6 = 0).
constexpr double b1 = 25.0 / 216.0, b3 = 1408.0 / 2565.0, b4 = 2197.0 / 4104.0, b5 = -1.0 / 5.0;
// Fifth-order weights (bh2 = 0).
constexpr double bh1 = 16.0 / 135.0, bh3 = 6656.0 / 12825.0, bh4 = 28561.0 / 56430.0, bh5 = -9.0 / 50.0,
                 bh6 = 2.0 / 55.0;
}  // namespace rkf

// One block's norm over components [begin, begin + size).
double blockNorm(const OdeState& v, Eigen::Index begin, Eigen::Index size) {
  return v.segment(begin, size).norm();
}

// HNW §II.4 "Starting step size" with this file's block norm; returns the step and leaves
// f(t0, y0) in work.k[0]. Two evaluations. Departures from HNW, for atol ~ 0 (the paper's 1e-20):
//  - blocks that are zero with no floor (a body at rest, a coordinate at the origin) have no scale
//    of their own yet and are left out of d0, d1, d2 (with atol ~ 0 any change of them would count
//    as infinitely large and start the integration with steps of ~1e-20 s);
//  - where the guess h0 was arbitrary (nothing moves at first, d0 or d1 ~ 0) the step comes from
//    the change of f alone, and where nothing changes at all it is the whole interval (the error
//    control rejects it if that was wrong) instead of HNW's absolute 1e-6.
double startingStep(OdeSystem& system, double t0, double t1, const OdeState& y, const RkfSettings& s,
                    RungeKuttaWorkspace& work) {
  system.derivative(t0, y, work.k[0]);
  const double span = t1 - t0;
  const std::span<const int> blocks = system.errorBlocks();
  const std::span<const double> floors = system.errorFloors();
  // Scaled norm: max over blocks of |v_B| / (atol + rtol max(|y0_B|, floor_B)).
  const auto scaledNorm = [&](const OdeState& v) {
    double worst = 0.0;
    std::size_t b = 0, block = 0;
    for (Eigen::Index i = 0; i < y.size(); b = (b + 1) % blocks.size(), ++block) {
      const Eigen::Index n = std::min<Eigen::Index>(blocks[b], y.size() - i);
      const double magnitude = std::max(blockNorm(y, i, n), block < floors.size() ? floors[block] : 0.0);
      if (magnitude > 0.0) {
        worst = std::max(worst, blockNorm(v, i, n) / (s.absoluteTolerance + s.relativeTolerance * magnitude));
      }
      i += n;
    }
    return worst;
  };
  const double d0 = scaledNorm(y);
  const double d1 = scaledNorm(work.k[0]);
  const bool arbitrary = d0 < 1e-5 || d1 < 1e-5;
  const double h0 = arbitrary ? 1e-6 * span : std::min(0.01 * d0 / d1, span);
  work.stage = y + h0 * work.k[0];
  system.derivative(t0 + h0, work.stage, work.k[1]);
  work.lower = (work.k[1] - work.k[0]) / h0;
  const double d2 = scaledNorm(work.lower);
  const double dMax = std::max(d1, d2);
  if (dMax <= 1e-15) return span;
  // Order p = 4 of the step that carries the error: (0.01 / max(d1, d2))^(1/5).
  const double h1 = std::pow(0.01 / dMax, 0.2);
  return arbitrary ? h1 : std::min(100.0 * h0, h1);
}

}  // namespace

void RungeKuttaWorkspace::resize(Eigen::Index n) {
  for (OdeState& v : k) v.resize(n);
  stage.resize(n);
  lower.resize(n);
  higher.resize(n);
}

void rk4Step(OdeSystem& system, double t, double h, OdeState& y, RungeKuttaWorkspace& work) {
  work.resize(y.size());
  system.derivative(t, y, work.k[0]);
  work.stage = y + 0.5 * h * work.k[0];
  system.derivative(t + 0.5 * h, work.stage, work.k[1]);
  work.stage = y + 0.5 * h * work.k[1];
  system.derivative(t + 0.5 * h, work.stage, work.k[2]);
  work.stage = y + h * work.k[2];
  system.derivative(t + h, work.stage, work.k[3]);
  y += (h / 6.0) * (work.k[0] + 2.0 * work.k[1] + 2.0 * work.k[2] + work.k[3]);
}

int fehlbergStep(OdeSystem& system, double t, double h, const OdeState& y, RungeKuttaWorkspace& work,
                 bool k1Ready) {
  using namespace rkf;
  work.resize(y.size());
  OdeState* k = work.k;
  int evaluations = 5;
  if (!k1Ready) {
    system.derivative(t, y, k[0]);
    ++evaluations;
  }
  work.stage = y + h * a21 * k[0];
  system.derivative(t + c2 * h, work.stage, k[1]);
  work.stage = y + h * (a31 * k[0] + a32 * k[1]);
  system.derivative(t + c3 * h, work.stage, k[2]);
  work.stage = y + h * (a41 * k[0] + a42 * k[1] + a43 * k[2]);
  system.derivative(t + c4 * h, work.stage, k[3]);
  work.stage = y + h * (a51 * k[0] + a52 * k[1] + a53 * k[2] + a54 * k[3]);
  system.derivative(t + c5 * h, work.stage, k[4]);
  work.stage = y + h * (a61 * k[0] + a62 * k[1] + a63 * k[2] + a64 * k[3] + a65 * k[4]);
  system.derivative(t + c6 * h, work.stage, k[5]);
  work.lower = y + h * (b1 * k[0] + b3 * k[2] + b4 * k[3] + b5 * k[4]);
  work.higher = y + h * (bh1 * k[0] + bh3 * k[2] + bh4 * k[3] + bh5 * k[4] + bh6 * k[5]);
  return evaluations;
}

Rk4Stats integrateRk4(OdeSystem& system, double t0, double t1, double h, OdeState& y,
                      RungeKuttaWorkspace& work) {
  Rk4Stats stats;
  if (!(t1 > t0) || !(h > 0.0)) return stats;
  // Steps of h, the last one clipped; a remainder below 1e-12 h is absorbed into the previous step.
  const auto steps = static_cast<std::size_t>(std::max(1.0, std::ceil((t1 - t0) / h - 1e-12)));
  for (std::size_t n = 0; n < steps; ++n) {
    const double t = t0 + static_cast<double>(n) * h;
    const double step = n + 1 == steps ? t1 - t : h;
    rk4Step(system, t, step, y, work);
    system.project(y);
  }
  stats.steps = steps;
  stats.evaluations = 4 * steps;
  return stats;
}

void RkfStats::add(const RkfStats& other) {
  accepted += other.accepted;
  rejected += other.rejected;
  forced += other.forced;
  evaluations += other.evaluations;
  boundRetakes += other.boundRetakes;
  smallestStep = std::min(smallestStep, other.smallestStep);
  largestStep = std::max(largestStep, other.largestStep);
}

double errorRatio(const OdeState& error, const OdeState& y0, const OdeState& y1, double relativeTolerance,
                  double absoluteTolerance, std::span<const int> blocks, std::span<const double> floors) {
  double worst = 0.0;
  std::size_t b = 0, block = 0;
  for (Eigen::Index i = 0; i < error.size(); b = (b + 1) % blocks.size(), ++block) {
    const Eigen::Index n = std::min<Eigen::Index>(blocks[b], error.size() - i);
    const double floor = block < floors.size() ? floors[block] : 0.0;
    const double scale =
        absoluteTolerance + relativeTolerance * std::max({blockNorm(y0, i, n), blockNorm(y1, i, n), floor});
    const double e = blockNorm(error, i, n);
    const double ratio = e == 0.0 ? 0.0 : e / scale;
    if (!(ratio <= worst)) worst = ratio;  // NaN propagates
    i += n;
  }
  return worst;
}

RkfStats integrateRkf45(OdeSystem& system, double t0, double t1, OdeState& y, const RkfSettings& s,
                        RungeKuttaWorkspace& work) {
  RkfStats stats;
  stats.reached = t0;
  if (!(t1 > t0)) {
    stats.finished = true;
    stats.reached = t1;
    return stats;
  }
  work.resize(y.size());
  const std::span<const int> blocks = system.errorBlocks();
  const std::span<const double> floors = system.errorFloors();
  const double largest = std::max(s.maxStep, s.minStep);  // dt_min wins over a smaller dt_max
  const auto clampStep = [&](double h) { return std::clamp(h, s.minStep, largest); };

  bool k1Ready = false;
  double h = s.initialStep;
  if (!(h > 0.0)) {
    h = startingStep(system, t0, t1, y, s, work);
    stats.evaluations += 2;
    k1Ready = true;
  }
  h = clampStep(h);
  double t = t0;
  bool lastRejected = false;
  // The bound's ratio at (t, y), and the shortest step worth retaking for it.
  double ratio = s.boundRatio ? s.boundRatio(t0, y) : 0.0;
  const double boundFloor = std::max(s.boundResolution, s.minStep);
  while (stats.accepted + stats.rejected < s.maxSteps) {
    if (s.cancel != nullptr && (stats.accepted + stats.rejected) % kRkfCancelCheckEvery == 0 &&
        s.cancel->load(std::memory_order_relaxed)) {
      return stats;
    }
    const double remaining = t1 - t;
    // Within round-off of the end counts as reaching it: no sliver of a step after a last one that
    // fell a few ulp short.
    const bool last = h >= remaining * (1.0 - 1e-12);
    const double step = last ? remaining : h;
    stats.evaluations += static_cast<std::size_t>(fehlbergStep(system, t, step, y, work, k1Ready));
    // The estimate of the fourth-order solution's local error: h sum (bh_i - b_i) k_i.
    work.stage = work.higher - work.lower;
    const double err =
        errorRatio(work.stage, y, work.higher, s.relativeTolerance, s.absoluteTolerance, blocks, floors);
    if (!std::isfinite(err)) {
      // The state itself blew up: a smaller step may help unless we are at the floor already.
      if (step <= s.minStep) return stats;
      h = clampStep(step * s.maxShrink);
      ++stats.rejected;
      k1Ready = true;
      lastRejected = true;
      continue;
    }
    // HNW eq. (4.13): h_new = h min(facmax, max(facmin, fac (1/err)^(1/(q+1)))), q = 4.
    const double growth = lastRejected ? 1.0 : s.maxGrowth;
    const double factor =
        err > 0.0 ? std::clamp(s.safety * std::pow(err, -0.2), s.maxShrink, growth) : growth;
    if (err <= 1.0 || step <= s.minStep) {
      OdeState& next = s.localExtrapolation ? work.higher : work.lower;
      bool stopAfter = false;  // taken although beyond the bound; the integration stops after it
      if (s.boundRatio) {
        const double after = s.boundRatio(last ? t1 : t + step, next);
        if (after <= 1.0) {
          ratio = after;
        } else if (std::isfinite(after) && (step <= s.minStep || (step <= boundFloor && t == t0))) {
          // A step that cannot be shortened (at the minimum step), or the first step and already
          // too short to resolve the crossing: it always gets somewhere.
          stopAfter = true;
        } else if (step <= boundFloor || !std::isfinite(after)) {
          stats.bounded = true;
          stats.nextStep = h;
          return stats;
        } else {
          // The ratio is about linear over a step: aim at 90% of the way to the limit.
          const double share = after > ratio ? (1.0 - ratio) / (after - ratio) : 0.5;
          h = clampStep(step * std::clamp(0.9 * share, 0.05, 0.9));
          ++stats.rejected;
          ++stats.boundRetakes;
          k1Ready = true;
          lastRejected = true;
          continue;
        }
      }
      if (err > 1.0) ++stats.forced;
      y = next;
      system.project(y);
      t = last ? t1 : t + step;
      stats.reached = t;
      ++stats.accepted;
      if (s.onAcceptedStep) s.onAcceptedStep(t, y);
      if (stopAfter) {
        stats.bounded = true;
        stats.finished = last;
        stats.nextStep = h;
        return stats;
      }
      if (!last || step == h) {
        stats.smallestStep = std::min(stats.smallestStep, step);
        stats.largestStep = std::max(stats.largestStep, step);
      }
      k1Ready = false;
      lastRejected = false;
      // A clipped last step says little about the natural step: keep the larger proposal.
      const double proposed = clampStep(step * factor);
      h = last ? std::max(h, proposed) : proposed;
      if (last) {
        stats.nextStep = h;
        stats.finished = true;
        return stats;
      }
    } else {
      ++stats.rejected;
      k1Ready = true;  // same (t, y): k1 is still f(t, y)
      lastRejected = true;
      h = clampStep(step * factor);
    }
  }
  stats.nextStep = h;
  return stats;
}

}  // namespace clumplab::cim
