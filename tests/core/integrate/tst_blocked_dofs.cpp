// Blocked degrees of freedom: under every integrator a body with blocked translations
// keeps those coordinates exactly while it turns freely, a body with two blocked rotations spins
// about the third world axis with the moment e.I.e, one with a single blocked rotation turns in the
// plane of the other two as the constrained Euler equations say (checked against an independent
// RK4 solution of them), and one with all rotations blocked keeps its orientation; what cannot work
// is refused with a message.
#include <QtTest>

#include "TestSupport.hpp"
#include "core/integrate/BlockedDofs.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

std::uint8_t mask(const char* text) {
  std::uint8_t m = 0;
  std::string problem;
  if (!parseBlockedDofs(text, m, problem)) throw std::invalid_argument(problem);
  return m;
}

const Vec3 kMoments(1e-3, 2e-3, 3e-3);  // [kg m^2]

// I_aa = e_a . R diag(I) R^T . e_a
double axisInertia(const World& w, int a) {
  const Vec3 eb = w.bodies().orientation[0].conjugate() * Vec3::Unit(a);
  return eb.dot(w.bodies().moments[0].cwiseProduct(eb));
}

// The reference for one blocked rotation about world z, torque-free: w = (wx, wy, 0) with
// P (I(q) dw/dt + w x I(q) w) = 0 (the constraint torque lies along z; L&L §38) and
// dq/dt = (0, w) q / 2, by classical RK4 at a step far below the world's.
struct ConstrainedTop {
  Quat q;
  Vec3 w;
};
Eigen::Matrix3d worldInertia(const Quat& q, const Vec3& moments) {
  const Eigen::Matrix3d r = q.toRotationMatrix();
  return r * moments.asDiagonal() * r.transpose();
}
ConstrainedTop constrainedRate(const ConstrainedTop& x, const Vec3& moments) {
  const Eigen::Matrix3d inertia = worldInertia(x.q, moments);
  const Vec3 rhs = -x.w.cross(inertia * x.w);
  const Eigen::Vector2d wDot = inertia.topLeftCorner<2, 2>().ldlt().solve(rhs.head<2>());
  const Quat spin(0.0, x.w.x(), x.w.y(), x.w.z());
  Quat qDot = spin * x.q;
  qDot.coeffs() *= 0.5;
  return {qDot, Vec3(wDot.x(), wDot.y(), 0.0)};
}
ConstrainedTop constrainedReference(ConstrainedTop x, const Vec3& moments, double duration, int steps) {
  const double h = duration / steps;
  const auto add = [](const ConstrainedTop& a, const ConstrainedTop& d, double f) {
    ConstrainedTop r = a;
    r.q.coeffs() += f * d.q.coeffs();
    r.w += f * d.w;
    return r;
  };
  for (int k = 0; k < steps; ++k) {
    const ConstrainedTop k1 = constrainedRate(x, moments);
    const ConstrainedTop k2 = constrainedRate(add(x, k1, 0.5 * h), moments);
    const ConstrainedTop k3 = constrainedRate(add(x, k2, 0.5 * h), moments);
    const ConstrainedTop k4 = constrainedRate(add(x, k3, h), moments);
    x.q.coeffs() += (h / 6.0) * (k1.q.coeffs() + 2.0 * k2.q.coeffs() + 2.0 * k3.q.coeffs() + k4.q.coeffs());
    x.w += (h / 6.0) * (k1.w + 2.0 * k2.w + 2.0 * k3.w + k4.w);
    x.q.normalize();
  }
  return x;
}

}  // namespace

class BlockedDofsTest : public QObject {
  Q_OBJECT
 private slots:
  void parsing() {
    QCOMPARE(int(mask("xyZ")), 0b100011);
    QCOMPARE(blockedDofsText(mask("ZYXzyx")), std::string("xyzXYZ"));
    std::uint8_t m = 0;
    std::string problem;
    QVERIFY(!parseBlockedDofs("xq", m, problem));
    QVERIFY2(QString::fromStdString(problem).contains("'q'"), problem.c_str());
    QVERIFY(!parseBlockedDofs("xx", m, problem));
    QVERIFY2(QString::fromStdString(problem).contains("twice"), problem.c_str());
    QCOMPARE(freeRotationAxes(mask("XZ")), 0b010u);
    QCOMPARE(freeRotationAxes(mask("xyzY")), 0b101u);
    QCOMPARE(freeRotationAxes(mask("xyz")), 0b111u);
    QCOMPARE(freeRotationAxes(mask("XYZ")), 0u);
  }

