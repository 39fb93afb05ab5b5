// The Runge-Kutta integrators of the cluster integration method (core/cim/RungeKutta.hpp): orders of
// convergence on the Kepler problem (RK4: 4; Fehlberg's embedded pair: 4 and 5), the adaptive RKF45
// reaching the requested tolerance, the minimum and maximum steps honoured, the target time hit
// exactly, and evaluations counted.
#include <QtTest>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "TestSupport.hpp"
#include "core/cim/RungeKutta.hpp"

using namespace clumplab;
using namespace clumplab::cim;

namespace {

// The Kepler problem q'' = -q / |q|^3 (GM = 1) in the plane, y = (q, p); starting at pericentre of
// an orbit with semi-major axis 1 and eccentricity e, its period is 2 pi. Counts its evaluations.
// The order tests use e = 0.1: on more eccentric orbits the fourth-order Fehlberg solution's small
// leading error term shows its asymptotic order only at steps so short that round-off interferes;
// the adaptive tests use e = 0.6, where step-size control matters.
class Kepler final : public OdeSystem {
 public:
  void derivative(double t, const OdeState& y, OdeState& dydt) override {
    ++calls;
    latest = std::max(latest, t);
    dydt.resize(4);
    const double r3 = std::pow(y[0] * y[0] + y[1] * y[1], 1.5);
    dydt << y[2], y[3], -y[0] / r3, -y[1] / r3;
  }
  std::size_t calls = 0;
  double latest = -1.0;
};

OdeState keplerStart(double eccentricity = 0.6) {
  OdeState y(4);
  y << 1.0 - eccentricity, 0.0, 0.0, std::sqrt((1.0 + eccentricity) / (1.0 - eccentricity));
  return y;
}

constexpr double kPeriod = 2.0 * M_PI;

// Least-squares slope of log(error) against log(h).
double fittedOrder(const std::vector<double>& h, const std::vector<double>& error) {
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    mx += std::log(h[i]);
    my += std::log(error[i]);
  }
  mx /= static_cast<double>(h.size());
  my /= static_cast<double>(h.size());
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    sxy += (std::log(h[i]) - mx) * (std::log(error[i]) - my);
    sxx += (std::log(h[i]) - mx) * (std::log(h[i]) - mx);
  }
  return sxy / sxx;
}

enum class Scheme { Rk4, Fehlberg4, Fehlberg5 };

// Error after one period with n constant steps.
double periodError(Scheme scheme, int n) {
  Kepler ode;
  OdeState y = keplerStart(0.1);
  RungeKuttaWorkspace work;
  const double h = kPeriod / n;
  for (int k = 0; k < n; ++k) {
    if (scheme == Scheme::Rk4) {
      rk4Step(ode, k * h, h, y, work);
    } else {
      fehlbergStep(ode, k * h, h, y, work, false);
      y = scheme == Scheme::Fehlberg4 ? work.lower : work.higher;
    }
  }
  return (y - keplerStart(0.1)).norm();
}

}  // namespace

class CimRungeKuttaTest : public QObject {
  Q_OBJECT
 private slots:
  void convergenceOrder_data() {
    QTest::addColumn<int>("scheme");
    QTest::addColumn<double>("expected");
    QTest::newRow("rk4") << static_cast<int>(Scheme::Rk4) << 4.0;
    QTest::newRow("fehlberg 4th-order solution") << static_cast<int>(Scheme::Fehlberg4) << 4.0;
    QTest::newRow("fehlberg 5th-order solution") << static_cast<int>(Scheme::Fehlberg5) << 5.0;
  }
  void convergenceOrder() {
    QFETCH(int, scheme);
    QFETCH(double, expected);
    std::vector<double> h, error;
    for (const int n : {100, 200, 400, 800}) {
      h.push_back(kPeriod / n);
      error.push_back(periodError(static_cast<Scheme>(scheme), n));
    }
    const double order = fittedOrder(h, error);
    qInfo("%s: errors %.3g %.3g %.3g %.3g, fitted order %.3f", QTest::currentDataTag(), error[0], error[1],
          error[2], error[3], order);
    QVERIFY2(error.back() > 1e-13, "the finest error must stay above round-off to measure an order");
    QVERIFY2(std::abs(order - expected) < 0.3,
             qPrintable(QString("order %1, expected %2 +- 0.3").arg(order).arg(expected)));
  }

