// Regular-grid pebble fill (MClump mode 3) and the clump's metrics against its mesh: volume error
// falling as h shrinks for a cube and a sphere, fitted pebbles that never protrude, shells, a
// target count, concave and holed shapes, and principal moments and axes of a 1 x 2 x 3 box.
#include <QtTest>
#include <atomic>
#include <cmath>
#include <numbers>

#include "BuildSize.hpp"
#include "TestSupport.hpp"
#include "shapes/ClumpQuality.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/PebbleFill.hpp"
#include "shapes/Primitives.hpp"

using namespace clumplab;
using namespace clumplab::shapes;

namespace {
MeshSolid solidOf(TriangleMesh m) {
  return MeshSolid(std::make_shared<const TriangleMesh>(std::move(m)));
}

FillSettings spacing(double h) {
  FillSettings f;
  f.spacing = h;
  return f;
}

// Data rows for the two ways of choosing the grid: a spacing, or a target count (the search).
void bySpacingAndByCount() {
  QTest::addColumn<bool>("byCount");
  QTest::newRow("spacing") << false;
  QTest::newRow("target count") << true;
}

double unionVolume(const std::vector<Pebble>& pebbles) {
  return massFromVoxels(PebbleUnion(pebbles), 1.0, 384).volume;
}
}  // namespace

class FillTest : public QObject {
  Q_OBJECT
 private slots:
  void cubeVolumeErrorFallsWithSpacing() {
    const double side = 0.01;
    const MeshSolid cube = solidOf(boxMesh(Vec3::Zero(), Vec3::Constant(side)));
    double previous = 1.0, previousFitted = 1.0;
    for (const int n : {4, 8, 16, 32}) {
      const double h = side / n;
      const FillResult r = fillMesh(cube, spacing(h));
      QCOMPARE(r.pebbles.size(), std::size_t(n * n * n));  // every cell centre is inside
      CLUMPLAB_COMPARE_REL(r.radius, 0.5 * std::sqrt(3.0) * h, 1e-15);
      const double error = unionVolume(r.pebbles) / (side * side * side) - 1.0;
      QVERIFY2(error > 0.0 && error < 0.75 * previous,
               qPrintable(QString("n %1: error %2").arg(n).arg(error)));
      previous = error;
      // Fitted: radii shrink to the distance to the surface, so the union stays inside.
      FillSettings fitted = spacing(h);
      fitted.fitted = true;
      const FillResult f = fillMesh(cube, fitted);
      const double fittedError = 1.0 - unionVolume(f.pebbles) / (side * side * side);
      QVERIFY2(fittedError > 0.0 && fittedError < previousFitted,
               qPrintable(QString("fitted %1").arg(fittedError)));
      previousFitted = fittedError;
      for (const Pebble& p : f.pebbles) QVERIFY((p.center.array() - p.radius >= -1e-15).all());
    }
    QVERIFY(previous < 0.2);
  }

  void sphereVolumeErrorFallsWithSpacing() {
    const double radius = 0.01;
    const TriangleMesh sphere = uvSphereMesh(Vec3(0.001, 0.002, 0.003), radius, 256, 128);
    const double exact = signedVolume(sphere);
    const MeshSolid solid = solidOf(sphere);
    double previous = 1.0;
    for (const int n : {6, 12, 24, 48}) {
      const FillResult r = fillMesh(solid, spacing(2.0 * radius / n));
      const double error = std::abs(unionVolume(r.pebbles) / exact - 1.0);
      QVERIFY2(error < previous,
               qPrintable(QString("n %1: error %2 after %3").arg(n).arg(error).arg(previous)));
      previous = error;
    }
    QVERIFY(previous < 0.1);
  }

  void fittedPebblesNeverProtrude() {
    const TriangleMesh torus = torusMesh(Vec3::Zero(), 0.03, 0.01, 96, 48);
    const MeshSolid solid = solidOf(torus);
    FillSettings f = spacing(0.002);
    f.fitted = true;
    const FillResult r = fillMesh(solid, f);
    QVERIFY(r.droppedSmall > 0);
    for (const Pebble& p : r.pebbles) {
      QVERIFY(p.radius >= 0.25 * 0.002 - 1e-15);
      QVERIFY(solid.contains(p.center));
    }
    const QualityResult q = compareWithMesh(r.pebbles, solid, meshMassProperties(torus, 1000.0));
    CLUMPLAB_VERIFY_LESS(q.metrics.largestProtrusion, 1e-9);
    QVERIFY(q.metrics.volumeError < 0.0);
    QVERIFY(q.metrics.largestGap > 0.0);
    // Nothing in the torus's hole.
    for (const Pebble& p : r.pebbles) QVERIFY(std::hypot(p.center.x(), p.center.y()) > 0.019);
  }