  // An asymmetric top held at its centre ("xyz") under gravity: the centre does not move by a bit,
  // and the free rotation keeps its energy and angular momentum.
  void heldInPlaceWhileSpinning_data() { addIntegratorRows(); }
  void heldInPlaceWhileSpinning() {
    QFETCH(IntegratorKind, kind);
    WorldSettings s = freeSpace(kind, 1e-4);
    s.gravity = Vec3(0, 0, -9.81);
    World world(s, frictionlessHertz(), {}, {rigidBody(0.5, kMoments)});
    BodyInit b;
    b.position = Vec3(0.1, -0.2, 0.3);
    b.velocity = Vec3(1, 2, 3);  // the blocked components are dropped
    b.angularVelocity = Vec3(1.0, 2.0, 3.0);
    b.blocked = mask("xyz");
    world.addBody(b);
    const EnergyReport e0 = world.energy();
    const Vec3 l0 = world.bodies().spinAngularMomentum(0);
    for (int k = 0; k < 20000; ++k) QVERIFY(world.step());
    const EnergyReport e = world.energy();
    const double dl = (world.bodies().spinAngularMomentum(0) - l0).norm() / l0.norm();
    const double de = std::abs(e.keRotational - e0.keRotational) / e0.keRotational;
    qInfo("%s: x = (%g, %g, %g) after 2 s; |dL|/L = %.2e, |dE|/E = %.2e, omega now (%.4f, %.4f, %.4f)",
          integratorName(kind).data(), world.bodies().position[0].x(), world.bodies().position[0].y(),
          world.bodies().position[0].z(), dl, de, world.bodies().angularVelocity[0].x(),
          world.bodies().angularVelocity[0].y(), world.bodies().angularVelocity[0].z());
    QVERIFY(world.bodies().position[0] == b.position);
    QVERIFY(world.bodies().velocity[0] == Vec3::Zero());
    QVERIFY((world.bodies().angularVelocity[0] - b.angularVelocity).norm() > 0.1);  // it tumbles
    CLUMPLAB_VERIFY_LESS(dl, 1e-6);
    CLUMPLAB_VERIFY_LESS(de, 1e-5);
  }

