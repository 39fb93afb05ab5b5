// The rigid-body equations of motion of the cluster integration method (core/cim/RigidBodyOde.hpp,
// Meland et al., Cluster integration method Appendix A) under RKF45: a free asymmetric top conserves energy
// and |L|, its Dzhanibekov flips come at Landau & Lifshitz's interval (FreeRotation.hpp), lab torques reach
// the principal frame through A = R(q)^T, quaternions stay unit, and a subset of bodies packs and unpacks.
#include <QtTest>
#include <cmath>

#include "TestSupport.hpp"
#include "core/cim/RigidBodyOde.hpp"
#include "core/cim/RungeKutta.hpp"
#include "core/clump/FreeRotation.hpp"

using namespace clumplab;
using namespace clumplab::cim;

namespace {

RigidBodySet oneBody(const Vec3& position, const Vec3& velocity, const Quat& q, const Vec3& omegaBody) {
  RigidBodySet s;
  s.add({position, velocity, q, q * omegaBody});
  return s;
}

const Quat kTilted(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));

}  // namespace

class CimRigidBodyTest : public QObject {
  Q_OBJECT
 private slots:
  // Over 20 s (about 10 tumbles) E and |L| drift by at most a few hundred tolerances, and the
  // drift follows the tolerance down.
  void freeAsymmetricTopConserves() {
    const RigidBodyInertia inertia{2.0, Vec3(1.0, 2.0, 3.0)};
    double previous = 1.0;
    for (const double rtol : {1e-6, 1e-8, 1e-10}) {
      RigidBodySet s = oneBody(Vec3::Zero(), Vec3::Zero(), kTilted, Vec3(0.4, 1.0, -0.5));
      const double e0 = kineticEnergy(s, 0, inertia);
      const Vec3 l0 = spinAngularMomentum(s, 0, inertia);
      RigidBodyOde ode({inertia}, Vec3::Zero(), nullptr);
      OdeState y;
      packAll(s, y);
      RkfSettings settings;
      settings.relativeTolerance = rtol;
      RungeKuttaWorkspace work;
      double worstE = 0.0, worstL = 0.0, worstDirection = 0.0;
      for (int k = 1; k <= 40; ++k) {
        QVERIFY(integrateRkf45(ode, 0.5 * (k - 1), 0.5 * k, y, settings, work).finished);
        unpackAll(y, s);
        QVERIFY(std::abs(s.orientation[0].norm() - 1.0) < 1e-15);
        const Vec3 l = spinAngularMomentum(s, 0, inertia);
        worstE = std::max(worstE, std::abs(kineticEnergy(s, 0, inertia) / e0 - 1.0));
        worstL = std::max(worstL, std::abs(l.norm() / l0.norm() - 1.0));
        worstDirection = std::max(worstDirection, (l - l0).norm() / l0.norm());
      }
      qInfo("rtol %.0e: max |dE/E| %.3g, max |d|L|/|L|| %.3g, max |dL|/|L| (lab vector) %.3g", rtol, worstE,
            worstL, worstDirection);
      CLUMPLAB_VERIFY_LESS(worstE, 300.0 * rtol);
      CLUMPLAB_VERIFY_LESS(worstL, 300.0 * rtol);
      CLUMPLAB_VERIFY_LESS(worstDirection, 300.0 * rtol);
      CLUMPLAB_VERIFY_LESS(worstE, 0.1 * previous);
      previous = worstE;
    }
  }

  // The interval between sign changes of w_2 (body frame) against T/2 = 2 K(k) / lambda (L&L §37).
  void dzhanibekovHalfPeriod_data() {
    QTest::addColumn<double>("epsilon");
    QTest::newRow("near the separatrix") << 0.01;
    QTest::newRow("wide") << 0.3;
  }
  void dzhanibekovHalfPeriod() {
    QFETCH(double, epsilon);
    const RigidBodyInertia inertia{1.0, Vec3(1.0, 2.0, 3.0)};
    const Vec3 w0 = perturbedSpin(1, 2.0 * M_PI, epsilon);
    const FlipPrediction prediction = predictFlips(inertia.moments, w0);
    RigidBodySet s = oneBody(Vec3::Zero(), Vec3::Zero(), kTilted, w0);
    RigidBodyOde ode({inertia}, Vec3::Zero(), nullptr);
    OdeState y;
    packAll(s, y);
    RkfSettings settings;
    settings.relativeTolerance = 1e-11;
    RungeKuttaWorkspace work;
    FlipCounter flips;
    flips.add(0.0, w0[1]);
    // Samples every 1/400 of a half period, integrated exactly to each sample time: the crossings
    // are linear to within (1/400)^2 there.
    const double dt = prediction.halfPeriod / 400.0;
    for (int k = 1; k <= 400 * 6; ++k) {
      QVERIFY(integrateRkf45(ode, (k - 1) * dt, k * dt, y, settings, work).finished);
      flips.add(k * dt, y[kRigidBodyStateSize - 2]);  // w^p_2
    }
    const double measured = flips.meanInterval();
    qInfo("epsilon %.2f: %zu flips, mean interval %.9g s, L&L %.9g s, relative %.2g", epsilon, flips.count(),
          measured, prediction.halfPeriod, measured / prediction.halfPeriod - 1.0);
    QVERIFY(flips.count() >= 5);
    CLUMPLAB_COMPARE_REL(measured, prediction.halfPeriod, 1e-4);
  }

