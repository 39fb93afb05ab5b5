// Second order (Mutze, Polyspherical grains, §1 (viii)): halving dt divides the trajectory error by about 4,
// for every integrator, on a collision of two spinning T-bars (Hertz, frictionless) under gravity, and with
// forces that depend on velocity (damping, dashpots, tangential springs).
#include <QtTest>

#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/scene/Scene.hpp"
#include "core/studies/OrderAnalysis.hpp"

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
  for (long n = 0; n < steps; ++n) test::mustStep(world);
  return {world.bodies().position, world.bodies().orientation};
}

// A ball (isotropic) under gravity with linear damping gamma = 20 1/s and angular damping
// gamma_r = 30 1/s, from v0 and w0, run to t = 0.4 s: its errors against the closed form
// x(t) = x0 + v_inf t + (v0 - v_inf)(1 - exp(-gamma t)) / gamma, v_inf = g / gamma, and a turn
// about the fixed axis w0 by |w0| (1 - exp(-gamma_r t)) / gamma_r; returns {position [m], angle [rad]}.
std::pair<double, double> dampedBallErrors(IntegratorKind kind, double dt) {
  WorldSettings s = freeSpace(kind, dt);
  const Vec3 g(0, 0, -9.81);
  s.gravity = g;
  s.linearDamping = 20.0;
  s.angularDamping = 30.0;
  World world(s, linearContact(1e3, 0.5, 0.0), {}, {templateFromPebbles({Pebble{Vec3::Zero(), 0.01}}, 2500)});
  const Vec3 v0(1, 0, 2), w0(3, 10, 20);
  world.addBody({0, Vec3::Zero(), Quat::Identity(), v0, w0});
  const long steps = std::lround(0.4 / dt);
  for (long n = 0; n < steps; ++n) test::mustStep(world);
  const double t = world.time(), gamma = 20.0, gammaRot = 30.0;
  const Vec3 vInf = g / gamma;
  const Vec3 x = vInf * t + (v0 - vInf) * (1.0 - std::exp(-gamma * t)) / gamma;
  const Quat q(Eigen::AngleAxisd(w0.norm() * (1.0 - std::exp(-gammaRot * t)) / gammaRot, w0.normalized()));
  return {(world.bodies().position[0] - x).norm(), world.bodies().orientation[0].angularDistance(q)};
}

// A scene of the order analysis (scene-file text): a dumbbell of two 8 mm spheres lying on a
// floor, pressed in, rocking and creeping, in contact all along: a linear dashpot (restitution 0.3)
// and a tangential spring with its dashpot. Friction 10 keeps the contacts sticking (a slip's onset
// is a kink in time that no integrator resolves at second order).
std::string dashpotContactScene() {
  return R"({ "format": "clumplab-scene/1", "time_step": 2e-4, "duration": 0.1, "gravity": [0, 0, -9.81],
  "contact": { "model": "linear", "stiffness": 1e4, "restitution": 0.3, "friction": 10.0,
               "tangential_damping": 0.05 },
  "walls": [ { "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1] } ],
  "templates": { "dumbbell": { "density": 2500, "inertia": "pebbles",
                               "pebbles": [[-0.01, 0, 0, 0.008], [0.01, 0, 0, 0.008]] } },
  "bodies": [ { "template": "dumbbell", "position": [0, 0, 0.00799], "velocity": [0.003, 0.001, -0.01],
                "angular_velocity": [0.5, 0.2, 1] } ] })";
}

