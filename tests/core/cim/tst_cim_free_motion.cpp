// Analytic motion of isolated bodies (core/cim/FreeMotion.hpp): free flight under gravity is exact,
// the symmetric-top closed form matches a tight RKF45 integration of Euler's equations and keeps E
// and L to round-off, and the asymmetric top (integrated, then projected) keeps E and |L| to
// round-off and its orientation to the integration tolerance.
#include <QtTest>
#include <cmath>

#include "TestSupport.hpp"
#include "core/cim/FreeMotion.hpp"
#include "core/cim/RigidBodyOde.hpp"
#include "core/cim/RungeKutta.hpp"

using namespace clumplab;
using namespace clumplab::cim;

namespace {

const Quat kTilted(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));

// Reference: Appendix A's equations for one torque-free body, RKF45 at rtol 1e-13.
void referenceRotation(const Vec3& moments, Quat& q, Vec3& omegaBody, double t) {
  RigidBodySet s;
  s.add({Vec3::Zero(), Vec3::Zero(), q, q * omegaBody});
  RigidBodyOde ode({{1.0, moments}}, Vec3::Zero(), nullptr);
  OdeState y;
  packAll(s, y);
  RkfSettings settings;
  settings.relativeTolerance = 1e-13;
  RungeKuttaWorkspace work;
  integrateRkf45(ode, 0.0, t, y, settings, work);
  unpackAll(y, s);
  q = s.orientation[0];
  omegaBody = s.bodyAngularVelocity[0];
}

double energy(const Vec3& moments, const Vec3& w) {
  return 0.5 * w.dot(moments.cwiseProduct(w));
}

}  // namespace

class CimFreeMotionTest : public QObject {
  Q_OBJECT
 private slots:
  // x + v t + g t^2 / 2 against the projectile's apex and range in closed form.
  void freeFlightExact() {
    const Vec3 g(0, 0, -9.81), v0(3.0, 0.0, 4.0);
    Vec3 x = Vec3::Zero(), v = v0;
    const double apexTime = 4.0 / 9.81;
    freeFlight(x, v, g, apexTime);
    QVERIFY(std::abs(v.z()) < 1e-15);
    QVERIFY(std::abs(x.z() - 16.0 / (2.0 * 9.81)) < 1e-15);
    freeFlight(x, v, g, apexTime);  // in two halves: same as one flight
    QVERIFY(std::abs(x.z()) < 1e-15);
    QVERIFY(std::abs(x.x() - 3.0 * 2.0 * apexTime) < 1e-14);
    QVERIFY((v - Vec3(3.0, 0.0, -4.0)).norm() < 1e-14);
  }

  void classification() {
    QCOMPARE(classifyMoments(Vec3(1, 1, 1), 1e-12).kind, FreeRotationKind::Sphere);
    QCOMPARE(classifyMoments(Vec3(2, 2, 1), 1e-12).axis, 2);
    QCOMPARE(classifyMoments(Vec3(1, 2, 2), 1e-12).axis, 0);
    QCOMPARE(classifyMoments(Vec3(3, 1, 3), 1e-12).axis, 1);
    QCOMPARE(classifyMoments(Vec3(1, 2, 3), 1e-12).kind, FreeRotationKind::AsymmetricTop);
    QCOMPARE(classifyMoments(Vec3(1, 1 + 1e-9, 3), 1e-12).kind, FreeRotationKind::AsymmetricTop);
  }

  void symmetricTopMatchesIntegration_data() {
    QTest::addColumn<Vec3>("moments");
    // A spherocylinder-like prolate top (axis 3 smallest), an oblate one, one with the odd axis 1,
    // and a sphere.
    QTest::newRow("prolate, axis 3") << Vec3(2.0, 2.0, 0.5);
    QTest::newRow("oblate, axis 3") << Vec3(3.0, 3.0, 5.0);
    QTest::newRow("odd axis 1") << Vec3(0.7, 2.0, 2.0);
    QTest::newRow("sphere") << Vec3(1.5, 1.5, 1.5);
  }
  void symmetricTopMatchesIntegration() {
    QFETCH(Vec3, moments);
    const Vec3 w0(1.3, -0.4, 2.2);
    const double t = 7.3;
    Quat q = kTilted, qRef = kTilted;
    Vec3 w = w0, wRef = w0;
    const Vec3 l0 = kTilted * moments.cwiseProduct(w0);
    QCOMPARE(rotateFreely(moments, q, w, t).evaluations, std::size_t{0});
    referenceRotation(moments, qRef, wRef, t);
    const double angle = q.angularDistance(qRef), dw = (w - wRef).norm() / w0.norm();
    const double dl = (q * moments.cwiseProduct(w) - l0).norm() / l0.norm();
    const double de = std::abs(energy(moments, w) / energy(moments, w0) - 1.0);
    qInfo("%s: orientation %.3g rad, |dw|/|w| %.3g from RKF(1e-13); |dL|/|L| %.3g, |dE/E| %.3g",
          QTest::currentDataTag(), angle, dw, dl, de);
    CLUMPLAB_VERIFY_LESS(angle, 1e-9);
    CLUMPLAB_VERIFY_LESS(dw, 1e-9);
    CLUMPLAB_VERIFY_LESS(dl, 1e-14);
    CLUMPLAB_VERIFY_LESS(de, 1e-14);
  }

  // Forward then backward returns to the start (the closed form composes exactly).
  void symmetricTopReversible() {
    const Vec3 moments(2.0, 2.0, 0.5), w0(1.3, -0.4, 2.2);
    Quat q = kTilted;
    Vec3 w = w0;
    rotateFreely(moments, q, w, 123.4);
    rotateFreely(moments, q, w, -123.4);
    QVERIFY(q.angularDistance(kTilted) < 1e-12);
    QVERIFY((w - w0).norm() < 1e-12);
  }

  void asymmetricTop() {
    const Vec3 moments(1.0, 2.0, 3.0), w0(0.4, 1.0, -0.5);
    const double t = 25.0;
    Quat q = kTilted, qRef = kTilted;
    Vec3 w = w0, wRef = w0;
    const Vec3 l0 = kTilted * moments.cwiseProduct(w0);
    const FreeRotationResult r = rotateFreely(moments, q, w, t);
    QCOMPARE(r.kind, FreeRotationKind::AsymmetricTop);
    referenceRotation(moments, qRef, wRef, t);
    const Vec3 l = q * moments.cwiseProduct(w);
    const double angle = q.angularDistance(qRef);
    const double de = std::abs(energy(moments, w) / energy(moments, w0) - 1.0);
    const double dlNorm = std::abs(l.norm() / l0.norm() - 1.0), dl = (l - l0).norm() / l0.norm();
    qInfo(
        "asymmetric: %zu evaluations; orientation %.3g rad from RKF(1e-13); |dE/E| %.3g, |d|L||/|L| %.3g, "
        "|dL|/|L| %.3g",
        r.evaluations, angle, de, dlNorm, dl);
    CLUMPLAB_VERIFY_LESS(angle, 1e-8);
    CLUMPLAB_VERIFY_LESS(de, 1e-14);
    CLUMPLAB_VERIFY_LESS(dlNorm, 1e-14);
    CLUMPLAB_VERIFY_LESS(dl, 1e-9);
    // Backwards in time too.
    rotateFreely(moments, q, w, -t);
    QVERIFY(q.angularDistance(kTilted) < 1e-8);
  }
};

QTEST_GUILESS_MAIN(CimFreeMotionTest)
#include "tst_cim_free_motion.moc"
