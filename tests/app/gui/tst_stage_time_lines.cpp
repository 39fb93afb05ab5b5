// The overlay's lines on where a step's time goes, from the recent stage times: the total and each
// stage per step, the span they cover, and nothing before a step has been timed.
#include <QtTest>

#include "gui/view/StageTimeLines.hpp"

using clumplab::gui::stageTimeLines;
using clumplab::sim::StageTimes;

class StageTimeLinesTest : public QObject {
  Q_OBJECT
 private slots:
  void noStepNoLine() { QVERIFY(stageTimeLines(StageTimes{}).isEmpty()); }

  void totalStagesAndSpan() {
    StageTimes t;
    t.steps = 100;
    t.windowSeconds = 1.02;
    t.stageSeconds = {1e-6, 0.3, 0.02, 0.0, 2e-6};
    t.broadPhaseBodySeconds = 0.075;
    t.broadPhasePebbleSeconds = 0.225;
    const QStringList lines = stageTimeLines(t);
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines[0], QStringLiteral("per step: 3.2e+05 µs (the last 100 steps, 1.0 s)"));
    QCOMPARE(
        lines[1],
        QStringLiteral("pebbles 1 µs · broad 3e+05 µs (body pairs 7.5e+04 µs, pebble pairs 2.25e+05 µs) · "
                       "contacts 2e+04 µs"));
    QCOMPARE(lines[2], QStringLiteral("reduce 0 µs · integrate 2 µs"));
  }
};

QTEST_GUILESS_MAIN(StageTimeLinesTest)
#include "tst_stage_time_lines.moc"