  void shellOnlyKeepsABandUnderTheSurface() {
    const MeshSolid cube = solidOf(boxMesh(Vec3::Zero(), Vec3::Constant(0.01)));
    FillSettings f = spacing(0.001);
    f.shellOnly = true;
    f.shellBand = 0.0021;
    const FillResult r = fillMesh(cube, f);
    // Centres 0.5 and 1.5 mm from a face are within the band; the 6 x 6 x 6 core is not.
    QCOMPARE(r.pebbles.size(), std::size_t(1000 - 6 * 6 * 6));
    for (const Pebble& p : r.pebbles) QVERIFY(cube.distanceToSurface(p.center) <= 0.0021);
  }

  void targetCountFindsTheSpacing() {
    const MeshSolid sphere = solidOf(uvSphereMesh(Vec3::Zero(), 0.01, 64, 32));
    FillSettings f;
    f.targetCount = 2000;
    const FillResult r = fillMesh(sphere, f);
    CLUMPLAB_COMPARE_REL(static_cast<double>(r.pebbles.size()), 2000.0, 0.03);
    QVERIFY(r.searchSteps >= 1);
  }

  // A count asked of a thin solid is met within 3% in every mode (issue 39: 200 asked of a 3 mm
  // plate gave 128 in the grid centred on its box, a whole layer too few or too many; the grid's
  // phase across the plate decides): a 40 x 30 x 3 mm plate and an L of 3 mm legs, 15 mm deep.
  void targetCountOnThinSolids_data() {
    QTest::addColumn<QString>("solid");
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("count");
    for (const char* solid : {"plate", "bracket"})
      for (const char* mode : {"circumscribed", "fitted", "shell"})
        for (const int count : {200, 1000})
          QTest::addRow("%s %s %d", solid, mode, count) << QString(solid) << QString(mode) << count;
  }
  void targetCountOnThinSolids() {
    QFETCH(QString, solid);
    QFETCH(QString, mode);
    QFETCH(int, count);
    const MeshSolid s =
        solid == "plate"
            ? solidOf(prismMesh({{0.0, 0.0}, {0.04, 0.0}, {0.04, 0.03}, {0.0, 0.03}}, 0.0, 0.003))
            : solidOf(prismMesh(
                  {{0.0, 0.0}, {0.03, 0.0}, {0.03, 0.003}, {0.003, 0.003}, {0.003, 0.02}, {0.0, 0.02}}, 0.0,
                  0.015));
    const FillSettings f = makeFillSettings(0.0, count, 0.0, mode.toStdString(), 0.0, 0.0);
    const FillResult r = fillMesh(s, f);
    qInfo("%d asked, %zu given (h = %.3g mm)", count, r.pebbles.size(), 1e3 * r.spacing);
    CLUMPLAB_COMPARE_REL(static_cast<double>(r.pebbles.size()), static_cast<double>(count), 0.03);
  }

