// The edit log (app/sim/EditLog.hpp): the bodies each spawn added stay named through deletions and
// restored states, so that an undo deletes exactly them; and the cause a divergence is given: the
// edit just before it, else the step when it is above the safe one, else unknown.
#include <QtTest>

#include "sim/EditLog.hpp"

using namespace clumplab::sim;

class EditLogTest : public QObject {
  Q_OBJECT
 private slots:
  void spawnsFollowDeletionsBeforeAndInsideThem() {
    EditLog log;
    log.spawned(1, 10, 3, 0.5);  // bodies 10, 11, 12
    log.spawned(2, 13, 2, 0.6);  // bodies 13, 14
    log.bodyRemoved(4);          // before both: they shift down
    QCOMPARE(log.spawn(1)->first, std::size_t{9});
    QCOMPARE(log.spawn(2)->first, std::size_t{12});
    log.bodyRemoved(10);  // inside spawn 1 (its middle body)
    QCOMPARE(log.spawn(1)->first, std::size_t{9});
    QCOMPARE(log.spawn(1)->count, std::size_t{2});
    QCOMPARE(log.spawn(2)->first, std::size_t{11});
    log.bodyRemoved(11);
    log.bodyRemoved(11);  // both of spawn 2: it names no body any more
    QVERIFY(!log.spawn(2).has_value());
    QCOMPARE(log.spawn(1)->count, std::size_t{2});
  }

  void aRestoredStateKeepsOnlyTheBodiesItHas() {
    EditLog log;
    log.spawned(1, 5, 4, 0.0);
    log.restored(7);  // bodies 7 and 8 came after the state restored
    QCOMPARE(log.spawn(1)->count, std::size_t{2});
    log.restored(5);
    QVERIFY(!log.spawn(1).has_value());
    log.spawned(2, 5, 1, 0.0);
    log.clear();
    QVERIFY(!log.spawn(2).has_value());
  }

  void theCauseIsTheEditJustBeforeElseTheStep() {
    EditLog log;
    std::uint64_t serial = 0;
    QCOMPARE(log.cause(3.0, false, serial), DivergenceCause::Unknown);
    QCOMPARE(log.cause(3.0, true, serial), DivergenceCause::TimeStep);
    log.spawned(7, 0, 1, 2.5);
    QCOMPARE(log.cause(3.0, true, serial), DivergenceCause::SpawnedBodies);
    QCOMPARE(serial, std::uint64_t{7});
    // Longer ago than the window, the spawn is not taken as the cause.
    QCOMPARE(log.cause(2.5 + EditLog::kCauseWindowSeconds + 0.1, false, serial), DivergenceCause::Unknown);
    log.parametersChanged(2.8);
    QCOMPARE(log.cause(3.0, true, serial), DivergenceCause::ParameterEdit);
    // A spawn undone is no cause any more.
    log.spawned(8, 1, 1, 2.9);
    log.forget(8);
    QCOMPARE(log.cause(3.0, false, serial), DivergenceCause::Unknown);
  }
};

QTEST_MAIN(EditLogTest)
#include "tst_edit_log.moc"
