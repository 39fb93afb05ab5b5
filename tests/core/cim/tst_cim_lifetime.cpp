// The lifetime of a cluster list (core/cim/ClusterLifetime.hpp): the displacement time with and
// without acceleration, the spherocylinder's fastest shaft point, the bounding-radius speed, and
// the torque-free bound on |w|.
#include <QtTest>
#include <cmath>

#include "TestSupport.hpp"
#include "core/cim/ClusterLifetime.hpp"
#include "core/cim/FreeMotion.hpp"

using namespace clumplab;
using namespace clumplab::cim;

class CimLifetimeTest : public QObject {
  Q_OBJECT
 private slots:
  void displacementTimeSolvesTheQuadratic() {
    QCOMPARE(displacementTime(2.0, 0.0, 1.0), 0.5);
    QCOMPARE(displacementTime(0.0, 8.0, 1.0), 0.5);  // a t^2 / 2 = d
    const double s = 0.3, a = 9.81, d = 3e-4;
    const double t = displacementTime(s, a, d);
    QVERIFY(std::abs(s * t + 0.5 * a * t * t - d) < 1e-18);
    QVERIFY(std::isinf(displacementTime(0.0, 0.0, 1.0)));
    // The paper's form without acceleration.
    const double speeds[] = {0.1, 0.8, 0.4};
    QCOMPARE(clusterLifetime(speeds, 0.6e-3), 0.5 * 0.6e-3 / 0.8);
    QVERIFY(clusterLifetime(speeds, 0.6e-3, 9.81) < 0.5 * 0.6e-3 / 0.8);
  }

  // |v +- (l/2) w x u| at the ends, against sampling the whole shaft.
  void shaftEndSpeedIsTheFastestShaftPoint() {
    const Vec3 v(0.2, -0.1, 0.3), w(40.0, 10.0, -25.0), u = Vec3(1.0, 2.0, 2.0).normalized();
    const double l = 4e-3;
    double sampled = 0.0;
    for (int k = 0; k <= 1000; ++k) {
      const double s = -0.5 * l + l * k / 1000.0;
      sampled = std::max(sampled, (v + s * w.cross(u)).norm());
    }
    QCOMPARE(shaftEndSpeed(v, w, u, l), sampled);
    // Spin about the shaft does not move the shaft.
    QCOMPARE(shaftEndSpeed(v, 50.0 * u, u, l), v.norm());
  }

  // Every point within rho of the centre moves no faster than |v| + rho |w| (sampled).
  void boundingSpeedBoundsEveryPoint() {
    const Vec3 v(0.2, -0.1, 0.3), w(40.0, 10.0, -25.0);
    const double rho = 2e-3;
    const double bound = boundingSpeed(v, w, rho);
    double fastest = 0.0;
    for (int k = 0; k < 2000; ++k) {
      const double z = -1.0 + 2.0 * (k + 0.5) / 2000.0, phi = 2.399963 * k;  // Fibonacci sphere
      const Vec3 p =
          rho * Vec3(std::sqrt(1 - z * z) * std::cos(phi), std::sqrt(1 - z * z) * std::sin(phi), z);
      fastest = std::max(fastest, (v + w.cross(p)).norm());
    }
    QVERIFY(fastest <= bound);
    QVERIFY(fastest > 0.95 * bound);  // and the bound is not loose when w is perpendicular to v
  }

  // sqrt(w.I w / I_min) bounds |w| along a torque-free tumble.
  void angularSpeedBoundHoldsAlongAFreeTumble() {
    const Vec3 moments(1.0, 2.0, 3.0);
    Quat q = Quat::Identity();
    Vec3 w(0.1, 3.0, 0.2);  // near the intermediate axis: |w| swings widely
    const double bound = angularSpeedBound(moments, w);
    double largest = 0.0;
    for (int k = 0; k < 200; ++k) {
      rotateFreely(moments, q, w, 0.05);
      largest = std::max(largest, w.norm());
    }
    QVERIFY(largest > 1.1 * 3.0);  // it did swing up (to 3.47 rad/s at the flips)
    QVERIFY(largest <= bound);
  }
};

QTEST_GUILESS_MAIN(CimLifetimeTest)
#include "tst_cim_lifetime.moc"
