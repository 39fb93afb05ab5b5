// Spheres of varied radii fitted to a solid (shapes/SphereFit.hpp) and the Dice coefficient they are
// measured by (core/clump/SolidOverlap.hpp): the overlap of two balls against the lens volume in closed
// form; on the project's wing nut and T-handle, on a thin plate with a hole and on a long ellipsoid, the
// fill reaches its target Dice with few spheres, stays within the protrusion allowed, keeps the
// volume within 3%, asks for a count and gets it, and gives the same spheres for the same seed.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

#include "BuildSize.hpp"
#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/clump/SolidOverlap.hpp"
#include "shapes/ClumpQuality.hpp"
#include "shapes/MeshImport.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/Primitives.hpp"
#include "shapes/SphereFit.hpp"

using namespace clumplab;
using namespace clumplab::shapes;

namespace {

std::shared_ptr<const MeshSolid> meshFile(const char* name) {
  return importMesh(std::string(CLUMPLAB_MESHES_DIR) + "/" + name).solid;
}

std::shared_ptr<const MeshSolid> solidOf(TriangleMesh m) {
  return std::make_shared<const MeshSolid>(std::make_shared<const TriangleMesh>(std::move(m)));
}

// A 40 x 30 x 3 mm plate with a 12 mm hole through its middle, as two C-shaped prisms (prismMesh takes a
// simple polygon) that meet along y = 15 mm: their faces there cancel (the solid is where the winding
// number is 1, its volume the sum of theirs).
TriangleMesh plateWithHole() {
  const Eigen::Vector2d c(0.02, 0.015);
  constexpr int kSegments = 24;  // per half circle
  const auto half = [&](bool top) {
    std::vector<Eigen::Vector2d> outline =
        top ? std::vector<Eigen::Vector2d>{{0.04, 0.015}, {0.04, 0.03}, {0.0, 0.03}, {0.0, 0.015}}
            : std::vector<Eigen::Vector2d>{{0.0, 0.015}, {0.0, 0.0}, {0.04, 0.0}, {0.04, 0.015}};
    for (int s = 0; s <= kSegments; ++s) {  // round the hole, from its left (top) or right (bottom) end
      const double a = top ? std::numbers::pi * (1.0 - static_cast<double>(s) / kSegments)
                           : -std::numbers::pi * static_cast<double>(s) / kSegments;
      outline.emplace_back(c + 0.006 * Eigen::Vector2d(std::cos(a), std::sin(a)));
    }
    return prismMesh(outline, 0.0, 0.003);
  };
  TriangleMesh m = half(true);
  appendMesh(m, half(false));
  return m;
}

TriangleMesh longEllipsoid() {
  TriangleMesh m = uvSphereMesh(Vec3::Zero(), 1.0, 96, 48);
  for (Vec3& v : m.vertices) v = v.cwiseProduct(Vec3(0.03, 0.01, 0.008));
  return m;
}

struct Measured {
  double dice, volumeError, protrusion, size;
};

Measured measure(const std::vector<Pebble>& pebbles, const MeshSolid& solid) {
  const MassProperties exact = meshMassProperties(solid.mesh(), 1000.0);
  QualityOptions q;
  q.voxels = 256;
  const QualityResult r = compareWithMesh(pebbles, solid, exact, q);
  Vec3 lower, upper;
  solid.bounds(lower, upper);
  return {r.metrics.dice, r.metrics.volumeError, r.metrics.largestProtrusion, (upper - lower).maxCoeff()};
}

}  // namespace

class SphereFitTest : public QObject {
  Q_OBJECT
 private slots:
  // Two balls of radii R and r, centres d apart, share the lens pi (R + r - d)^2 (d^2 + 2 d r - 3 r^2 +
  // 2 d R + 6 r R - 3 R^2) / (12 d).
  void overlapOfTwoBallsIsTheLens() {
    const double bigR = 1.0, r = 0.6, d = 1.1;
    const std::vector<Pebble> a = {{Vec3::Zero(), bigR}},
                              b = {{Vec3(d, 0.2 * d, -0.1 * d).normalized() * d, r}};
    const PebbleUnion ballA(a), ballB(b);
    const double lens = std::numbers::pi * std::pow(bigR + r - d, 2) *
                        (d * d + 2 * d * r - 3 * r * r + 2 * d * bigR + 6 * r * bigR - 3 * bigR * bigR) /
                        (12 * d);
    const SolidOverlap o = solidOverlap(ballA, ballB, 1024);
    CLUMPLAB_COMPARE_REL(o.volumeA, 4.0 / 3.0 * std::numbers::pi, 2e-5);
    CLUMPLAB_COMPARE_REL(o.volumeB, 4.0 / 3.0 * std::numbers::pi * r * r * r, 2e-5);
    CLUMPLAB_COMPARE_REL(o.volumeBoth, lens, 2e-4);
    const SolidOverlap budget = solidOverlapWithinBudget(ballA, ballB, 1e-4);
    const double dice = 2.0 * lens / (4.0 / 3.0 * std::numbers::pi * (1.0 + r * r * r));
    QVERIFY(std::abs(budget.dice() - dice) < 1e-4);
    QVERIFY(budget.diceErrorEstimate < 1e-4);
    QCOMPARE(solidOverlap(ballA, ballA, 64).dice(), 1.0);
  }

