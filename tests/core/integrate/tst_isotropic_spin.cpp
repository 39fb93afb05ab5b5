// Bodies of equal principal moments (spheres) turn in the world frame, without the Euler solve
// (IsotropicSpin.hpp): under a constant torque the leapfrog is exact, w = T t / I and the body turned
// by T t^2 / (2 I) about T; torque-free, w stays and the body turns uniformly about it; and a body
// whose moments differ by one part in 1e15 (the general body-frame path) ends where the isotropic
// one does, to round-off; a batch of spheres alone takes the bits it takes beside other bodies.
#include <QtTest>

#include "TestSupport.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

constexpr double kMass = 0.2;     // [kg]
constexpr double kMoment = 3e-4;  // [kg m^2]
constexpr double kStep = 1e-4;    // [s]
constexpr int kSteps = 4000;

std::unique_ptr<World> isotropicWorld(const Vec3& moments) {
  return std::make_unique<World>(freeSpace(IntegratorKind::Leapfrog, kStep), frictionlessHertz(),
                                 std::vector<Wall>{}, std::vector<TemplatePtr>{rigidBody(kMass, moments)});
}

double angleBetween(const Quat& a, const Quat& b) {
  return a.angularDistance(b);
}

}  // namespace

class IsotropicSpinTest : public QObject {
  Q_OBJECT
 private slots:
  void constantTorqueIsIntegratedExactly() {
    const std::unique_ptr<World> made = isotropicWorld(Vec3::Constant(kMoment));
    World& world = *made;
    BodyInit b;
    b.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, -1).normalized()));
    world.addBody(b);
    // A force F at r from the centre: the torque r x F stays as the body accelerates along F.
    const Vec3 force(0.0, 0.0, 0.3), arm(0.05, -0.02, 0.0);
    world.setExternalForce(0, force, arm);
    const Vec3 torque = arm.cross(force);
    for (int k = 0; k < kSteps; ++k) mustStep(world);
    const double t = world.time();
    const Vec3 alpha = torque / kMoment;
    const Vec3 w = world.bodies().angularVelocity[0];
    QVERIFY2((w - alpha * t).norm() <= 1e-12 * (alpha * t).norm(), "w = T t / I");
    const Quat expected =
        Quat(Eigen::AngleAxisd(0.5 * alpha.norm() * t * t, alpha.normalized())) * b.orientation;
    const double turned = 0.5 * alpha.norm() * t * t;
    QVERIFY2(turned > 3.0, "the body turned by more than half a turn");  // not a trivial angle
    QVERIFY2(angleBetween(world.bodies().orientation[0], expected) < 1e-11 * turned, "q = R(T t^2 / 2I) q0");
    // The translation under F alone, for completeness: x = F t^2 / 2m.
    QVERIFY((world.bodies().position[0] - force / kMass * (0.5 * t * t)).norm() < 1e-12);
  }

  void torqueFreeTurnsUniformly() {
    const std::unique_ptr<World> made = isotropicWorld(Vec3::Constant(kMoment));
    World& world = *made;
    BodyInit b;
    b.orientation = Quat(Eigen::AngleAxisd(-1.1, Vec3(0, 1, 1).normalized()));
    b.angularVelocity = Vec3(3.0, -7.0, 11.0);
    world.addBody(b);
    for (int k = 0; k < kSteps; ++k) mustStep(world);
    const Vec3 w = world.bodies().angularVelocity[0];
    QCOMPARE(w, b.angularVelocity);  // no torque, no change, to the bit
    const double t = world.time();
    const Quat expected =
        Quat(Eigen::AngleAxisd(b.angularVelocity.norm() * t, b.angularVelocity.normalized())) * b.orientation;
    QVERIFY(angleBetween(world.bodies().orientation[0], expected) < 1e-11 * b.angularVelocity.norm() * t);
  }

  void agreesWithTheBodyFramePath() {
    // Equal moments take the world-frame path; moments one part in 1e15 apart, the Euler solve.
    const Vec3 equal = Vec3::Constant(kMoment);
    const Vec3 nearlyEqual(kMoment, kMoment, kMoment * (1.0 + 1e-15));
    QVERIFY(nearlyEqual.z() != kMoment);
    std::vector<std::unique_ptr<World>> made;
    for (const Vec3& moments : {equal, nearlyEqual}) {
      made.push_back(isotropicWorld(moments));
      World& world = *made.back();
      BodyInit b;
      b.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3(1, 0, 1).normalized()));
      b.angularVelocity = Vec3(-4.0, 2.0, 5.0);
      world.addBody(b);
      world.setExternalForce(0, Vec3(1e-3, -2e-3, 0.5e-3), Vec3(0.01, 0.03, -0.02));
      for (int k = 0; k < kSteps; ++k) mustStep(world);
    }
    const World* worlds[2] = {made[0].get(), made[1].get()};
    const Vec3 w0 = worlds[0]->bodies().angularVelocity[0], w1 = worlds[1]->bodies().angularVelocity[0];
    QVERIFY2((w0 - w1).norm() < 1e-12 * w0.norm(), "the same angular velocity");
    QVERIFY2(angleBetween(worlds[0]->bodies().orientation[0], worlds[1]->bodies().orientation[0]) < 1e-10,
             "the same orientation");
    QVERIFY(w0 != w1 ||
            worlds[0]->bodies().orientation[0].coeffs() != worlds[1]->bodies().orientation[0].coeffs());
  }

  void aBatchOfSpheresTakesTheMixedBatchsBits() {
    // A batch of bodies that are all isotropic and free takes a path of its own (IsotropicBatch.hpp);
    // with one blocked or anisotropic body in it, the batch takes the per-body path. Bodies 1-19
    // are the same in three worlds whose body 0 differs, so they must end with the same bits.
    constexpr int kBodies = 20;  // more than a batch of the leapfrog
    const auto run = [](const Vec3& firstMoments, std::uint8_t firstBlocked) {
      WorldSettings settings = freeSpace(IntegratorKind::Leapfrog, kStep);
      settings.linearDamping = 0.7;  // forces that read the predicted velocities
      settings.angularDamping = 0.4;
      auto made = std::make_unique<World>(settings, frictionlessHertz(), std::vector<Wall>{},
                                          std::vector<TemplatePtr>{rigidBody(kMass, Vec3::Constant(kMoment)),
                                                                   rigidBody(kMass, firstMoments)});
      for (int i = 0; i < kBodies; ++i) {
        BodyInit b;
        b.templateIndex = i == 0 ? 1 : 0;
        b.blocked = i == 0 ? firstBlocked : 0;
        b.position = Vec3(0.1 * i, 0.0, 0.0);
        b.orientation = Quat(Eigen::AngleAxisd(0.1 * i, Vec3(1.0, i, 2.0).normalized()));
        b.velocity = Vec3(0.01 * (i + 1), -0.02, 0.03);
        b.angularVelocity = Vec3(1.0 - 0.3 * i, 0.5 * i, 2.0);
        made->addBody(b);
        made->setExternalForce(i, Vec3(1e-3 * (i + 1), -2e-3, 0.5e-3), Vec3(0.01, 0.003 * i, -0.02));
      }
      for (int k = 0; k < 1000; ++k) mustStep(*made);
      return made;
    };
    const std::unique_ptr<World> spheres = run(Vec3::Constant(kMoment), 0);
    const std::unique_ptr<World> oneBlocked = run(Vec3::Constant(kMoment), 1);  // along x
    const std::unique_ptr<World> oneTop = run(Vec3(kMoment, kMoment, 2.0 * kMoment), 0);
    QVERIFY(spheres->bodies().position[0] != oneBlocked->bodies().position[0]);  // body 0 did differ
    QVERIFY(spheres->bodies().orientation[0].coeffs() != oneTop->bodies().orientation[0].coeffs());
    for (const World* other : {oneBlocked.get(), oneTop.get()}) {
      for (int i = 1; i < kBodies; ++i) {
        const BodyState &a = spheres->bodies(), &b = other->bodies();
        QCOMPARE(b.position[i], a.position[i]);
        QCOMPARE(b.velocity[i], a.velocity[i]);
        QCOMPARE(b.angularVelocity[i], a.angularVelocity[i]);
        QCOMPARE(b.orientation[i].coeffs(), a.orientation[i].coeffs());
      }
    }
  }
};

QTEST_GUILESS_MAIN(IsotropicSpinTest)
#include "tst_isotropic_spin.moc"
