// Second order (seed 001 §1 (viii)): halving dt divides the trajectory error by about 4, for every
// integrator, on a collision of two spinning T-bars (Hertz, frictionless) under gravity.
#include <QtTest>

#include "TestSupport.hpp"

using namespace clumplab;
using namespace clumplab::test;

Q_DECLARE_METATYPE(clumplab::IntegratorKind)

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
};

QTEST_GUILESS_MAIN(IntegratorOrderTest)
#include "tst_integrator_order.moc"