  // "xyzXY": a spin about world z only. A load at an offset point (its torque has every component)
  // spins it up as omega_z(t) = omega0 + T_z t / I_zz; the axis stays put and the load's work is
  // the kinetic energy gained.
  void spinAboutTheFreeAxis_data() { addIntegratorRows(); }
  void spinAboutTheFreeAxis() {
    QFETCH(IntegratorKind, kind);
    World world(freeSpace(kind, 1e-4), frictionlessHertz(), {}, {rigidBody(0.5, kMoments)});
    BodyInit b;
    b.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized()));  // not principal about z
    b.angularVelocity = Vec3(0, 0, 5);
    b.blocked = mask("xyzXY");
    world.addBody(b);
    const Vec3 force(0.3, -0.2, 0.1), arm(0.05, 0.04, -0.03);
    world.setExternalForce(0, force, arm);
    const double izz = axisInertia(world, 2);
    const double torque = arm.cross(force).z();
    const EnergyReport e0 = world.energy();
    const int steps = 10000;
    for (int k = 0; k < steps; ++k) QVERIFY(world.step());
    const double t = world.time();
    const double expected = 5.0 + torque * t / izz;
    const Vec3 w = world.bodies().angularVelocity[0];
    const Quat turn = world.bodies().orientation[0] * b.orientation.conjugate();
    const EnergyReport e = world.energy();
    const double balance = std::abs(e.total() - e.externalWork - e0.total());
    qInfo(
        "%s: omega_z %.12g (expected %.12g), omega_xy (%.2g, %.2g), turn axis off z by %.2g, I_zz %.6g "
        "unchanged to %.2g; |E - W - E0| = %.3g J of W = %.4g J",
        integratorName(kind).data(), w.z(), expected, w.x(), w.y(), turn.vec().head<2>().norm(), izz,
        std::abs(axisInertia(world, 2) - izz) / izz, balance, e.externalWork);
    QVERIFY(w.x() == 0.0 && w.y() == 0.0);
    CLUMPLAB_COMPARE_REL(w.z(), expected, 1e-12);
    CLUMPLAB_VERIFY_LESS(turn.vec().head<2>().norm(), 1e-12);
    QVERIFY(world.bodies().position[0] == b.position);
    CLUMPLAB_VERIFY_LESS(balance, 1e-9 * std::abs(e.externalWork));
  }

  // "XYZ": a T-bar falls onto a tilted plane, slides and bounces without turning.
  void rotationsFrozen_data() { addIntegratorRows(); }
  void rotationsFrozen() {
    QFETCH(IntegratorKind, kind);
    WorldSettings s = freeSpace(kind, 1e-5);
    s.gravity = Vec3(0, 0, -9.81);
    const Vec3 n = Vec3(0.3, 0, 1).normalized();
    World world(s, linearContact(1e4, 0.5, 0.2), {Wall::plane(Vec3::Zero(), n)},
                {templateFromPebbles(tbarPebbles(), 2500, "tbar")});
    BodyInit b;
    b.position = Vec3(0, 0, 0.012);
    b.orientation = Quat(Eigen::AngleAxisd(0.4, Vec3(1, 1, 0).normalized()));
    b.angularVelocity = Vec3(3, 0, 0);  // dropped: every rotation is blocked
    b.blocked = mask("XYZ");
    world.addBody(b);
    const Quat q0 = world.bodies().orientation[0];
    double worstAngle = 0.0;
    int contactSteps = 0;
    for (int k = 0; k < 20000; ++k) {
      QVERIFY(world.step());
      worstAngle = std::max(worstAngle, world.bodies().orientation[0].angularDistance(q0));
      contactSteps += world.state().wallContacts > 0;
      QVERIFY(world.bodies().angularVelocity[0] == Vec3::Zero());
    }
    qInfo("%s: %d steps in contact, slid to x = %.4g m, orientation moved by %.2g rad",
          integratorName(kind).data(), contactSteps, world.bodies().position[0].x(), worstAngle);
    QVERIFY(contactSteps > 100);
    QVERIFY(world.bodies().position[0].x() > 0.001);  // slid down the slope (tan 16.7 deg > friction 0.2)
    CLUMPLAB_VERIFY_LESS(worstAngle, 1e-15);
  }

  // "z": sliding along a frictionless floor-less world under gravity, the height stays exactly.
  void heightHeld_data() { addIntegratorRows(); }
  void heightHeld() {
    QFETCH(IntegratorKind, kind);
    WorldSettings s = freeSpace(kind, 1e-4);
    s.gravity = Vec3(0, 0, -9.81);
    World world(s, frictionlessHertz(), {}, {rigidBody(0.5, kMoments)});
    BodyInit b;
    b.position = Vec3(0, 0, 1.25);
    b.velocity = Vec3(1, -0.5, 0);
    b.angularVelocity = Vec3(0.2, 0.1, 4);
    b.blocked = mask("z");
    world.addBody(b);
    for (int k = 0; k < 10000; ++k) QVERIFY(world.step());
    QVERIFY(world.bodies().position[0].z() == 1.25);
    CLUMPLAB_COMPARE_REL(world.bodies().position[0].x(), 1.0 * world.time(), 1e-12);
  }

  // "Z": an asymmetric top at a general orientation turns with w in the x-y plane. Its world
  // angular momentum along x and y stays (the constraint torque is along z), its energy stays, w_z
  // stays exactly zero, and the orientation follows the RK4 reference with second-order error.
  void oneBlockedRotationFollowsTheConstrainedEulerEquations_data() { addIntegratorRows(); }
  void oneBlockedRotationFollowsTheConstrainedEulerEquations() {
    QFETCH(IntegratorKind, kind);
    const Quat q0(Eigen::AngleAxisd(0.9, Vec3(1, -2, 0.5).normalized()));
    const Vec3 w0(6.0, -4.0, 0.0);
    const double duration = 1.0;
    const ConstrainedTop reference = constrainedReference({q0, w0}, kMoments, duration, 400000);
    double errors[2] = {0.0, 0.0};
    for (int level = 0; level < 2; ++level) {
      const double dt = level == 0 ? 2e-3 : 1e-3;
      World world(freeSpace(kind, dt), frictionlessHertz(), {}, {rigidBody(0.5, kMoments)});
      BodyInit b;
      b.orientation = q0;
      b.angularVelocity = w0;
      b.blocked = mask("Z");
      world.addBody(b);
      const EnergyReport e0 = world.energy();
      const Vec3 l0 = world.bodies().spinAngularMomentum(0);
      const int steps = static_cast<int>(std::lround(duration / dt));
      double worstEnergy = 0.0, worstMomentum = 0.0;
      for (int k = 0; k < steps; ++k) {
        QVERIFY(world.step());
        QVERIFY(world.bodies().angularVelocity[0].z() == 0.0);
        const Vec3 l = world.bodies().spinAngularMomentum(0);
        worstMomentum = std::max(worstMomentum, (l - l0).head<2>().norm() / l0.norm());
        worstEnergy =
            std::max(worstEnergy, std::abs(world.energy().keRotational - e0.keRotational) / e0.keRotational);
      }
      errors[level] = world.bodies().orientation[0].angularDistance(reference.q);
      const Vec3 w = world.bodies().angularVelocity[0];
      qInfo(
          "%s dt = %g: orientation off the reference by %.3e rad, w = (%.6f, %.6f) vs (%.6f, %.6f); "
          "|dL_xy|/L <= %.2e, |dE|/E <= %.2e, L_z moved by %.3g of L",
          integratorName(kind).data(), dt, errors[level], w.x(), w.y(), reference.w.x(), reference.w.y(),
          worstMomentum, worstEnergy,
          std::abs(world.bodies().spinAngularMomentum(0).z() - l0.z()) / l0.norm());
      CLUMPLAB_VERIFY_LESS(worstMomentum, 1e-11);
      CLUMPLAB_VERIFY_LESS(worstEnergy, 2e-3);
      CLUMPLAB_VERIFY_LESS((w - reference.w).norm(), 0.05 * w0.norm());
      // The constraint matters: the free top (nothing blocked) ends up elsewhere.
      QVERIFY(std::abs(world.bodies().spinAngularMomentum(0).z() - l0.z()) > 1e-3 * l0.norm());
    }
    const double ratio = errors[0] / errors[1];
    qInfo("%s: error ratio %.3f when dt halves (2nd order: 4)", integratorName(kind).data(), ratio);
    QVERIFY2(ratio > 3.0 && ratio < 5.5, qPrintable(QString::number(ratio)));
  }

  // "xY" on a T-bar bouncing on an elastic, frictional floor: the contact torques have every
  // component, w_y stays zero and x stays put, and the energy balance closes, to an error that falls
  // as dt^2 (the constraint forces and torques do no work; what is left is the contacts' step error).
  void oneBlockedRotationKeepsTheBalanceInContacts_data() { addIntegratorRows(); }
  void oneBlockedRotationKeepsTheBalanceInContacts() {
    QFETCH(IntegratorKind, kind);
    double worst[2] = {0.0, 0.0};
    double e0Total = 0.0;
    for (int level = 0; level < 2; ++level) {
      const double dt = level == 0 ? 2e-6 : 1e-6;
      WorldSettings s = freeSpace(kind, dt);
      s.gravity = Vec3(0, 0, -9.81);
      World world(s, linearContact(2e4, 0.0, 0.4), {Wall::plane(Vec3::Zero(), Vec3(0, 0, 1))},
                  {templateFromPebbles(tbarPebbles(), 2500, "tbar")});
      BodyInit b;
      b.position = Vec3(0.002, 0, 0.012);
      b.orientation = Quat(Eigen::AngleAxisd(0.6, Vec3(1, 2, 0.3).normalized()));
      b.velocity = Vec3(0.3, 0.2, -0.5);
      b.angularVelocity = Vec3(20, 7, -15);  // w_y is dropped
      b.blocked = mask("xY");
      world.addBody(b);
      const EnergyReport e0 = world.energy();
      e0Total = e0.total();
      int contactSteps = 0;
      const int steps = static_cast<int>(std::lround(0.06 / dt));
      for (int k = 0; k < steps; ++k) {
        QVERIFY(world.step());
        contactSteps += world.state().wallContacts > 0;
        QVERIFY(world.bodies().angularVelocity[0].y() == 0.0);
        QVERIFY(world.bodies().position[0].x() == 0.002);
        worst[level] = std::max(worst[level], std::abs(world.energy().balance() - e0.balance()));
      }
      qInfo("%s dt = %g: %d steps in contact, worst |balance - balance0| = %.3g J of E0 = %.4g J",
            integratorName(kind).data(), dt, contactSteps, worst[level], e0Total);
      QVERIFY(contactSteps > steps / 10);
    }
    CLUMPLAB_VERIFY_LESS(worst[0], 5e-3 * e0Total);
    QVERIFY2(worst[0] / worst[1] > 3.0, qPrintable(QString::number(worst[0] / worst[1])));
  }

  void refusals() {
    World world(freeSpace(IntegratorKind::Leapfrog, 1e-4), frictionlessHertz(), {},
                {rigidBody(0.5, kMoments)});
    BodyInit b;
    World cim(freeSpace(IntegratorKind::Cim, 1e-4), frictionlessHertz(), {}, {rigidBody(0.5, kMoments)});
    b.blocked = mask("xyz");
    try {
      cim.addBody(b);
      QFAIL("cim took a blocked body");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("cim and rk4"), e.what());
    }
    world.addBody(b);
    try {
      world.editModel([&](EditableModel& m) {
        m.integrator = IntegratorKind::Rk4;
        m.eulerIterations = 4;
      });
      QFAIL("rk4 was accepted with a blocked body");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("cim and rk4"), e.what());
    }
    WorldSettings planar = freeSpace(IntegratorKind::Leapfrog, 1e-4);
    planar.plane.enabled = true;
    World flat(planar, frictionlessHertz(), {}, {rigidBody(0.5, kMoments)});
    b.blocked = mask("XYZ");
    try {
      flat.addBody(b);
      QFAIL("blocked rotations were accepted in 2D");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("2D"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(BlockedDofsTest)
#include "tst_blocked_dofs.moc"