  // The budget's rows are those of the rule drawn in full (against half the rows and a shifted grid at
  // every level), and its volumes those of that many rows, though levels where half the rows disagree
  // and the last level the row limit allows skip the shifted grid: budgets from 1e-1 to 1e-7 under
  // three limits. (The shifted grid seldom decides alone: for these solids it never did.)
  void theBudgetStopsWhereTheFullRuleStops() {
    // A ball, and a chain of small ones across it (fine detail, where grids of few rows alias).
    std::vector<Pebble> chain;
    for (int k = 0; k < 16; ++k)
      chain.push_back({Vec3(-0.9 + 0.12 * k, 0.7 - 0.09 * k, 0.05 * k - 0.4), 0.05});
    const PebbleUnion ballA(std::vector<Pebble>{{Vec3::Zero(), 1.0}}), ballB(chain);
    int shiftDecided = 0;  // levels where half the rows agreed and the shifted grid did not
    const auto fullRule = [&](double budget, int mostRows) {
      SolidOverlap previous = solidOverlap(ballA, ballB, 32);
      for (int rows = 64;; rows *= 2) {
        const SolidOverlap current = solidOverlap(ballA, ballB, rows),
                           shifted = solidOverlap(ballA, ballB, rows, 0.382);
        const double halfRows = std::abs(current.dice() - previous.dice()),
                     shift = std::abs(current.dice() - shifted.dice());
        if (halfRows < budget && shift >= budget && 2 * rows <= mostRows) ++shiftDecided;
        if (std::max(halfRows, shift) < budget || 2 * rows > mostRows) return current;
        previous = current;
      }
    };
    std::set<int> rowsSeen;
    for (int k = 4; k <= 28; ++k) {
      const double budget = std::pow(10.0, -0.25 * k);  // 1e-1 to 1e-7
      for (const int mostRows : {64, 256, 1024}) {
        const SolidOverlap full = fullRule(budget, mostRows),
                           fast = solidOverlapWithinBudget(ballA, ballB, budget, mostRows);
        QCOMPARE(fast.rowsPerSide, full.rowsPerSide);
        QCOMPARE(fast.volumeA, full.volumeA);
        QCOMPARE(fast.volumeB, full.volumeB);
        QCOMPARE(fast.volumeBoth, full.volumeBoth);
        rowsSeen.insert(fast.rowsPerSide);
      }
    }
    qInfo("the shifted grid decided %d levels", shiftDecided);
    QVERIFY(rowsSeen.size() >= 4);  // the budgets stop at several levels
  }