  // The global error after one eccentric orbit follows the tolerance down.
  void adaptiveReachesTolerance() {
    std::vector<double> errors;
    for (const double rtol : {1e-5, 1e-7, 1e-9, 1e-11}) {
      Kepler ode;
      OdeState y = keplerStart();
      RkfSettings s;
      s.relativeTolerance = rtol;
      s.absoluteTolerance = 1e-20;
      RungeKuttaWorkspace work;
      const RkfStats stats = integrateRkf45(ode, 0.0, kPeriod, y, s, work);
      const double error = (y - keplerStart()).norm() / keplerStart().norm();
      errors.push_back(error);
      qInfo("rtol %.0e: relative error %.3g, %zu accepted, %zu rejected, %zu evaluations", rtol, error,
            stats.accepted, stats.rejected, stats.evaluations);
      QVERIFY(stats.finished);
      QCOMPARE(stats.forced, std::size_t{0});
      QCOMPARE(stats.evaluations, ode.calls);
      // The global error of ~100 steps each within tolerance stays within a few hundred tolerances.
      CLUMPLAB_VERIFY_LESS(error, 300.0 * rtol);
    }
    for (std::size_t k = 1; k < errors.size(); ++k) CLUMPLAB_VERIFY_LESS(errors[k], 0.1 * errors[k - 1]);
  }

  // Each accepted step meets the tolerance: its actual local error, against the same step taken
  // with 64 RK4 sub-steps, is of the requested size (HNW eq. (4.11), here the max norm). Without
  // local extrapolation the estimate measures the propagated fourth-order solution itself: it is
  // asymptotically exact, but on the steps near pericentre at this tolerance the fifth-order
  // solution it takes as exact is itself off by a fair fraction, and the actual error reaches ~2x
  // the tolerance there. With local extrapolation the propagated solution is the better one: on
  // average several times more accurate.
  void acceptedStepsMeetTheTolerance() {
    std::vector<double> means;
    for (const bool extrapolate : {false, true}) {
      Kepler ode;
      OdeState y = keplerStart();
      RkfSettings s;
      s.relativeTolerance = 1e-7;
      s.localExtrapolation = extrapolate;
      double previousT = 0.0;
      OdeState previousY = y;
      double worst = 0.0, sum = 0.0;
      std::size_t checked = 0;
      Kepler fine;
      RungeKuttaWorkspace fineWork;
      s.onAcceptedStep = [&](double t, const OdeState& yNow) {
        OdeState reference = previousY;
        integrateRk4(fine, previousT, t, (t - previousT) / 64.0, reference, fineWork);
        const double ratio = errorRatio(yNow - reference, previousY, yNow, s.relativeTolerance,
                                        s.absoluteTolerance, ode.errorBlocks());
        worst = std::max(worst, ratio);
        sum += ratio;
        ++checked;
        previousT = t;
        previousY = yNow;
      };
      RungeKuttaWorkspace work;
      const RkfStats stats = integrateRkf45(ode, 0.0, kPeriod, y, s, work);
      means.push_back(sum / static_cast<double>(checked));
      qInfo("local extrapolation %d: %zu steps checked, local error / tolerance: mean %.3g, worst %.3g",
            extrapolate, checked, means.back(), worst);
      QCOMPARE(checked, stats.accepted);
      CLUMPLAB_VERIFY_LESS(worst, 3.0);
    }
    QVERIFY(means[0] > 0.2);  // the control works near its limit, not far below it
    CLUMPLAB_VERIFY_LESS(means[1], 0.5 * means[0]);
  }

