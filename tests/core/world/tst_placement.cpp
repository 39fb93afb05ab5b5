// Placement's overlap test (core/world/Placement.hpp), which generation asks once per candidate and
// neighbour: it looks only at the pebbles of each body that reach into the other's bounding
// sphere, and must answer exactly as the test of every pebble pair does, for spheres and
// spherocylinders, touching and not.
#include <QtTest>

#include "TestSupport.hpp"
#include "core/base/OrderedDraws.hpp"
#include "core/clump/ShaftDistance.hpp"
#include "core/world/Generation.hpp"
#include "core/world/Placement.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {
bool everyPairOverlaps(const PlacedBody& x, const PlacedBody& y) {
  for (const Pebble& p : x.shape->pebbles) {
    for (const Pebble& q : y.shape->pebbles) {
      const Vec3 pw = x.position + x.orientation * p.center, qw = y.position + y.orientation * q.center;
      const double r = p.radius + q.radius;
      const double d2 = p.isSphere() && q.isSphere()
                            ? (pw - qw).squaredNorm()
                            : closestShaftPoints(qw - pw, x.orientation * p.axis, p.halfLength,
                                                 y.orientation * q.axis, q.halfLength)
                                  .distance2;
      if (d2 < r * r) return true;
    }
  }
  return false;
}

// A long rake: a row of pebbles with a crossbar, so that most pebbles of one body are far from the
// other when the two meet at their ends.
TemplatePtr rake(bool capsules) {
  std::vector<Pebble> pebbles;
  for (int k = 0; k < 30; ++k) pebbles.push_back({Vec3(1e-3 * k, 0, 0), 0.8e-3});
  for (int k = -4; k <= 4; ++k) {
    Pebble p{Vec3(29e-3, 1e-3 * k, 0), 0.6e-3};
    if (capsules) {
      p.axis = Vec3(0, 0, 1);
      p.halfLength = 1e-3;
    }
    pebbles.push_back(p);
  }
  // Only the pebbles and the bounding radius matter to placement (spherocylinders have no pebble-sum
  // inertia to build a template from).
  ClumpTemplate t;
  t.name = "rake";
  t.mass = 1.0;
  t.principalMoments = Vec3(1, 1, 1);
  t.pebbles = pebbles;
  for (const Pebble& p : pebbles) t.boundingRadius = std::max(t.boundingRadius, p.center.norm() + p.reach());
  return std::make_shared<const ClumpTemplate>(t);
}
}  // namespace

class PlacementTest : public QObject {
  Q_OBJECT
 private slots:
  // `scale`: the second body is a copy of the first scaled by it (1/20: pebbles 20 times smaller,
  // placed next to a random pebble of the first so that both answers occur).
  void overlapAnswersAsEveryPebblePair_data() {
    QTest::addColumn<bool>("capsules");
    QTest::addColumn<double>("scale");
    QTest::newRow("spheres") << false << 1.0;
    QTest::newRow("spherocylinders") << true << 1.0;
    QTest::newRow("spheres, 20x mixed sizes") << false << 0.05;
    QTest::newRow("spherocylinders, 20x mixed sizes") << true << 0.05;
  }
  void overlapAnswersAsEveryPebblePair() {
    QFETCH(bool, capsules);
    QFETCH(double, scale);
    const TemplatePtr shape = rake(capsules);
    const TemplatePtr other =
        scale == 1.0 ? shape : std::make_shared<const ClumpTemplate>(scaledTemplate(*shape, scale));
    SplitMix64 rng(11);
    int overlapping = 0, apart = 0;
    for (int trial = 0; trial < 4000; ++trial) {
      const PlacedBody x{Vec3::Zero(), randomRotation(rng), shape.get()};
      const Vec3 direction = randomRotation(rng).toRotationMatrix().col(0);
      Vec3 at = 1.2 * shape->boundingRadius * rng.uniform() * direction;
      if (scale != 1.0) {  // near a pebble of x
        const Pebble& p = shape->pebbles[static_cast<std::size_t>(
            rng.uniform() * 0.999 * static_cast<double>(shape->pebbles.size()))];
        at = x.orientation * p.center + 1.3 * (p.reach() + other->boundingRadius) * rng.uniform() * direction;
      }
      const PlacedBody y{at, randomRotation(rng), other.get()};
      const bool expected = everyPairOverlaps(x, y);
      QCOMPARE(bodiesOverlap(x, y), expected);
      QCOMPARE(bodiesOverlap(y, x), expected);
      (expected ? overlapping : apart) += 1;
    }
    // Both answers occur often, so the comparison means something.
    QVERIFY2(overlapping > 300 && apart > 300,
             qPrintable(QString("%1 overlapping, %2 apart").arg(overlapping).arg(apart)));
  }
};

QTEST_GUILESS_MAIN(PlacementTest)
#include "tst_placement.moc"
