// The two-level broad phase (NeighborList: body pairs, then pebble pairs in template frames) against
// a search over all pebble pairs, on random polydisperse scenes: pebble radii spanning 50x, fine
// many-pebble clumps beside coarse ones, random orientations, walls of every kind and periodic axes.
// Also the Verlet guarantee (no unlisted pair touches while every pebble stays within its limit),
// the history carried over, and the same lists for any thread count. The trajectories of Worlds
// stepped with it: tst_broad_phase_trajectory.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>

#include "BroadPhaseScenes.hpp"
#include "TestSupport.hpp"
#include "core/collision/NeighborList.hpp"

Q_DECLARE_METATYPE(clumplab::Vec3)

using namespace clumplab;
using namespace clumplab::test;

class TestBroadPhase : public QObject {
  Q_OBJECT

 private slots:
  void pairsEqualBruteForce_data() {
    QTest::addColumn<int>("boundaries");
    QTest::addColumn<bool>("capsules");
    QTest::addColumn<std::uint32_t>("seed");
    QTest::addColumn<Vec3>("origin");
    // Far from the origin the broad phase's single-precision copies of positions round by up to
    // 2.6e-5 m (300 m: float spacing 3.05e-5 m), an eighth of half the skin; its limits give that up.
    const Vec3 far(300.0, -260.0, 120.0);
    for (std::uint32_t seed : {1u, 2u}) {
      const auto tag = [&](const char* name) {
        return QString("%1 seed %2, 300 m away").arg(name).arg(seed).toLatin1();
      };
      QTest::newRow(tag("box, mesh floor").constData()) << int(Boundaries::BoxWalls) << false << seed << far;
      QTest::newRow(tag("periodic xy, floor, capsules").constData())
          << int(Boundaries::PeriodicWithFloor) << true << seed << far;
    }
    for (std::uint32_t seed : {1u, 2u, 3u}) {
      const auto tag = [&](const char* name) { return QString("%1 seed %2").arg(name).arg(seed).toLatin1(); };
      QTest::newRow(tag("box, mesh floor").constData())
          << int(Boundaries::BoxWalls) << false << seed << Vec3(Vec3::Zero());
      QTest::newRow(tag("box, capsules").constData())
          << int(Boundaries::BoxWalls) << true << seed << Vec3(Vec3::Zero());
      QTest::newRow(tag("periodic xyz").constData())
          << int(Boundaries::Periodic) << false << seed << Vec3(Vec3::Zero());
      QTest::newRow(tag("periodic xy, floor, capsules").constData())
          << int(Boundaries::PeriodicWithFloor) << true << seed << Vec3(Vec3::Zero());
      QTest::newRow(tag("cavity, membrane").constData())
          << int(Boundaries::CavityAndMembrane) << false << seed << Vec3(Vec3::Zero());
    }
  }
  void pairsEqualBruteForce() {
    QFETCH(int, boundaries);
    QFETCH(bool, capsules);
    QFETCH(std::uint32_t, seed);
    QFETCH(Vec3, origin);
    TestScene s = randomScene(seed, static_cast<Boundaries>(boundaries), capsules, 60, origin);
    for (const double skin : {0.0, 2e-4, 3e-3}) {
      BuiltLists list = builtList(s, skin);
      const auto want = bruteForcePairs(s, skin);
      QVERIFY2(samePairs(list.history.pairs, want), qPrintable(firstDifference(list.history.pairs, want)));
      QVERIFY(sameWallPairs(list.history.wallPairs, bruteForceWallPairs(s, skin)));
      QVERIFY(!want.empty());
      // The same lists on two and three threads.
      for (int threads : {2, 3}) {
        ThreadPool pool(threads);
        const BuiltLists threaded = builtList(s, skin, &pool);
        QVERIFY(samePairs(threaded.history.pairs, list.history.pairs));
        QVERIFY(sameWallPairs(threaded.history.wallPairs, list.history.wallPairs));
      }
    }
  }