  // Fehlberg's original choice (advance with the fourth-order solution) also controls the error.
  void withoutLocalExtrapolation() {
    Kepler ode;
    OdeState y = keplerStart();
    RkfSettings s;
    s.relativeTolerance = 1e-8;
    s.localExtrapolation = false;
    RungeKuttaWorkspace work;
    const RkfStats stats = integrateRkf45(ode, 0.0, kPeriod, y, s, work);
    const double error = (y - keplerStart()).norm() / keplerStart().norm();
    qInfo("4th-order propagation, rtol 1e-8: error %.3g in %zu steps", error, stats.accepted);
    QVERIFY(stats.finished);
    // Each step's local error is now the estimate itself (~tolerance), not the much smaller error of
    // the fifth-order solution: the global error after ~140 steps is a few hundred tolerances.
    CLUMPLAB_VERIFY_LESS(error, 2000.0 * s.relativeTolerance);
    QVERIFY(error > 1.0 * s.relativeTolerance);
  }

  // Below dt_min steps are accepted whatever the error: no step shorter than dt_min (but the clipped
  // last one), and with an unreachable tolerance the forced steps are counted.
  void minimumStepHonoured() {
    Kepler ode;
    OdeState y = keplerStart();
    RkfSettings s;
    s.relativeTolerance = 1e-14;
    s.minStep = kPeriod / 300.0;
    RungeKuttaWorkspace work;
    const RkfStats stats = integrateRkf45(ode, 0.0, kPeriod, y, s, work);
    qInfo("dt_min %.4g: smallest %.4g, %zu accepted (%zu forced), %zu rejected", s.minStep,
          stats.smallestStep, stats.accepted, stats.forced, stats.rejected);
    QVERIFY(stats.finished);
    QVERIFY(stats.smallestStep >= s.minStep);
    QVERIFY(stats.forced > 0);
    QVERIFY(stats.accepted <= 301);
    // Without the floor the same tolerance takes many more steps.
    Kepler free;
    OdeState y2 = keplerStart();
    s.minStep = 0.0;
    const RkfStats unlimited = integrateRkf45(free, 0.0, kPeriod, y2, s, work);
    QVERIFY(unlimited.accepted > 2 * stats.accepted);
    QCOMPARE(unlimited.forced, std::size_t{0});
  }

  void maximumStepHonoured() {
    Kepler ode;
    OdeState y = keplerStart();
    RkfSettings s;
    s.relativeTolerance = 1e-3;
    s.maxStep = 0.01;
    RungeKuttaWorkspace work;
    const RkfStats stats = integrateRkf45(ode, 0.0, kPeriod, y, s, work);
    QVERIFY(stats.largestStep <= s.maxStep);
    QVERIFY(stats.accepted >= static_cast<std::size_t>(kPeriod / s.maxStep));
  }

  // A cancel flag set (here by the integration itself, after 1000 accepted steps, as another thread
  // would) stops it within kRkfCancelCheckEvery steps, not finished and short of the target; one set
  // before the start stops it before the first step. 10^6 steps would otherwise be taken.
  void cancelStopsTheIntegration() {
    std::atomic<bool> cancel{false};
    Kepler ode;
    OdeState y = keplerStart();
    RkfSettings s;
    s.relativeTolerance = 1e-3;
    s.maxStep = kPeriod * 1e-6;
    s.cancel = &cancel;
    s.onAcceptedStep = [&, accepted = std::size_t{0}](double, const OdeState&) mutable {
      if (++accepted == 1000) cancel = true;
    };
    RungeKuttaWorkspace work;
    const RkfStats stats = integrateRkf45(ode, 0.0, kPeriod, y, s, work);
    QVERIFY(!stats.finished);
    QVERIFY2(stats.accepted >= 1000 && stats.accepted + stats.rejected <= 1000 + kRkfCancelCheckEvery,
             qPrintable(QStringLiteral("%1 accepted, %2 rejected").arg(stats.accepted).arg(stats.rejected)));
    QVERIFY(ode.latest < 0.01 * kPeriod);

    OdeState again = keplerStart();
    Kepler fresh;
    s.onAcceptedStep = nullptr;
    const RkfStats none = integrateRkf45(fresh, 0.0, kPeriod, again, s, work);
    QVERIFY(!none.finished);
    QCOMPARE(none.accepted + none.rejected, std::size_t{0});
    QVERIFY(again == keplerStart());
  }