// The same dumbbell spinning and flying through the air, damped (linear 20, angular 30 1/s): the
// angular damping acts on an asymmetric body, so the gyroscopic term is in play.
std::string dampedDumbbellScene() {
  return R"({ "format": "clumplab-scene/1", "time_step": 4e-3, "duration": 0.4, "gravity": [0, 0, -9.81],
  "damping": { "linear": 20, "angular": 30 },
  "contact": { "model": "linear", "stiffness": 1e3, "restitution": 0.5, "friction": 0.0 },
  "templates": { "dumbbell": { "density": 2500, "inertia": "pebbles",
                               "pebbles": [[0, 0, 0, 0.01], [0.015, 0, 0, 0.006]] } },
  "bodies": [ { "template": "dumbbell", "position": [0, 0, 0], "velocity": [1, 0, 2],
                "angular_velocity": [3, 10, 20] } ] })";
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
    // Mutze, Polyspherical grains, §1 (viii), (ix): four runs, steps doubling. Two spinning T-bars colliding
    // (Hertz, no friction): the trajectory distance between successive runs and the energy deviation both
    // fall as dt^2. Mutze's ten grains in their cavity with his midpoint method: the energy deviation
    // too (their trajectory distance is, as Mutze notes of long spans, a random function of the
    // step: many impacts).
    QFETCH(IntegratorKind, kind);
    Scene scene = loadScene(std::string(CLUMPLAB_SCENES_DIR) + "/order-two-tbars.json");
    scene.model.settings.integrator = kind;
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
    grains.model.settings.integrator = kind;
    OrderSettings s;
    s.timeStep = 4e-6;
    s.duration = 0.004;
    s.samples = 100;
    const OrderAnalysis g = analyzeOrder(grains, s);
    qInfo("%s, ten grains: energy orders %.3f, %.3f, %.3f (mean %.3f)", QTest::currentDataTag(),
          g.energyOrders[0], g.energyOrders[1], g.energyOrders[2], g.energyOrder);
    CLUMPLAB_VERIFY_LESS(std::abs(g.energyOrder - 2.0), 0.2);
  }

  // Second order once forces depend on velocity: global damping, dashpots, a tangential spring
  // and its dashpot. The kick-drift-kick integrators evaluated these at the half-kicked velocity
  // and were first order (position errors 6.4e-3, 3.2e-3, 1.6e-3 m at dt = 4, 2, 1 ms here); their
  // velocity predictor makes them second order (VelocityPredictor.hpp). The midpoint method's
  // springs advanced a half step ahead and made it first order with friction.
  void dampedBallMatchesItsClosedForm_data() { addIntegratorRows(); }
  void dampedBallMatchesItsClosedForm() {
    QFETCH(IntegratorKind, kind);
    std::vector<std::pair<double, double>> e;
    for (const double dt : {4e-3, 2e-3, 1e-3, 5e-4}) e.push_back(dampedBallErrors(kind, dt));
    qInfo("%s: position errors %.3g, %.3g, %.3g, %.3g m; angle errors %.3g, %.3g, %.3g, %.3g rad",
          QTest::currentDataTag(), e[0].first, e[1].first, e[2].first, e[3].first, e[0].second, e[1].second,
          e[2].second, e[3].second);
    for (std::size_t k = 0; k + 1 < e.size(); ++k) {
      const double positionOrder = std::log2(e[k].first / e[k + 1].first);
      const double angleOrder = std::log2(e[k].second / e[k + 1].second);
      QVERIFY2(positionOrder > 1.9 && positionOrder < 2.2,
               qPrintable(QString("position order %1").arg(positionOrder)));
      QVERIFY2(angleOrder > 1.9 && angleOrder < 2.2, qPrintable(QString("angle order %1").arg(angleOrder)));
    }
    CLUMPLAB_VERIFY_LESS(e[0].first, 5e-4);  // the first order schemes were 6.4e-3 m off at 4 ms
  }

  void velocityDependentForcesKeepSecondOrder_data() {
    QTest::addColumn<IntegratorKind>("kind");
    QTest::addColumn<QString>("scene");
    for (const IntegratorKind k : allIntegrators()) {
      QTest::newRow((std::string(integratorName(k)) + " damped dumbbell").c_str())
          << k << QString::fromStdString(dampedDumbbellScene());
      QTest::newRow((std::string(integratorName(k)) + " dashpot contact").c_str())
          << k << QString::fromStdString(dashpotContactScene());
    }
  }
  void velocityDependentForcesKeepSecondOrder() {
    QFETCH(IntegratorKind, kind);
    QFETCH(QString, scene);
    Scene parsed = parseScene(scene.toStdString(), "order-test.json");
    parsed.model.settings.integrator = kind;
    OrderSettings settings;
    settings.runs = 5;
    const OrderAnalysis a = analyzeOrder(parsed, settings);
    qInfo("%s: trajectory orders %.3f, %.3f, %.3f; energy orders %.3f, %.3f, %.3f, %.3f",
          QTest::currentDataTag(), a.trajectoryOrders[0], a.trajectoryOrders[1], a.trajectoryOrders[2],
          a.energyOrders[0], a.energyOrders[1], a.energyOrders[2], a.energyOrders[3]);
    for (const double order : a.trajectoryOrders) {
      QVERIFY2(order >= 1.9 && order < 2.2, qPrintable(QString("trajectory order %1").arg(order)));
    }
    CLUMPLAB_VERIFY_LESS(1.9, a.energyOrder);
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