  void boxMomentsAxesAndMargin() {
    // A 1 x 2 x 3 cm box turned off-axis: the clump's principal moments approach the box's, its axes
    // line up, and the Dzhanibekov margin (I2 - I1) / (I3 - I1) = 0.625 (moments 5, 10, 13 m/12).
    const Quat turn(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
    const TriangleMesh box = transformedMesh(boxMesh(Vec3(-0.005, -0.01, -0.015), Vec3(0.005, 0.01, 0.015)),
                                             turn, Vec3(0.1, 0.0, 0.0));
    const MeshSolid solid = solidOf(box);
    const MassProperties exact = meshMassProperties(box, 2500.0);
    FillSettings f = spacing(0.0005);
    f.fitted = true;
    const FillResult r = fillMesh(solid, f);
    const QualityResult q = compareWithMesh(r.pebbles, solid, exact);
    CLUMPLAB_COMPARE_REL(q.metrics.meshDzhanibekovMargin, 0.625, 1e-12);
    CLUMPLAB_COMPARE_REL(q.metrics.dzhanibekovMargin, 0.625, 0.03);
    CLUMPLAB_VERIFY_LESS(q.metrics.axisMisalignmentDeg, 1.0);
    CLUMPLAB_VERIFY_LESS(q.metrics.principalMomentErrors.cwiseAbs().maxCoeff(), 0.15);
    CLUMPLAB_VERIFY_LESS(std::abs(q.metrics.volumeError), 0.15);
    QVERIFY(q.metrics.largestGap < 0.001 && q.metrics.largestGap > 0.0);
  }

  void progressIsMonotoneAndReachesOne_data() { bySpacingAndByCount(); }

  void progressIsMonotoneAndReachesOne() {
    QFETCH(bool, byCount);
    const MeshSolid sphere = solidOf(uvSphereMesh(Vec3::Zero(), 0.01, 64, 32));
    FillSettings f = spacing(byCount ? 0.0 : 2e-4);
    if (byCount) f.targetCount = 2000;
    std::vector<double> reported;
    WorkProgress progress;
    progress.callback = [&](double fraction, std::string_view) { reported.push_back(fraction); };
    const FillResult r = fillMesh(sphere, f, 2'000'000'000, 0, progress);
    QVERIFY(!r.pebbles.empty());
    QVERIFY2(reported.size() >= 3, qPrintable(QString::number(reported.size())));
    for (std::size_t i = 1; i < reported.size(); ++i) {
      QVERIFY2(reported[i] >= reported[i - 1],
               qPrintable(QString("report %1: %2 after %3").arg(i).arg(reported[i]).arg(reported[i - 1])));
    }
    QVERIFY(reported.front() >= 0.0);
    QCOMPARE(reported.back(), 1.0);
    // The same fill without progress: reporting changes nothing.
    QCOMPARE(fillMesh(sphere, f).pebbles.size(), r.pebbles.size());
  }

  void aCancelFlagStopsTheFill_data() { bySpacingAndByCount(); }

  void aCancelFlagStopsTheFill() {
    QFETCH(bool, byCount);
    // A fitted fill of a sphere on a fine grid takes seconds; the flag is set from the callback at
    // the first report, and the fill must stop long before it would end.
    const MeshSolid sphere = solidOf(uvSphereMesh(Vec3::Zero(), 0.01, 64, 32));
    FillSettings f = spacing(byCount ? 0.0 : 5e-5);
    if (byCount) f.targetCount = 5'000'000;
    f.fitted = true;
    std::atomic<bool> cancel{false};
    int reports = 0;
    WorkProgress progress;
    progress.cancel = &cancel;
    progress.callback = [&](double, std::string_view) {
      ++reports;
      cancel = true;
    };
    QElapsedTimer timer;
    timer.start();
    QVERIFY_THROWS_EXCEPTION(OperationCancelled, fillMesh(sphere, f, 2'000'000'000, 0, progress));
    QCOMPARE(reports, 1);  // it stopped at the first report
    CLUMPLAB_VERIFY_LESS(static_cast<double>(timer.elapsed()), double(clumplab::test::wallClockMs(2000)));
    // A flag set before the start stops it before any work.
    QVERIFY_THROWS_EXCEPTION(OperationCancelled, fillMesh(sphere, f, 2'000'000'000, 0, {nullptr, &cancel}));
  }

  void aCancelFlagStopsTheMetricsAndSampledMassProperties() {
    const MeshSolid sphere = solidOf(uvSphereMesh(Vec3::Zero(), 0.01, 64, 32));
    const FillResult r = fillMesh(sphere, spacing(1e-3));
    const MassProperties exact = meshMassProperties(sphere.mesh(), 1.0);
    std::atomic<bool> cancel{true};
    const WorkProgress stopped{nullptr, &cancel};
    QVERIFY_THROWS_EXCEPTION(OperationCancelled, compareWithMesh(r.pebbles, sphere, exact, {}, stopped));
    QVERIFY_THROWS_EXCEPTION(OperationCancelled,
                             massFromMonteCarlo(r.pebbles, 1.0, 1'000'000, true, stopped));
    QVERIFY_THROWS_EXCEPTION(OperationCancelled, massFromVoxels(PebbleUnion(r.pebbles), 1.0, 256, stopped));
    // Not cancelled: the comparison reports monotonely up to 1, with the result it gives without.
    std::vector<double> reported;
    WorkProgress watched;
    watched.callback = [&](double fraction, std::string_view) { reported.push_back(fraction); };
    const QualityResult q = compareWithMesh(r.pebbles, sphere, exact, {}, watched);
    QVERIFY(std::is_sorted(reported.begin(), reported.end()));
    QCOMPARE(reported.back(), 1.0);
    QCOMPARE(q.metrics.clumpVolume, compareWithMesh(r.pebbles, sphere, exact).metrics.clumpVolume);
  }

  void limitsAreChecked() {
    const MeshSolid cube = solidOf(boxMesh(Vec3::Zero(), Vec3::Ones()));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fillMesh(cube, spacing(1e-4), 1000000));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fillMesh(cube, FillSettings{}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             fillMesh(solidOf(torusMesh(Vec3::Zero(), 0.03, 0.01, 32, 16)), spacing(0.1)));
  }
};

QTEST_GUILESS_MAIN(FillTest)
#include "tst_fill.moc"