  // Both integrators land exactly on the target and never evaluate beyond it: y' = 1 gives y = t1.
  void targetTimeHitExactly() {
    const double t0 = 0.125, t1 = 0.7316;
    std::size_t calls = 0;
    double latest = 0.0;
    FunctionOde clock([&](double t, const OdeState& y, OdeState& dydt) {
      ++calls;
      latest = std::max(latest, t);
      dydt = OdeState::Ones(y.size());
    });
    RungeKuttaWorkspace work;
    OdeState y = OdeState::Constant(1, t0);
    RkfSettings s;
    s.maxStep = 0.1;  // forces several steps and a clipped last one
    const RkfStats stats = integrateRkf45(clock, t0, t1, y, s, work);
    QVERIFY(stats.finished);
    QCOMPARE(y[0], t1);
    QVERIFY(latest <= t1);
    QCOMPARE(stats.evaluations, calls);

    calls = 0;
    latest = 0.0;
    y[0] = t0;
    const Rk4Stats rk = integrateRk4(clock, t0, t1, 0.07, y, work);
    QCOMPARE(rk.steps, std::size_t{9});  // ceil(0.6066 / 0.07)
    QCOMPARE(rk.evaluations, calls);
    QVERIFY(std::abs(y[0] - t1) <= 4e-16);
    QVERIFY(latest <= t1);
  }

  // With the paper's atol = 1e-20 a body starting at rest at the origin has no scale of its own:
  // the starting step must not treat its first motion as an infinite relative change (that gave
  // ~1e-5 s steps growing fivefold at a time). Uniform acceleration is integrated exactly, so the
  // whole interval is one accepted step: 2 evaluations to start, 5 for the step (its k1 is the
  // start's f(t0, y0)).
  void startsSensiblyFromRest() {
    FunctionOde fall([](double, const OdeState& y, OdeState& dydt) {
      dydt.resize(2);
      dydt << y[1], -9.81;
    });
    OdeState y = OdeState::Zero(2);
    RungeKuttaWorkspace work;
    const RkfStats stats = integrateRkf45(fall, 0.0, 0.5, y, RkfSettings{}, work);
    QCOMPARE(stats.accepted, std::size_t{1});
    QCOMPARE(stats.evaluations, std::size_t{7});
    QVERIFY(std::abs(y[0] + 0.5 * 9.81 * 0.25) < 1e-15);
  }

  // A step that meets the tolerance after a rejection is not followed by growth (HNW), and the
  // statistics add up: 6 evaluations per fresh step, 5 after a rejection (k1 reused), 2 to start.
  void evaluationBookkeeping() {
    Kepler ode;
    OdeState y = keplerStart();
    RkfSettings s;
    s.relativeTolerance = 1e-9;
    s.initialStep = 1.0;  // far too long: rejections first
    RungeKuttaWorkspace work;
    const RkfStats stats = integrateRkf45(ode, 0.0, kPeriod, y, s, work);
    QVERIFY(stats.rejected > 0);
    QCOMPARE(stats.evaluations, 6 * stats.accepted + 5 * stats.rejected);
    QCOMPARE(stats.evaluations, ode.calls);
  }
};

QTEST_GUILESS_MAIN(CimRungeKuttaTest)
#include "tst_cim_runge_kutta.moc"
