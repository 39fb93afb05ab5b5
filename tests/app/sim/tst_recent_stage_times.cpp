// The overlay's per-step stage times are the recent ones (issue 37, item 5): after a change of
// scale they show the new cost within about a second, not an average since the run began; a step
// back or a reset starts them afresh, and a pause keeps the last figures.
#include <QtTest>
#include <chrono>

#include "sim/RecentStageTimes.hpp"

using namespace clumplab;
using namespace clumplab::sim;
using Clock = RecentStageTimes::Clock;

namespace {

// A world's cumulative clocks, stepped at a chosen cost per step, read every frame.
struct FakeRun {
  Clock::time_point now = Clock::time_point{} + std::chrono::hours(1);
  Snapshot snapshot;
  RecentStageTimes recent;

  // `frames` frames of 10 ms, `stepsPerFrame` steps each costing `broadSeconds` in the broad
  // phase (its body level a quarter of it) and `contactSeconds` in the contacts.
  void run(int frames, int stepsPerFrame, double broadSeconds, double contactSeconds) {
    for (int f = 0; f < frames; ++f) {
      now += std::chrono::milliseconds(10);
      snapshot.steps += static_cast<std::uint64_t>(stepsPerFrame);
      snapshot.stageSeconds[1] += stepsPerFrame * broadSeconds;
      snapshot.broadPhaseBodySeconds += stepsPerFrame * 0.25 * broadSeconds;
      snapshot.broadPhasePebbleSeconds += stepsPerFrame * 0.75 * broadSeconds;
      snapshot.stageSeconds[2] += stepsPerFrame * contactSeconds;
      recent.sample(now, snapshot);
    }
  }
};

}  // namespace

class RecentStageTimesTest : public QObject {
  Q_OBJECT
 private slots:
  void showTheLastSecondAfterAChangeOfScale() {
    FakeRun r;
    r.run(1000, 60, 2e-6, 5e-6);  // ten seconds at 7 µs a step
    QCOMPARE(r.recent.perStep().stageSeconds[2], 5e-6);
    r.run(150, 1, 0.3, 0.02);  // small clumps join: 320 ms a step, for 1.5 s
    const StageTimes t = r.recent.perStep();
    QCOMPARE(t.steps, std::uint64_t{100});  // one second of them
    QCOMPARE(t.windowSeconds, 1.0);
    QCOMPARE(t.stageSeconds[1], 0.3);
    QCOMPARE(t.stageSeconds[2], 0.02);
    QCOMPARE(t.broadPhaseBodySeconds, 0.075);
    QCOMPARE(t.broadPhasePebbleSeconds, 0.225);
    QCOMPARE(t.total(), 0.32);
  }

  void aPauseKeepsTheLastFigures() {
    FakeRun r;
    r.run(200, 10, 1e-6, 3e-6);
    const StageTimes before = r.recent.perStep();
    r.run(500, 0, 0.0, 0.0);  // five seconds paused: frames without steps
    const StageTimes paused = r.recent.perStep();
    QCOMPARE(paused.steps, before.steps);
    QCOMPARE(paused.stageSeconds[2], 3e-6);
  }

  void aStepBackStartsAfresh() {
    FakeRun r;
    r.run(200, 10, 1e-6, 3e-6);
    r.snapshot.steps -= 1000;  // back to an older state: the clocks run on, the steps go back
    r.now += std::chrono::milliseconds(10);
    r.recent.sample(r.now, r.snapshot);
    QCOMPARE(r.recent.perStep().steps, std::uint64_t{0});  // no figure across the jump
    r.run(3, 10, 4e-6, 1e-6);
    QCOMPARE(r.recent.perStep().steps, std::uint64_t{30});
    QCOMPARE(r.recent.perStep().stageSeconds[1], 4e-6);
  }

  void aResetStartsAfresh() {
    FakeRun r;
    r.run(200, 10, 1e-6, 3e-6);
    r.snapshot = Snapshot{};  // a new world: clocks and steps from zero
    r.run(1, 10, 8e-6, 8e-6);
    QCOMPARE(r.recent.perStep().steps, std::uint64_t{0});
    r.run(5, 10, 8e-6, 8e-6);
    QCOMPARE(r.recent.perStep().steps, std::uint64_t{50});
    QCOMPARE(r.recent.perStep().stageSeconds[2], 8e-6);
  }
};

QTEST_GUILESS_MAIN(RecentStageTimesTest)
#include "tst_recent_stage_times.moc"
