// Second order (seed 001 §1 (viii)): halving dt divides the trajectory error by about 4, for every
// integrator, on a collision of two spinning T-bars (Hertz, frictionless) under gravity.
#include <QtTest>

#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/OrderAnalysis.hpp"
#include "core/Scene.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {
struct Configuration {
  std::vector<Vec3> positions;
  std::vector<Quat> orientations;
};

Configuration collide(IntegratorKind kind, double dt) {
  WorldSettings s = freeSpace(kind, dt);
  s.gravity = Vec3(0, 0, -9.81);
  World world(s, frictionlessHertz(1e7), {}, {templateFromPebbles(tbarPebbles(), 2500)});
  world.addBody(
      {0, Vec3(-4e-3, 0, 0), Quat(Eigen::AngleAxisd(0.3, Vec3(0, 1, 0))), Vec3(0.5, 0, 0), Vec3(3, 20, -5)});
  world.addBody({0, Vec3(4e-3, 1e-3, 0.5e-3), Quat(Eigen::AngleAxisd(1.1, Vec3(1, 1, 0).normalized())),
                 Vec3(-0.5, 0, 0), Vec3(-10, 4, 8)});
  const long steps = std::lround(0.012 / dt);
  for (long n = 0; n < steps; ++n) world.step();
  return {world.bodies().position, world.bodies().orientation};
}

// A natural metric on configurations: position distance plus bounding radius x rotation angle.
double distance(const Configuration& a, const Configuration& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.positions.size(); ++i) {
    d += (a.positions[i] - b.positions[i]).norm() +
         5e-3 * a.orientations[i].angularDistance(b.orientations[i]);
  }
  return d;
}
}  // namespace

class IntegratorOrderTest : public QObject {
  Q_OBJECT
 private slots:
  void halvingTheStepQuartersTheError_data() {
    QTest::addColumn<IntegratorKind>("kind");
    for (IntegratorKind k : allIntegrators()) QTest::newRow(integratorName(k).data()) << k;
  }
  void halvingTheStepQuartersTheError() {
    QFETCH(IntegratorKind, kind);
    const double dt = 2e-6;
    const Configuration reference = collide(kind, dt / 32);
    const double e1 = distance(collide(kind, dt), reference);
    const double e2 = distance(collide(kind, dt / 2), reference);
    const double e4 = distance(collide(kind, dt / 4), reference);
    qInfo("%s: errors %.3g, %.3g, %.3g m; ratios %.2f, %.2f", QTest::currentDataTag(), e1, e2, e4, e1 / e2,
          e2 / e4);
    QVERIFY2(e1 > 1e-9, "the collision must actually happen and produce an error to measure");
    // Order fitted over two halvings, and each single halving close to a factor 4.
    const double order = 0.5 * std::log2(e1 / e4);
    QVERIFY2(order > 1.8 && order < 2.3, qPrintable(QString("fitted order %1").arg(order)));
    QVERIFY2(e1 / e2 > 2.5 && e1 / e2 < 6.0, qPrintable(QString("ratio %1").arg(e1 / e2)));
    QVERIFY2(e2 / e4 > 2.5 && e2 / e4 < 6.0, qPrintable(QString("ratio %1").arg(e2 / e4)));
  }

  void orderAnalysis_data() {
    QTest::addColumn<IntegratorKind>("kind");
    for (IntegratorKind k : allIntegrators()) QTest::newRow(integratorName(k).data()) << k;
  }
  void orderAnalysis() {
    // Seed 001 §1 (viii), (ix): four runs, steps doubling. Two spinning T-bars colliding (Hertz,
    // no friction): the trajectory distance between successive runs and the energy deviation both
    // fall as dt^2. Mutze's ten grains in their cavity with his midpoint method: the energy deviation
    // too (their trajectory distance is, as Mutze notes of long spans, a random function of the
    // step: many impacts).
    QFETCH(IntegratorKind, kind);
    Scene scene = loadScene(std::string(CLUMPLAB_SCENES_DIR) + "/order-two-tbars.json");
    scene.settings.integrator = kind;
    std::vector<double> reported;
    WorkProgress progress;
    progress.callback = [&](double f, std::string_view) { reported.push_back(f); };
    const OrderAnalysis a = analyzeOrder(scene, OrderSettings{}, progress);
    QCOMPARE(a.timeSteps.size(), std::size_t(4));
    QCOMPARE(a.timeSteps[3], 2.5e-7);
    QCOMPARE(a.distance.size(), std::size_t(3));
    QCOMPARE(a.energyDeviation.size(), std::size_t(4));
    QCOMPARE(a.times.size(), std::size_t(201));
    QVERIFY(std::is_sorted(reported.begin(), reported.end()) && !reported.empty() && reported.back() == 1.0);
    QVERIFY(a.distance[0].back() > 1e-9);  // the bars did collide
    qInfo(
        "%s, two T-bars: trajectory orders %.3f, %.3f (mean %.3f); energy orders %.3f, %.3f, %.3f (mean "
        "%.3f)",
        QTest::currentDataTag(), a.trajectoryOrders[0], a.trajectoryOrders[1], a.trajectoryOrder,
        a.energyOrders[0], a.energyOrders[1], a.energyOrders[2], a.energyOrder);
    CLUMPLAB_VERIFY_LESS(std::abs(a.trajectoryOrder - 2.0), 0.2);
    CLUMPLAB_VERIFY_LESS(std::abs(a.energyOrder - 2.0), 0.2);

    // Mutze's claim for his own scheme (the midpoint method) on his own example. Leapfrog and
    // splitting give 1.8 to 2.8 per doubling there over these impacts: not asserted.
    if (kind != IntegratorKind::Midpoint) return;
    Scene grains = loadScene(std::string(CLUMPLAB_SCENES_DIR) + "/ten-grains-cavity.json");
    grains.settings.integrator = kind;
    OrderSettings s;
    s.timeStep = 4e-6;
    s.duration = 0.004;
    s.samples = 100;
    const OrderAnalysis g = analyzeOrder(grains, s);
    qInfo("%s, ten grains: energy orders %.3f, %.3f, %.3f (mean %.3f)", QTest::currentDataTag(),
          g.energyOrders[0], g.energyOrders[1], g.energyOrders[2], g.energyOrder);
    CLUMPLAB_VERIFY_LESS(std::abs(g.energyOrder - 2.0), 0.2);
  }

  void orderAnalysisRefusesBadSettings() {
    const Scene scene = loadScene(std::string(CLUMPLAB_SCENES_DIR) + "/ten-grains-cavity.json");
    OrderSettings s;
    s.runs = 2;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, analyzeOrder(scene, s));
    s = {};
    s.factor = 1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, analyzeOrder(scene, s));
    s = {};
    s.duration = 1e6;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, analyzeOrder(scene, s));
    std::atomic<bool> cancel{true};
    WorkProgress progress;
    progress.cancel = &cancel;
    s = {};
    s.duration = 0.001;
    QVERIFY_THROWS_EXCEPTION(OperationCancelled, analyzeOrder(scene, s, progress));
  }
};

QTEST_GUILESS_MAIN(IntegratorOrderTest)
#include "tst_integrator_order.moc"
