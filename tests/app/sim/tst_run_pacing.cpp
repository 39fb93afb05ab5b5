// RunPacing: the simulated time a real-time run aims for, the re-sync after a backlog, the speed
// measured over its window. Wall times are made up here (steady_clock points built by hand), so
// nothing depends on how fast the machine is.
#include <QtTest>
#include <chrono>

#include "sim/RunPacing.hpp"

using namespace clumplab::sim;
using Clock = RunPacing::Clock;

namespace {
Clock::time_point at(double seconds) {
  return Clock::time_point{} +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}
}  // namespace

class TestRunPacing : public QObject {
  Q_OBJECT
 private slots:
  void targetFollowsWallClockTimesSpeed() {
    RunPacing pacing;
    pacing.setSpeed(0.5, false);
    pacing.restart(at(10.0), 2.0);
    // 40 ms of wall time at half speed: 20 ms of simulated time, 1 ms steps, the world on time.
    QCOMPARE(pacing.realTimeTarget(at(10.04), 2.0, 1e-3), 2.0 + 0.04 * 0.5);
    QCOMPARE(pacing.realTimeTarget(at(10.06), 2.02, 1e-3), 2.0 + 0.06 * 0.5);
  }

  void aBacklogIsDroppedNotRacedAfter() {
    RunPacing pacing;
    pacing.setSpeed(1.0, false);
    pacing.restart(at(0.0), 0.0);
    // A second of wall time passed with the world stuck at 0.3 s: 0.7 s behind, more than
    // kMaxLagSeconds. The target is one frame ahead of where the world is, and the anchor moves.
    const double dt = 1e-4;
    QCOMPARE(pacing.realTimeTarget(at(1.0), 0.3, dt), 0.3 + RunPacing::kFrameSeconds);
    QCOMPARE(pacing.realTimeTarget(at(1.01), 0.3 + RunPacing::kFrameSeconds, dt), 0.3 + 0.01);
  }

  void aSlowSpeedWaitsForAWholeStep() {
    // At speed 1e-3 with 10 ms steps a step spans ten seconds of wall time: no re-sync before two
    // steps are due, and the target is never less than one step ahead after a re-sync.
    RunPacing pacing;
    pacing.setSpeed(1e-3, false);
    pacing.restart(at(0.0), 0.0);
    const double dt = 1e-2;
    QCOMPARE(pacing.realTimeTarget(at(15.0), 0.0, dt), 15.0 * 1e-3);
    QCOMPARE(pacing.realTimeTarget(at(25.0), 0.0, dt), dt);  // 0.025 > 2 dt behind: re-synced
  }

  void speedIsClampedAndReported() {
    RunPacing pacing;
    pacing.setSpeed(7.0, false);
    QCOMPARE(pacing.stats(false).targetSpeed, 1.0);
    pacing.setSpeed(0.0, true);
    QCOMPARE(pacing.stats(false).targetSpeed, 1e-3);
    QVERIFY(pacing.asFastAsPossible());
    QVERIFY(pacing.stats(false).asFastAsPossible);
    QVERIFY(pacing.stats(true).paused);
    QVERIFY(!pacing.stats(false).paused);
    pacing.setFallingBehind(true);
    QVERIFY(pacing.stats(false).fallingBehind);
  }

  void ratesAreMeasuredOverTheWindow() {
    RunPacing pacing;
    pacing.restart(at(0.0), 0.0);
    // 1000 steps of 1 ms over 2 s of wall time: half speed, 500 steps a second. Points 0.1 s apart;
    // the window keeps the last kRateWindowSeconds.
    for (int k = 0; k <= 20; ++k) pacing.updateRates(at(0.1 * k), 0.05 * k, 50u * k, true);
    QCOMPARE(qRound(pacing.stats(false).measuredSpeed * 1e6), 500000);
    QCOMPARE(qRound(pacing.stats(false).stepsPerSecond), 500);
    // The speed changes: after a window's worth of points only the new rate is measured.
    for (int k = 21; k <= 30; ++k)
      pacing.updateRates(at(0.1 * k), 1.0 + 0.1 * (k - 20), 1000u + 100u * (k - 20), true);
    QCOMPARE(qRound(pacing.stats(false).measuredSpeed * 1e6), 1000000);
    // Paused: nothing is measured.
    pacing.updateRates(at(3.1), 2.0, 2000, false);
    QCOMPARE(pacing.stats(true).measuredSpeed, 0.0);
    QCOMPARE(pacing.stats(true).stepsPerSecond, 0.0);
  }
};

QTEST_APPLESS_MAIN(TestRunPacing)
#include "tst_run_pacing.moc"
