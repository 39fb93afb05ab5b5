// Blocked degrees of freedom (issue 9): under every integrator a body with blocked translations
// keeps those coordinates exactly while it turns freely, a body with two blocked rotations spins
// about the third world axis with the moment e.I.e, and one with all rotations blocked keeps its
// orientation; what cannot work is refused with a message.
#include <QtTest>

#include "TestSupport.hpp"
#include "core/BlockedDofs.hpp"

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
    QVERIFY(blockedDofsProblem(mask("X")).find("two free") != std::string::npos);
    QVERIFY(blockedDofsProblem(mask("xyzXY")).empty());
    QCOMPARE(freeRotationAxis(mask("XZ")), 1);
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
      contactSteps += world.wallContactCount() > 0;
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

  void refusals() {
    World world(freeSpace(IntegratorKind::Leapfrog, 1e-4), frictionlessHertz(), {},
                {rigidBody(0.5, kMoments)});
    BodyInit b;
    b.blocked = mask("Y");
    try {
      world.addBody(b);
      QFAIL("one blocked rotation was accepted");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("two free"), e.what());
    }
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
      world.setIntegrator(IntegratorKind::Rk4, 4);
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