  // While no pebble has left its displacement limit, every touching pair is listed: random rigid
  // moves of every body (translations and turns), kept only while no pebble moved too far.
  void noUnlistedPairTouchesWithinTheLimits_data() { pairsEqualBruteForce_data(); }
  void noUnlistedPairTouchesWithinTheLimits() {
    QFETCH(int, boundaries);
    QFETCH(bool, capsules);
    QFETCH(std::uint32_t, seed);
    QFETCH(Vec3, origin);
    TestScene s = randomScene(seed, static_cast<Boundaries>(boundaries), capsules, 30, origin);
    const double skin = 4e-4;
    BuiltLists list = builtList(s, skin);
    std::mt19937 rng(seed + 100);
    int accepted = 0;
    for (int trial = 0; trial < 200 && accepted < 12; ++trial) {
      const TestScene moved = randomlyMoved(s, skin * std::pow(2.0, -(trial % 6)), true, rng);
      if (list.broadPhase.needsRebuild(moved.position)) continue;
      ++accepted;
      // Every pair within reach (skin 0) must be listed.
      const auto touching = bruteForcePairs(moved, 0.0);
      const auto& listed = list.history.pairs;
      for (const PebblePair& p : touching) {
        const bool found = std::binary_search(
            listed.begin(), listed.end(), p,
            [](const PebblePair& x, const PebblePair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
        QVERIFY2(found, qPrintable(QString("pebbles %1 and %2 touch but are not listed").arg(p.a).arg(p.b)));
      }
      for (const WallPair& w : bruteForceWallPairs(moved, 0.0)) {
        QVERIFY(std::any_of(
            list.history.wallPairs.begin(), list.history.wallPairs.end(),
            [&](const WallPair& x) { return x.pebble == w.pebble && x.wall == w.wall && x.end == w.end; }));
      }
    }
    QVERIFY2(accepted >= 8, qPrintable(QString("only %1 moves stayed within the limits").arg(accepted)));
  }

  // The body test World uses before testing pebbles one by one (bodyWithinLimits) never vouches for
  // a body one of whose pebbles moved too far, and does vouch for small moves: random rigid moves
  // from a hundredth to twice the skin. It follows its bodies when pebbles are removed or shifted.
  void bodyTestNeverVouchesForAMovedPebble_data() { pairsEqualBruteForce_data(); }
  void bodyTestNeverVouchesForAMovedPebble() {
    QFETCH(int, boundaries);
    QFETCH(bool, capsules);
    QFETCH(std::uint32_t, seed);
    QFETCH(Vec3, origin);
    TestScene s = randomScene(seed, static_cast<Boundaries>(boundaries), capsules, 40, origin);
    const double skin = 4e-4;
    BuiltLists list = builtList(s, skin);
    std::mt19937 rng(seed + 200);
    int vouched = 0, declined = 0;
    const auto check = [&](const TestScene& moved) {
      for (std::size_t b = 0; b < moved.bodyPosition.size(); ++b) {
        const std::uint32_t first = moved.bodyFirstPebble[b];
        const std::uint32_t end = b + 1 < moved.bodyPosition.size()
                                      ? moved.bodyFirstPebble[b + 1]
                                      : static_cast<std::uint32_t>(moved.position.size());
        if (!list.broadPhase.bodyWithinLimits(b, first, moved.bodyPosition[b], moved.bodyOrientation[b])) {
          ++declined;
          continue;
        }
        ++vouched;
        for (std::uint32_t i = first; i < end; ++i) {
          QVERIFY2(!list.broadPhase.movedTooFar(i, moved.position[i]),
                   qPrintable(QString("body %1 vouched for, its pebble %2 moved too far").arg(b).arg(i)));
        }
      }
    };
    for (int trial = 0; trial < 24; ++trial) {
      check(randomlyMoved(s, 2.0 * skin * std::pow(2.0, -(trial % 8)), trial % 3 != 0, rng));
    }
    QVERIFY2(vouched > 100 && declined > 100,
             qPrintable(QString("vouched %1, declined %2").arg(vouched).arg(declined)));

    // Shift body 2 by a whole (periodic) lattice vector: the body test follows it.
    const Vec3 shift(0.05, 0.0, 0.0);
    const std::uint32_t first2 = s.bodyFirstPebble[2], count2 = s.bodyFirstPebble[3] - first2;
    list.broadPhase.translatePebbles(first2, count2, shift);
    s.bodyPosition[2] += shift;
    s.place();
    QVERIFY(list.broadPhase.bodyWithinLimits(2, first2, s.bodyPosition[2], s.bodyOrientation[2]));
    // Remove body 1: later bodies keep their tests under their new indices and first pebbles.
    const std::uint32_t first1 = s.bodyFirstPebble[1], count1 = s.bodyFirstPebble[2] - first1;
    list.broadPhase.removePebbles(first1, count1);
    list.history.removePebbles(first1, count1);
    QVERIFY(list.broadPhase.bodyWithinLimits(1, first2 - count1, s.bodyPosition[2], s.bodyOrientation[2]));
    QVERIFY(!list.broadPhase.bodyWithinLimits(1, first2, s.bodyPosition[2],
                                              s.bodyOrientation[2]));  // not that body
    // Moved far: vouched for only if none of its pebbles (renumbered) moved too far.
    const Vec3 away(0.3, 0.0, 0.0);
    bool anyMoved = false;
    for (std::uint32_t i = first2; i < first2 + count2; ++i)
      anyMoved = anyMoved || list.broadPhase.movedTooFar(i - count1, s.position[i] + away);
    if (anyMoved)
      QVERIFY(!list.broadPhase.bodyWithinLimits(1, first2 - count1, s.bodyPosition[2] + away,
                                                s.bodyOrientation[2]));
  }

  // The Verlet guarantee as an invariant: for every unlisted pair, the two pebbles' displacement
  // limits add up to no more than their gap (so they cannot touch before one of them triggers a
  // rebuild), and no limit is below half the skin (less twice the rounding of the pebble's reference
  // position, far from the origin). Limits are read back through movedTooFar.
  void limitsStayWithinTheGaps_data() { pairsEqualBruteForce_data(); }
  void limitsStayWithinTheGaps() {
    QFETCH(int, boundaries);
    QFETCH(bool, capsules);
    QFETCH(std::uint32_t, seed);
    QFETCH(Vec3, origin);
    const TestScene s = randomScene(seed, static_cast<Boundaries>(boundaries), capsules, 60, origin);
    const double skin = 4e-4;
    BuiltLists list = builtList(s, skin);
    const std::size_t n = s.position.size();
    std::vector<double> limit(n);
    for (std::size_t i = 0; i < n; ++i) {
      double lo = 0.0, hi = 1.0;  // [m]
      for (int k = 0; k < 60; ++k) {
        const double mid = 0.5 * (lo + hi);
        (list.broadPhase.movedTooFar(i, s.position[i] + Vec3(mid, 0, 0)) ? hi : lo) = mid;
      }
      limit[i] = hi;
      // Half the skin, less twice the rounding of the pebble's single-precision reference position:
      // the limit gives it up once, and is measured from the rounded position, up to that far away.
      // (bounded by the sum of its components, as the broad phase bounds it)
      const double rounding = (s.position[i] - s.position[i].cast<float>().cast<double>()).cwiseAbs().sum();
      QVERIFY2(limit[i] >= 0.499 * skin - 2.0 * rounding,
               qPrintable(QString("pebble %1: limit %2, rounding %3").arg(i).arg(limit[i]).arg(rounding)));
    }
    const auto listed = list.history.pairs;
    const auto less = [](const PebblePair& x, const PebblePair& y) {
      return x.a != y.a ? x.a < y.a : x.b < y.b;
    };
    std::size_t checked = 0;
    double tightest = std::numeric_limits<double>::infinity();  // smallest gap / (sum of limits)
    for (const PebblePair& p : bruteForcePairs(s, 8 * skin)) {
      if (std::binary_search(listed.begin(), listed.end(), p, less)) continue;
      Vec3 d = s.position[p.b] - s.position[p.a];
      if (s.box.any()) d = s.box.minimumImage(d);
      const double gap = d.norm() - s.reach(p.a) - s.reach(p.b);
      QVERIFY2(limit[p.a] + limit[p.b] <= gap, qPrintable(QString("pebbles %1, %2: limits %3 + %4 > gap %5")
                                                              .arg(p.a)
                                                              .arg(p.b)
                                                              .arg(limit[p.a])
                                                              .arg(limit[p.b])
                                                              .arg(gap)));
      tightest = std::min(tightest, gap / (limit[p.a] + limit[p.b]));
      ++checked;
    }
    QVERIFY(checked > 100);
    // The limits are not needlessly small either: some unlisted pair is within 2.5x of its bound.
    QVERIFY2(tightest < 2.5, qPrintable(QString("tightest gap / limits %1").arg(tightest)));
    for (const WallPair& w : list.history.wallPairs) QVERIFY(w.pebble < n);
  }

  // A rebuild keeps the history of the pairs that stay listed and starts new pairs at zero.
  void historyIsCarriedOver() {
    TestScene s = randomScene(7, Boundaries::BoxWalls, false, 60);
    BuiltLists list = builtList(s, 5e-4);
    QVERIFY(!list.history.pairs.empty());
    for (std::size_t k = 0; k < list.history.pairs.size(); ++k) {
      list.history.pairSprings[k] = Vec3(list.history.pairs[k].a, list.history.pairs[k].b, 1.0);
    }
    for (std::size_t k = 0; k < list.history.wallPairs.size(); ++k) {
      list.history.wallSprings[k] =
          Vec3(list.history.wallPairs[k].pebble, list.history.wallPairs[k].wall, 2.0);
    }
    const auto before = list.history.pairs;
    const auto wallsBefore = list.history.wallPairs;
    // Move one body far away: its pairs go, the others stay.
    s.bodyPosition[3] += Vec3(0, 0, 5.0);
    s.place();
    list.broadPhase.rebuild(s.input(), list.history);
    std::size_t kept = 0;
    for (std::size_t k = 0; k < list.history.pairs.size(); ++k) {
      const PebblePair p = list.history.pairs[k];
      const bool wasListed = std::any_of(before.begin(), before.end(),
                                         [&](const PebblePair& q) { return q.a == p.a && q.b == p.b; });
      QCOMPARE(list.history.pairSprings[k], wasListed ? Vec3(p.a, p.b, 1.0) : Vec3::Zero());
      kept += wasListed ? 1 : 0;
    }
    QVERIFY(kept > 0);
    for (std::size_t k = 0; k < list.history.wallPairs.size(); ++k) {
      const WallPair w = list.history.wallPairs[k];
      const bool wasListed = std::any_of(wallsBefore.begin(), wallsBefore.end(), [&](const WallPair& q) {
        return q.pebble == w.pebble && q.wall == w.wall && q.end == w.end;
      });
      QCOMPARE(list.history.wallSprings[k], wasListed ? Vec3(w.pebble, w.wall, 2.0) : Vec3::Zero());
    }
  }

  // Pairs of bodies of one pebble each take a direct path: the same pairs and the same displacement
  // limits, to the bit, as the general search gives them. Spheres of radii spanning 8x, at their
  // centres and off them, beside T-bar sized clumps, packed so that most pairs fall to every test
  // (box, pebble, pair), in a box of walls and periodic along every axis or two (centres outside it).
  void onePebbleBodiesGetTheGeneralSearchsResults_data() {
    QTest::addColumn<int>("boundaries");
    QTest::newRow("box walls") << int(Boundaries::BoxWalls);
    QTest::newRow("periodic xyz") << int(Boundaries::Periodic);
    QTest::newRow("periodic xy, floor") << int(Boundaries::PeriodicWithFloor);
  }
  void onePebbleBodiesGetTheGeneralSearchsResults() {
    QFETCH(int, boundaries);
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    TestScene s;
    const double r = 1e-3;
    for (const double radius : {0.4 * r, r, 3.2 * r})
      s.templates.push_back(randomTemplate(rng, 1, radius, false, false));
    // One pebble away from the centre of mass (a body whose mass is not where its pebble is).
    MassProperties offCentre;
    offCentre.mass = 1.0;
    offCentre.volume = 1e-9;
    offCentre.centerOfMass = Vec3(0.7 * r, -0.2 * r, 0.3 * r);
    offCentre.inertiaTensor = Mat3::Identity() * 1e-9;
    s.templates.push_back(std::make_shared<const ClumpTemplate>(
        makeTemplate("off centre", {{Vec3::Zero(), 1.5 * r}}, offCentre, "given", 1000.0)));
    s.templates.push_back(randomTemplate(rng, 10, 1.5 * r, false, false));  // T-bar sized clumps
    for (std::size_t t = 0; t + 1 < s.templates.size(); ++t)
      QCOMPARE(s.templates[t]->pebbles.size(), std::size_t(1));
    QVERIFY(s.templates[3]->pebbles[0].center.norm() > 0.5 * r);
    const double region = 0.03;
    const Vec3 lower(-region / 2, -region / 2, 0.0);
    if (static_cast<Boundaries>(boundaries) == Boundaries::BoxWalls) {
      s.walls = Wall::box(lower, lower + Vec3::Constant(region));
    } else {
      s.box.lower = lower;
      s.box.length = Vec3::Constant(region);
      s.box.periodic = {true, true, static_cast<Boundaries>(boundaries) == Boundaries::Periodic};
      if (!s.box.periodic[2]) s.walls = {Wall::plane(Vec3(0, 0, 0.002), Vec3::UnitZ())};
    }
    std::discrete_distribution<std::uint32_t> pick({6, 8, 2, 3, 1});
    for (int b = 0; b < 1500; ++b) {
      const double outside = s.box.any() ? 0.3 : 0.0;
      const auto coordinate = [&](bool periodic) {
        return periodic ? u(rng) * (1 + 2 * outside) - outside : u(rng);
      };
      s.addBody(pick(rng),
                lower + region * Vec3(coordinate(s.box.periodic[0]), coordinate(s.box.periodic[1]),
                                      coordinate(s.box.periodic[2])),
                randomOrientation(rng));
    }
    for (const double skin : {0.0, 2e-4, 3e-3}) {
      BuiltLists direct = builtList(s, skin);
      BuiltLists general;
      general.broadPhase.setSkin(skin);
      general.broadPhase.setOnePebbleShortcut(false);
      general.broadPhase.rebuild(s.input(), general.history);
      QVERIFY(samePairs(direct.history.pairs, general.history.pairs));
      QVERIFY(samePairs(direct.history.pairs, bruteForcePairs(s, skin)));
      QVERIFY(direct.history.pairs.size() > 1000);
      QCOMPARE(direct.broadPhase.bodyPairCount(), general.broadPhase.bodyPairCount());
      // Pebbles whose limit a partner's bound set, above the floor of half the skin (NeighborList.cpp).
      const double floor = 0.5 * skin * 0.999;
      std::size_t limited = 0;
      for (std::size_t i = 0; i < s.position.size(); ++i) {
        const double got = direct.broadPhase.squaredLimit(i), want = general.broadPhase.squaredLimit(i);
        QVERIFY2(got == want, qPrintable(QString("skin %1, pebble %2: limit^2 %3, general search %4")
                                             .arg(skin)
                                             .arg(i)
                                             .arg(got, 0, 'g', 17)
                                             .arg(want, 0, 'g', 17)));
        limited += got > floor * floor ? 1 : 0;
      }
      qInfo("skin %g: %zu pairs, %zu of %zu limits above the floor", skin, direct.history.pairs.size(),
            limited, s.position.size());
      QVERIFY(limited > s.position.size() / 100);
    }
  }

  // A fine clump beside a coarse one: pairs of one body are never listed, and each body pair is
  // searched once (the body level's count).
  void fineAndCoarseClumps() {
    std::mt19937 rng(5);
    TestScene s;
    s.templates = {randomTemplate(rng, 400, 1e-3, false, false), randomTemplate(rng, 2, 20e-3, false, false)};
    s.addBody(0, Vec3::Zero(), randomOrientation(rng));
    s.addBody(1, Vec3(0.02, 0, 0), randomOrientation(rng));
    s.addBody(0, Vec3(-0.01, 0.0, 0.0), randomOrientation(rng));
    BuiltLists list = builtList(s, 2e-4);
    for (const PebblePair& p : list.history.pairs) QVERIFY(s.pebbleBody[p.a] != s.pebbleBody[p.b]);
    QVERIFY(samePairs(list.history.pairs, bruteForcePairs(s, 2e-4)));
    // Body pairs: those whose world boxes (of their pebbles' reaches) come within the skin along
    // every axis.
    std::vector<Vec3> lower(3, Vec3::Constant(1e9)), upper(3, Vec3::Constant(-1e9));
    for (std::size_t i = 0; i < s.position.size(); ++i) {
      const std::uint32_t b = s.pebbleBody[i];
      lower[b] = lower[b].cwiseMin(s.position[i] - Vec3::Constant(s.reach(i)));
      upper[b] = upper[b].cwiseMax(s.position[i] + Vec3::Constant(s.reach(i)));
    }
    std::size_t bodyPairs = 0;
    for (std::size_t a = 0; a < 3; ++a) {
      for (std::size_t b = a + 1; b < 3; ++b) {
        const Vec3 separation = (lower[b] - upper[a]).cwiseMax(lower[a] - upper[b]);
        bodyPairs += separation.maxCoeff() < 2e-4 ? 1 : 0;
      }
    }
    QVERIFY(bodyPairs >= 2);
    QCOMPARE(list.broadPhase.bodyPairCount(), bodyPairs);
  }
};

QTEST_GUILESS_MAIN(TestBroadPhase)
#include "tst_broad_phase.moc"
