// The Dzhanibekov mode: the polhode geometry of the inset (L&L §37), the flips measured
// every step against T/2 = 2K(k)/lambda in the real window, the stable axes' cones, the integrator
// comparison with and without the gyroscopic term, and the live scene's gyroscopic switch.
#include <QDir>
#include <QLabel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "BuildSize.hpp"
#include "GuiTestSupport.hpp"
#include "TestPaths.hpp"
#include "core/clump/FreeRotation.hpp"
#include "gui/dzhanibekov/ComparisonWindow.hpp"
#include "gui/dzhanibekov/DzhanibekovDock.hpp"
#include "gui/dzhanibekov/EnergyEllipsoidInset.hpp"
#include "gui/dzhanibekov/Polhode.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/widgets/TimeSeriesChart.hpp"
#include "gui/window/MainWindow.hpp"

using namespace clumplab;
using namespace clumplab::gui;
using namespace clumplab::sim;
using namespace clumplab::gui::test;

Q_DECLARE_METATYPE(clumplab::Vec3)

namespace {

const QString kScene = QString(CLUMPLAB_SCENES_DIR) + QStringLiteral("/tbar-dzhanibekov.json");
constexpr double kOmega0 = 10.0;  // [rad/s]
constexpr double kEpsilon = 0.01;

// Largest relative misfit of `curves` to the sphere |L| = M (eq. 37.6) and to the energy ellipsoid
// L.I^-1.L = 2E (eq. 37.5).
double misfit(const std::vector<Curve>& curves, const Vec3& I, double m, double e) {
  double worst = 0.0;
  for (const Curve& c : curves) {
    for (const Vec3& l : c) {
      worst = std::max(worst, std::abs(l.norm() / m - 1.0));
      worst = std::max(worst, std::abs(l.cwiseQuotient(I).dot(l) / (2.0 * e) - 1.0));
    }
  }
  return worst;
}

std::size_t points(const std::vector<Curve>& curves) {
  std::size_t n = 0;
  for (const Curve& c : curves) n += c.size();
  return n;
}

// Opens the T-bar scene paused and the panel on its body; "" or what went wrong.
QString openTbar(MainWindow& w) {
  w.setRunning(false);
  if (QString error = w.openDocument(kScene, true); !error.isEmpty()) return error;
  if (!waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 1; }))
    return QStringLiteral("no frame of the T-bar scene");
  w.openDzhanibekovPanel(0);
  return QString();
}

// Applies the spin and waits until a frame shows the watch it started.
bool applyAndWait(MainWindow& w, int axis) {
  DzhanibekovDock& dock = *w.dzhanibekovDock();
  dock.setInitialSpin(axis, kOmega0, kEpsilon);
  dock.applySpin();
  const std::uint64_t ticket = w.simulation().commandsPosted();
  return waitForFrame(w, [&](const SimulationFrame& f) {
    return f.commandsApplied >= ticket && f.spin.active && f.spin.axis == axis;
  });
}

// Runs as fast as possible until simulated time `t` [s] and waits for the paused frame there.
bool runUntil(MainWindow& w, double t) {
  w.simulation().runUntil(t);
  return waitForFrame(
      w,
      [&](const SimulationFrame& f) { return f.stats.paused && f.snapshot.time >= t - f.snapshot.timeStep; },
      clumplab::test::wallClockMs(120000));
}

}  // namespace

