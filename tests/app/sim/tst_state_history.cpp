// StateHistory: states taken at its interval, bounded by memory and count (oldest first), and a
// step back that, stepped forward again, reproduces the run bit for bit, through a collision.
#include <QtTest>

#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/scene/Scene.hpp"
#include "sim/StateHistory.hpp"

using namespace clumplab;
using namespace clumplab::sim;

namespace {
// Two spinning T-bars that collide head on after ~4 ms (2 us steps, Hertz contact).
std::unique_ptr<World> twoTbars() {
  return buildWorld(loadScene(std::string(CLUMPLAB_SCENES_DIR) + "/order-two-tbars.json"));
}
}  // namespace

class TestStateHistory : public QObject {
  Q_OBJECT
 private slots:
  void intervalIsTheCoarserOfStepsAndSeconds() {
    StateHistory h;
    h.setInterval(16, 1.0 / 30.0);
    QCOMPARE(h.intervalSteps(1e-3), std::uint64_t{34});  // 1/30 s is 33.3 steps: rounded up
    QCOMPARE(h.intervalSteps(1e-2), std::uint64_t{16});  // 3.3 steps: the step count rules
    h.setInterval(0, 0.0);
    QCOMPARE(h.intervalSteps(1e-3), std::uint64_t{1});
  }

  void statesAreTakenAtTheInterval() {
    auto world = twoTbars();
    StateHistory h;
    h.setInterval(100, 0.0);
    h.push(world->checkpoint());
    for (int k = 0; k < 1000; ++k) {
      test::mustStep(*world);
      h.afterStep(*world);
    }
    QCOMPARE(h.size(), std::size_t{11});  // steps 0, 100, ..., 1000
    const HistoryStats s = h.stats(world->stepCount());
    QCOMPARE(s.states, std::size_t{11});
    QVERIFY(std::abs(s.seconds - 1000 * 2e-6) < 1e-15);
    QVERIFY(s.canStepBack);
    QCOMPARE(s.bytes, h.bytes());
    QVERIFY(s.bytes >= 11 * sizeof(WorldCheckpoint));
  }

  void stepBackThenForwardGivesTheSameBits() {
    auto world = twoTbars();
    StateHistory h;
    h.setInterval(250, 0.0);
    h.push(world->checkpoint());
    // Through the collision (contacts, their tangential history) to step 3100.
    std::vector<std::uint64_t> hashes{test::stateHash(*world)};
    for (int k = 0; k < 3100; ++k) {
      test::mustStep(*world);
      h.afterStep(*world);
      hashes.push_back(test::stateHash(*world));
    }
    // Back: the newest state strictly older than the current step, then the one before it.
    for (std::uint64_t expected : {3000u, 2750u}) {
      std::optional<WorldCheckpoint> back = h.stepBack(world->stepCount());
      QVERIFY(back);
      QCOMPARE(back->stepCount(), std::uint64_t{expected});
      world->restore(*back);
      QCOMPARE(test::stateHash(*world), hashes[expected]);
    }
    // Forward again: every step lands on the bits of the first pass.
    for (std::uint64_t step = 2750; step < 3100; ++step) {
      test::mustStep(*world);
      h.afterStep(*world);
      QCOMPARE(test::stateHash(*world), hashes[step + 1]);
    }
    QCOMPARE(h.stepBack(world->stepCount())->stepCount(), std::uint64_t{3000});
  }

  void boundsDropTheOldestFirst() {
    auto world = twoTbars();
    test::mustStep(*world);  // the neighbour list built: every state from here on has the same size
    const std::size_t one = world->checkpoint().memoryBytes();
    StateHistory h;
    h.setInterval(1, 0.0);
    h.setLimits(3 * one + one / 2, 100);  // room for three states
    for (int k = 0; k < 10; ++k) {
      test::mustStep(*world);
      h.afterStep(*world);  // steps 2 to 11
    }
    QCOMPARE(h.size(), std::size_t{3});
    QCOMPARE(h.bytes(), 3 * one);
    QCOMPARE(h.stepBack(world->stepCount())->stepCount(), std::uint64_t{10});  // newest older than 11
    QCOMPARE(h.size(), std::size_t{2});  // step 11's state went: it would follow from step 10 again
    h.setLimits(100 * one, 1);           // the count bound: only the newest state stays
    QCOMPARE(h.size(), std::size_t{1});
    QCOMPARE(h.stepBack(world->stepCount())->stepCount(), std::uint64_t{10});
    QVERIFY(!h.stepBack(10));  // nothing older than step 10 is left
    // A state larger than the whole cap is not kept.
    h.clear();
    h.setLimits(one / 2, 100);
    h.push(world->checkpoint());
    QCOMPARE(h.size(), std::size_t{0});
    QCOMPARE(h.bytes(), std::size_t{0});
  }
};

QTEST_APPLESS_MAIN(TestStateHistory)
#include "tst_state_history.moc"
