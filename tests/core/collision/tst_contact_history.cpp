// ContactHistory: a copy keeps the entries that hold something, in order (what a checkpoint of the
// world's state holds); a move keeps every entry (the broad phase's own lists); removing pebbles
// renumbers the rest; forgetting zeroes the values and keeps the keys. And a world's checkpoint holds
// only the held pairs of its lists.
#include <QtTest>

#include "SceneBuilders.hpp"
#include "TestSupport.hpp"
#include "core/collision/ContactHistory.hpp"
#include "core/scene/Scene.hpp"

using namespace clumplab;

namespace {

// Pairs (0,5) (1,2) (1,7) (3,4) with springs on the first and third, Mutze's largest overlap alone
// on the fourth; wall pairs of pebbles 2 and 6 with a spring on the second.
ContactHistory sample() {
  ContactHistory h;
  h.pairs = {{0, 5}, {1, 2}, {1, 7}, {3, 4}};
  h.pairSprings = {Vec3(1e-6, 0, 0), Vec3::Zero(), Vec3(0, -2e-6, 0), Vec3::Zero()};
  h.pairStored = {300.0, 0.0, 0.0, 4e-5};
  h.wallPairs = {{2, 0, 0}, {6, 1, 1}};
  h.wallSprings = {Vec3::Zero(), Vec3(0, 0, 3e-6)};
  h.wallStored = {0.0, 500.0};
  return h;
}

}  // namespace

class TestContactHistory : public QObject {
  Q_OBJECT

 private slots:
  void copyKeepsTheHeldEntriesInOrder() {
    const ContactHistory h = sample();
    QCOMPARE(h.heldCount(), std::size_t(4));
    const ContactHistory copy =
        h;  // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
    QCOMPARE(copy.pairs.size(), std::size_t(3));
    QCOMPARE(copy.pairs[0].b, 5u);
    QCOMPARE(copy.pairs[1].b, 7u);
    QCOMPARE(copy.pairs[2].a, 3u);
    QCOMPARE(copy.pairSprings[1], Vec3(0, -2e-6, 0));
    QCOMPARE(copy.pairStored[0], 300.0);
    QCOMPARE(copy.pairStored[2], 4e-5);
    QCOMPARE(copy.pairSprings.size(), copy.pairs.size());
    QCOMPARE(copy.pairStored.size(), copy.pairs.size());
    QCOMPARE(copy.wallPairs.size(), std::size_t(1));
    QCOMPARE(copy.wallPairs[0].pebble, 6u);
    QCOMPARE(copy.wallStored[0], 500.0);
    QCOMPARE(copy.heldCount(), h.heldCount());
    QCOMPARE(copy.memoryBytes(), 3 * (sizeof(PebblePair) + sizeof(Vec3) + sizeof(double)) + sizeof(WallPair) +
                                     sizeof(Vec3) + sizeof(double));
    ContactHistory assigned;
    assigned = h;
    QCOMPARE(assigned.pairs.size(), std::size_t(3));
    ContactHistory moved = sample();
    const ContactHistory taken = std::move(moved);
    QCOMPARE(taken.pairs.size(), std::size_t(4));  // a move keeps every entry
    QCOMPARE(taken.wallPairs.size(), std::size_t(2));
  }

  void removingPebblesRenumbersTheRest() {
    ContactHistory h = sample();
    h.removePebbles(1, 2);  // pebbles 1 and 2 go; 3.. become 1..
    QCOMPARE(h.pairs.size(), std::size_t(2));
    QCOMPARE(h.pairs[0].a, 0u);
    QCOMPARE(h.pairs[0].b, 3u);
    QCOMPARE(h.pairs[1].a, 1u);
    QCOMPARE(h.pairs[1].b, 2u);
    QCOMPARE(h.pairSprings[0], Vec3(1e-6, 0, 0));
    QCOMPARE(h.pairStored[1], 4e-5);
    QCOMPARE(h.wallPairs.size(), std::size_t(1));
    QCOMPARE(h.wallPairs[0].pebble, 4u);
    QCOMPARE(h.wallSprings[0], Vec3(0, 0, 3e-6));
    h.forget();
    QCOMPARE(h.pairs.size(), std::size_t(2));
    QCOMPARE(h.heldCount(), std::size_t(0));
  }

  void aCheckpointHoldsTheHeldPairsOnly() {
    Scene scene = parseScene(test::tbarPileJson({.skin = 1.5e-3, .count = 120, .top = 0.05}), "pile.json");
    auto world = buildWorld(scene);
    for (int n = 0; n < 10000; ++n) test::mustStep(*world);
    const ContactHistory& live = world->state().contactHistory;
    const WorldCheckpoint saved = world->checkpoint();
    const ContactHistory& kept = saved.state.contactHistory;
    qInfo("%zu pairs and %zu wall pairs listed, %zu and %zu held", live.pairs.size(), live.wallPairs.size(),
          kept.pairs.size(), kept.wallPairs.size());
    QCOMPARE(kept.pairs.size() + kept.wallPairs.size(), live.heldCount());
    QVERIFY(kept.pairs.size() > 20);
    CLUMPLAB_VERIFY_LESS(static_cast<double>(10 * kept.pairs.size()), static_cast<double>(live.pairs.size()));
    // Restored, the world lists pairs afresh, and every held pair is among them with its values.
    world->restore(saved);
    const ContactHistory& relisted = world->state().contactHistory;
    QVERIFY(relisted.pairs.size() > kept.pairs.size());
    QCOMPARE(relisted.heldCount(), kept.pairs.size() + kept.wallPairs.size());
    for (std::size_t k = 0; k < kept.pairs.size(); ++k) {
      const auto at = std::lower_bound(relisted.pairs.begin(), relisted.pairs.end(), kept.pairs[k], pairLess);
      QVERIFY(at != relisted.pairs.end() && at->a == kept.pairs[k].a && at->b == kept.pairs[k].b);
      const auto i = static_cast<std::size_t>(at - relisted.pairs.begin());
      QCOMPARE(relisted.pairSprings[i], kept.pairSprings[k]);
      QCOMPARE(relisted.pairStored[i], kept.pairStored[k]);
    }
  }
};

QTEST_GUILESS_MAIN(TestContactHistory)
#include "tst_contact_history.moc"