  // A sphere spinning about x under a constant lab torque along z: Euler's gyroscopic terms vanish,
  // so the lab angular velocity grows linearly, w(t) = w0 + N t / I. Had the torque gone to the
  // principal frame with A^T instead of A, it would rotate with the body. RK integrates the
  // polynomial exactly; so does the constant force with gravity.
  void labTorqueAndForce() {
    const RigidBodyInertia inertia{2.0, Vec3::Constant(0.5)};
    const Vec3 torque(0.0, 0.0, 0.3), force(0.1, -0.2, 0.4), gravity(0.0, 0.0, -9.81);
    RigidBodySet s = oneBody(Vec3(1, 2, 3), Vec3(0.5, 0, 0), kTilted, kTilted.conjugate() * Vec3(7.0, 0, 0));
    RigidBodyOde ode({inertia}, gravity,
                     [&](const RigidBodySet&, std::vector<Vec3>& f, std::vector<Vec3>& n) {
                       f[0] = force;
                       n[0] = torque;
                     });
    OdeState y;
    packAll(s, y);
    RkfSettings settings;
    settings.relativeTolerance = 1e-12;
    RungeKuttaWorkspace work;
    const double t = 2.0;
    QVERIFY(integrateRkf45(ode, 0.0, t, y, settings, work).finished);
    unpackAll(y, s);
    const Vec3 expectedOmega = Vec3(7.0, 0, 0) + torque * t / 0.5;
    const Vec3 expectedPosition = Vec3(1, 2, 3) + Vec3(0.5, 0, 0) * t + 0.5 * (force / 2.0 + gravity) * t * t;
    QVERIFY2((s.angularVelocity(0) - expectedOmega).norm() < 1e-9,
             qPrintable(QString("omega error %1").arg((s.angularVelocity(0) - expectedOmega).norm())));
    QVERIFY((s.position[0] - expectedPosition).norm() < 1e-12);
    QVERIFY((s.velocity[0] - Vec3(0.5, 0, 0) - (force / 2.0 + gravity) * t).norm() < 1e-12);
  }

  // q' = 1/2 q (x) (0, w^p) (the paper's matrix) agrees with the derivative of q exp(w^p t / 2).
  void quaternionRateMatchesExponential() {
    const Quat q = kTilted;
    const Vec3 w(0.3, -1.1, 2.0);
    const double h = 1e-6;
    const Quat ahead = q * rotationFromVector(h * w), behind = q * rotationFromVector(-h * w);
    const Eigen::Vector4d numeric = (Eigen::Vector4d(ahead.w(), ahead.x(), ahead.y(), ahead.z()) -
                                     Eigen::Vector4d(behind.w(), behind.x(), behind.y(), behind.z())) /
                                    (2.0 * h);
    QVERIFY((quaternionRate(q, w) - numeric).norm() < 1e-9);
  }

  void packSubset() {
    RigidBodySet s;
    for (int i = 0; i < 5; ++i) {
      s.add({Vec3::Constant(i), Vec3::Constant(10 + i), Quat(Eigen::AngleAxisd(0.1 * i, Vec3::UnitY())),
             Vec3::Constant(20 + i)});
    }
    const std::vector<std::uint32_t> members = {3, 1};
    OdeState y;
    packBodies(s, members, y);
    QCOMPARE(y.size(), Eigen::Index{2 * kRigidBodyStateSize});
    QCOMPARE(y[0], 3.0);
    QCOMPARE(y[kRigidBodyStateSize + 3], 11.0);
    y[0] = -1.0;
    y[kRigidBodyStateSize] = -2.0;
    unpackBodies(y, members, s);
    QCOMPARE(s.position[3].x(), -1.0);
    QCOMPARE(s.position[1].x(), -2.0);
    QCOMPARE(s.position[2].x(), 2.0);
    QVERIFY((s.angularVelocity(3) - Vec3::Constant(23)).norm() < 1e-12);
  }
};

QTEST_GUILESS_MAIN(CimRigidBodyTest)
#include "tst_cim_rigid_body.moc"