  // Each solid to its target Dice with at most `most` spheres: half of what CLUMP (Angelidakis et al.,
  // SoftwareX 2021), run on these meshes (tests/bench/fill/README.md), needs with its best generator to
  // first reach Dice 0.95: 208 spheres on the wing nut, 33 on the T-handle, 28 on the ellipsoid, 753 on
  // the plate. The greedy cover alone needs 75, 10, 20 and more than 1000 (Dice 0.941 there).
  void reachesTheTargetWithFewSpheres_data() {
    QTest::addColumn<QString>("solid");
    QTest::addColumn<double>("target");
    QTest::addColumn<int>("most");
    QTest::newRow("wingnut.stl") << "wingnut.stl" << 0.95 << 104;
    QTest::newRow("t-handle.stl") << "t-handle.stl" << 0.95 << 16;
    QTest::newRow("long ellipsoid") << "ellipsoid" << 0.95 << 14;
    // The slowest row (5 s optimised): in full builds only.
    if (!test::kReducedCases) QTest::newRow("plate with a hole") << "plate" << 0.95 << 376;
  }
  void reachesTheTargetWithFewSpheres() {
    QFETCH(QString, solid);
    QFETCH(double, target);
    QFETCH(int, most);
    std::shared_ptr<const MeshSolid> s;
    SphereFitResult r;
    try {
      s = solid == "plate"       ? solidOf(plateWithHole())
          : solid == "ellipsoid" ? solidOf(longEllipsoid())
                                 : meshFile(qPrintable(solid));
      SphereFitSettings settings;  // protrusion up to 2% of the size
      settings.targetDice = target;
      r = fitSpheres(*s, settings);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    const Measured m = measure(r.pebbles, *s);
    qInfo("%s: %zu spheres (%s), Dice %.4f, volume %+.2f%%, protrusion %.2f%% of the size (bound %.2f%%)",
          qPrintable(solid), r.pebbles.size(), r.stopReason.c_str(), m.dice, 100.0 * m.volumeError,
          100.0 * m.protrusion / m.size, 100.0 * r.maxProtrusion / m.size);
    QCOMPARE(r.stopReason, std::string("target Dice"));
    QVERIFY(m.dice >= target);
    QVERIFY(static_cast<int>(r.pebbles.size()) <= most);
    CLUMPLAB_VERIFY_LESS(m.protrusion, r.maxProtrusion * 1.001);
    CLUMPLAB_VERIFY_LESS(std::abs(m.volumeError), 0.03);
    // The greedy's curve, one point per sphere added; the refined prefixes in order of count, the one
    // chosen the shortest to reach the target (to the bisection's resolution, 1/128 of the greedy's count).
    QVERIFY(r.curve.size() >= r.pebbles.size());
    for (std::size_t n = 1; n < r.curve.size(); ++n) QVERIFY(r.curve[n].count == r.curve[n - 1].count + 1);
    QVERIFY(!r.refinedCurve.empty());
    const auto chosen =
        std::find_if(r.refinedCurve.begin(), r.refinedCurve.end(),
                     [&](const SphereFitPoint& p) { return p.count == static_cast<int>(r.pebbles.size()); });
    QVERIFY(chosen != r.refinedCurve.end());
    QCOMPARE(chosen->dice, r.measuredDice);
    QVERIFY(r.measuredDice >= target);
    const int resolution = std::max(1, static_cast<int>(r.curve.size()) / 128);
    for (const SphereFitPoint& p : r.refinedCurve) {
      if (p.count < chosen->count - resolution)
        QVERIFY2(p.dice < target, "a shorter prefix reached the target");
    }
  }

  // No protrusion allowed: every sphere inside the solid (its radius the distance to the surface).
  void noProtrusionStaysInside() {
    const std::shared_ptr<const MeshSolid> s = meshFile("t-handle.stl");
    SphereFitSettings settings;
    settings.maxProtrusion = 0.0;
    settings.targetDice = 0.9;
    const SphereFitResult r = fitSpheres(*s, settings);
    QVERIFY(!r.pebbles.empty());
    for (const Pebble& p : r.pebbles) {
      QVERIFY(s->contains(p.center));
      QVERIFY(p.radius <= s->distanceToSurface(p.center) * (1.0 + 1e-12));
    }
    QVERIFY(measure(r.pebbles, *s).dice >= 0.9);
  }

  // A count asked for is the count given (no Dice target), on a thick and a thin solid.
  void aCountAskedForIsGiven() {
    for (const int count : {7, 40, test::sizedForBuild(200, 60)}) {
      for (const bool plate : {false, true}) {
        const std::shared_ptr<const MeshSolid> s = plate ? solidOf(plateWithHole()) : meshFile("wingnut.stl");
        SphereFitSettings settings;
        settings.targetDice = 0.0;
        settings.maxCount = count;
        const SphereFitResult r = fitSpheres(*s, settings);
        QCOMPARE(static_cast<int>(r.pebbles.size()), count);
        QCOMPARE(r.stopReason, std::string("largest count"));
      }
    }
  }

  // The same seed gives the same spheres to the bit (whatever the threads); another seed shifts the
  // working grid and gives other spheres of the same quality. On the wing nut; on the T-handle under
  // the sanitizers (three fits of the wing nut took 42 s of the 100 there).
  void deterministicForASeed() {
    const std::shared_ptr<const MeshSolid> s =
        meshFile(test::sizedForBuild<const char*>("wingnut.stl", "t-handle.stl"));
    SphereFitSettings settings;
    const SphereFitResult a = fitSpheres(*s, settings), b = fitSpheres(*s, settings);
    QCOMPARE(a.pebbles.size(), b.pebbles.size());
    for (std::size_t n = 0; n < a.pebbles.size(); ++n) {
      QCOMPARE(a.pebbles[n].center, b.pebbles[n].center);
      QCOMPARE(a.pebbles[n].radius, b.pebbles[n].radius);
    }
    settings.seed = 7;
    const SphereFitResult c = fitSpheres(*s, settings);
    QVERIFY(c.pebbles.size() != a.pebbles.size() || c.pebbles[0].center != a.pebbles[0].center);
    QVERIFY(measure(c.pebbles, *s).dice >= 0.95);
  }

  void badSettingsAreRefused() {
    const std::shared_ptr<const MeshSolid> s = meshFile("t-handle.stl");
    SphereFitSettings settings;
    settings.targetDice = 1.5;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitSpheres(*s, settings));
    settings = {};
    settings.maxCount = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitSpheres(*s, settings));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeSphereFillSettings(10, 0.9, -1.0, 0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeSphereFillSettings(0, 0.0, std::nan(""), 0.0));
    QCOMPARE(makeSphereFillSettings(0, 0.0, -1.0, 0.0).targetDice, 0.95);
  }
};

QTEST_MAIN(SphereFitTest)
#include "tst_sphere_fit.moc"