class TestDzhanibekov : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QSurfaceFormat::setDefaultFormat(viewportSurfaceFormat()); }

  void init() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ClumpLabTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_dzhanibekov"));
  }

  void polhodesLieOnTheSphereAndTheEllipsoid_data() {
    QTest::addColumn<Vec3>("moments");
    QTest::addColumn<Vec3>("omega");
    const Vec3 tbar(1.0, 2.6, 3.4);
    QTest::newRow("near axis 1") << tbar << Vec3(10.0, 0.3, -0.2);
    QTest::newRow("near axis 2, circling 3") << tbar << perturbedSpin(1, 10.0, 0.01);
    QTest::newRow("near axis 2, circling 1") << tbar << Vec3(0.05, 10.0, 0.0);
    QTest::newRow("near axis 3") << tbar << perturbedSpin(2, 10.0, 0.05);
    QTest::newRow("far from every axis") << tbar << Vec3(3.0, -4.0, 5.0);
    QTest::newRow("symmetric top") << Vec3(1.0, 1.0, 2.0) << Vec3(1.0, 2.0, 3.0);
    QTest::newRow("tiny body") << Vec3(2e-12, 5e-12, 6e-12) << Vec3(0.1, 30.0, 0.2);
  }
  void polhodesLieOnTheSphereAndTheEllipsoid() {
    QFETCH(Vec3, moments);
    QFETCH(Vec3, omega);
    const double m = angularMomentumMagnitude(moments, omega);
    const double e = rotationalEnergy(moments, omega);
    const std::vector<Curve> curves = polhodeOf(moments, omega, 300);
    QCOMPARE(curves.size(), std::size_t{2});
    QCOMPARE(points(curves), std::size_t{600});
    const double worst = misfit(curves, moments, m, e);
    QVERIFY2(worst < 1e-6, qPrintable(QStringLiteral("relative misfit %1").arg(worst)));
    // The state itself lies on one of the branches (within the sampling).
    const Vec3 l = moments.cwiseProduct(omega);
    double nearest = INFINITY;
    for (const Curve& c : curves)
      for (const Vec3& p : c) nearest = std::min(nearest, (p - l).norm());
    QVERIFY2(nearest < 0.05 * m, qPrintable(QStringLiteral("state %1 M from its polhode").arg(nearest / m)));
    // So do the curves the inset draws.
    EnergyEllipsoidInset inset;
    inset.setState(moments, omega);
    QVERIFY(inset.hasState());
    QVERIFY(points(inset.currentPolhode()) > 0);
    QVERIFY(misfit(inset.currentPolhode(), moments, m, e) < 1e-6);
  }

  void separatrixRunsThroughTheIntermediateAxis() {
    const Vec3 I(1.0, 2.6, 3.4);
    const double m = 7.0;
    const std::vector<Curve> curves = separatrix(I, m, 400);
    QCOMPARE(curves.size(), std::size_t{2});
    // On the sphere and on the ellipsoid of E = M^2 / 2 I2.
    const double worst = misfit(curves, I, m, m * m / (2.0 * I[1]));
    QVERIFY2(worst < 1e-6, qPrintable(QStringLiteral("relative misfit %1").arg(worst)));
    // Each great circle passes through +axis 2 and -axis 2.
    for (const Curve& c : curves) {
      for (double sign : {1.0, -1.0}) {
        double nearest = INFINITY;
        for (const Vec3& p : c) nearest = std::min(nearest, (p - sign * m * Vec3::UnitY()).norm());
        QVERIFY2(nearest < 1e-9 * m, qPrintable(QStringLiteral("%1 M from the axis").arg(nearest / m)));
      }
    }
    // Polhodes on either side keep away from it: they circle axis 3 (L3 of one sign) or axis 1.
    for (const Curve& c : polhode(I, m, m * m / (2.0 * I[1] * 1.01))) {
      for (const Vec3& p : c) QVERIFY(std::abs(p.z()) > 1e-3 * m);
    }
    for (const Curve& c : polhode(I, m, m * m / (2.0 * I[1] * 0.99))) {
      for (const Vec3& p : c) QVERIFY(std::abs(p.x()) > 1e-3 * m);
    }
    QVERIFY(separatrix(Vec3(1.0, 1.0, 2.0), m).empty());         // a symmetric top has none
    QVERIFY(polhode(I, m, m * m / (2.0 * I[2]) * 0.9).empty());  // below the least energy for M
  }

  void predictionPerWatchedAxis() {
    const Vec3 I(1.0, 2.6, 3.4);
    const Vec3 about2 = perturbedSpin(1, 10.0, 0.01);
    QCOMPARE(predictedFlipInterval(I, about2, 1), predictFlips(I, about2).halfPeriod);
    // Near axis 2 the tip circles axis 3 (perturbation towards 3): omega_1 flips with omega_2, omega_3 never.
    QCOMPARE(predictedFlipInterval(I, about2, 0), predictFlips(I, about2).halfPeriod);
    QVERIFY(std::isinf(predictedFlipInterval(I, about2, 2)));
    QVERIFY(std::isinf(predictedFlipInterval(I, perturbedSpin(0, 10.0, 0.01), 0)));
    QVERIFY(std::isinf(predictedFlipInterval(I, perturbedSpin(2, 10.0, 0.01), 2)));
  }

  // A cube and a sphere have three equal moments (the cube's to round-off, the built-in sphere's
  // within 4e-4: its mass properties are its faceted mesh's): the margin is undefined and the panel
  // says why, where it showed 0.507 and 0.728; the T-bar's stays a number.
  void equalMomentsHaveNoMargin() {
#if CLUMPLAB_UNDER_TSAN
    // 22 s under TSan (three windows, a cube and a sphere made from their meshes): what the readout says
    // of equal moments. The panel's readout follows the running body under TSan in the cases below.
    QSKIP("a readout check (runs in the release suite); the panel's threads run under TSan below");
#endif
    QTemporaryDir dir;
    for (const char* shape : {"cube", "sphere"}) {
      const QString scene =
          QStringLiteral(R"({"format": "clumplab-scene/1", "time_step": 1e-5, "gravity": [0, 0, 0],
        "contact": {"model": "linear", "stiffness": 1e4, "restitution": 0.5, "friction": 0.3},
        "templates": {"t": {"shape": "%1", "density": 1000}},
        "bodies": [{"template": "t", "position": [0, 0, 0], "angular_velocity": [1, 2, 3]}]})")
              .arg(QLatin1String(shape));
      MainWindow w;
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      w.setRunning(false);
      QCOMPARE(w.openDocument(writeFile(dir, QStringLiteral("%1.json").arg(QLatin1String(shape)),
                                        scene.toUtf8().constData()),
                              true),
               QString());
      QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 1; }));
      w.openDzhanibekovPanel(0);
      QVERIFY(
          waitForFrame(w, [&](const SimulationFrame&) { return w.dzhanibekovDock()->readout().body == 0; }));
      QVERIFY2(std::isnan(w.dzhanibekovDock()->readout().margin), shape);
      bool said = false;
      for (const QLabel* l : w.dzhanibekovDock()->findChildren<QLabel*>())
        said = said || l->text().contains(QStringLiteral("undefined: the three moments are equal"));
      QVERIFY2(said, shape);
    }
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(openTbar(w), QString());
    QVERIFY(applyAndWait(w, 1));
    const double margin = w.dzhanibekovDock()->readout().margin;
    QVERIFY(margin > 0.0 && margin < 1.0);
  }

  void intermediateAxisFlipsAtThePredictedInterval() {
    MainWindow w;
    w.resize(1500, 920);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(openTbar(w), QString());
    QVERIFY(w.dzhanibekovDock()->isVisible());
    QCOMPARE(w.viewport()->selectedBody(), 0);
    QVERIFY(w.viewport()->options().bodyAxes && w.viewport()->options().angularMomentumArrows);
    QVERIFY(applyAndWait(w, 1));
    const double t0 = w.currentFrame()->snapshot.time;
    const DzhanibekovReadout& r = w.dzhanibekovDock()->readout();
    QVERIFY(r.watching);
    const double halfPeriod = r.predictedInterval;
    QVERIFY2(halfPeriod > 0.5 && halfPeriod < 10.0, qPrintable(QString::number(halfPeriod)));
    // The small-epsilon form is close (it converges as epsilon^2).
    QVERIFY2(std::abs(r.smallEpsilonInterval / halfPeriod - 1.0) < 0.01,
             qPrintable(QStringLiteral("%1 vs %2").arg(r.smallEpsilonInterval).arg(halfPeriod)));
    // From a maximum of omega_2 the first flip comes after T/4, then one every T/2: end half way
    // between the fifth and the sixth.
    QVERIFY(runUntil(w, t0 + 0.5 * halfPeriod + 4.5 * halfPeriod));
    const DzhanibekovReadout& after = w.dzhanibekovDock()->readout();
    QCOMPARE(after.flips, std::size_t{5});
    QVERIFY2(
        std::abs(after.measuredInterval / halfPeriod - 1.0) < 0.01,
        qPrintable(
            QStringLiteral("measured %1 s, predicted %2 s").arg(after.measuredInterval).arg(halfPeriod)));
    // omega_2 went all the way round: at right angles to axis 2's line half way through each flip,
    // the angle measured to the line (never the 180 degrees of "turned over").
    QVERIFY2(after.maxConeAngle > 0.99 * M_PI / 2 && after.maxConeAngle <= M_PI / 2 + 1e-12,
             qPrintable(QString::number(after.maxConeAngle)));
    // The view draws the polhode on the body, the plot holds omega in the body frame.
    QCOMPARE(w.viewport()->options().bodyCurves.size(), std::size_t{2});
    QVERIFY(w.viewport()->options().bodyCurves[1].points.size() > 20);
    QVERIFY(w.dzhanibekovDock()->omegaChart()->pointCount() > 2);
    saveShot(w, QStringLiteral("dzhanibekov-window.png"));
    // Closing the panel ends the measurement on the simulation thread and the polhode in the view.
    w.dzhanibekovDock()->close();
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return !f.spin.active; }));
    QVERIFY(w.viewport()->options().bodyCurves.empty());
  }

  void extremeAxesStayWithinACone_data() {
    QTest::addColumn<int>("axis");
    QTest::newRow("axis 1") << 0;
    QTest::newRow("axis 3") << 2;
  }
  void extremeAxesStayWithinACone() {
    QFETCH(int, axis);
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(openTbar(w), QString());
    QVERIFY(applyAndWait(w, axis));
    const double t0 = w.currentFrame()->snapshot.time;
    QVERIFY(std::isinf(w.dzhanibekovDock()->readout().predictedInterval));
    QVERIFY(runUntil(w, t0 + 10.0));
    const DzhanibekovReadout& r = w.dzhanibekovDock()->readout();
    QCOMPARE(r.flips, std::size_t{0});
    QVERIFY2(r.maxConeAngle < 0.05, qPrintable(QStringLiteral("cone %1 rad").arg(r.maxConeAngle)));
    QVERIFY(r.maxConeAngle >= std::atan(kEpsilon) * 0.999);  // the perturbation itself
  }

  void comparisonLosesTheFlipWithoutTheGyroscopicTerm() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(openTbar(w), QString());
    QVERIFY(applyAndWait(w, 1));
    ComparisonWindow* c = w.dzhanibekovDock()->openComparison();
    QVERIFY(c != nullptr);
    QVERIFY(QTest::qWaitForWindowExposed(c));
    c->setAsFastAsPossible();
    const double halfPeriod = c->predictedInterval();
    QVERIFY(std::isfinite(halfPeriod));
    const auto finished = [&] {
      c->refresh();
      return !c->comparison().running() && c->comparison().latest().size() == 3;
    };
    QTRY_VERIFY_WITH_TIMEOUT(finished(), clumplab::test::wallClockMs(120000));
    QCOMPARE(c->comparison().problem(), std::string());
    for (const ComparisonVariant& v : c->comparison().latest()) {
      const QString name = QString::fromLatin1(integratorName(v.integrator));
      QVERIFY2(v.spin.flips() >= 4, qPrintable(QStringLiteral("%1: %2 flips").arg(name).arg(v.spin.flips())));
      QVERIFY2(std::abs(v.spin.meanInterval() / halfPeriod - 1.0) < 0.01,
               qPrintable(QStringLiteral("%1: %2 s, predicted %3 s")
                              .arg(name)
                              .arg(v.spin.meanInterval())
                              .arg(halfPeriod)));
      QVERIFY2(std::abs(v.momentum / v.spin.startMomentum - 1.0) < 1e-3, qPrintable(name));
    }
    saveShot(*c, QStringLiteral("dzhanibekov-comparison.png"));
    c->setGyroscopic(false);
    QTRY_VERIFY_WITH_TIMEOUT(finished() && c->comparison().setup().gyroscopic == false,
                             clumplab::test::wallClockMs(120000));
    for (const ComparisonVariant& v : c->comparison().latest()) {
      QCOMPARE(v.spin.flips(), std::size_t{0});
      QVERIFY(v.time > 5.0 * halfPeriod);
      // omega stays put in the body: the cone is the perturbation's.
      QVERIFY(v.spin.maxConeAngle < 1.001 * std::atan(kEpsilon));
    }
    saveShot(*c, QStringLiteral("dzhanibekov-comparison-no-gyroscopic.png"));
    c->close();
  }

  void liveGyroscopicSwitchStopsTheFlip() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(openTbar(w), QString());
    // The panel's switch is an undoable parameter edit of the live scene.
    emit w.dzhanibekovDock()->gyroscopicToggled(false);
    QVERIFY(!w.parameters().gyroscopic);
    QVERIFY(applyAndWait(w, 1));
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return !f.parameters.gyroscopic; }));
    const double t0 = w.currentFrame()->snapshot.time;
    QVERIFY(runUntil(w, t0 + 6.0));
    QCOMPARE(w.dzhanibekovDock()->readout().flips, std::size_t{0});
    w.undoStack()->undo();
    QVERIFY(w.parameters().gyroscopic);
    QVERIFY(applyAndWait(w, 1));
    QVERIFY(runUntil(w, w.currentFrame()->snapshot.time + 6.0));
    QVERIFY(w.dzhanibekovDock()->readout().flips >= 2);
  }

 private:
  static void saveShot(QWidget& widget, const QString& name) {
    const QString shots = qEnvironmentVariable("CLUMPLAB_SHOTS_DIR");
    QTest::qWait(60);
    const QPixmap image = widget.grab();
    QVERIFY(!image.isNull());
    if (!shots.isEmpty()) QVERIFY(image.save(QDir(shots).filePath(name)));
  }
};

QTEST_MAIN(TestDzhanibekov)
#include "tst_dzhanibekov.moc"
