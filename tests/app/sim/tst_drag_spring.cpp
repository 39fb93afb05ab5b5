// The mouse drag's spring (DragSpring): the force on the grabbed point against its closed form
// F = m (w^2 (target - p) - 2 w v_p), the cap at a multiple of the weight, the pull across a
// periodic face towards the nearest image, and the paused move that puts the grabbed point on
// the target.
#include <QtTest>

#include "TestSupport.hpp"
#include "core/world/World.hpp"
#include "sim/DragSpring.hpp"

using namespace clumplab;
using namespace clumplab::sim;

namespace {
constexpr double kMass = 2.0;  // [kg]

std::unique_ptr<World> oneBody(const WorldSettings& settings, const BodyInit& body) {
  auto world = std::make_unique<World>(settings, ContactModel{}, std::vector<Wall>{},
                                       std::vector<TemplatePtr>{test::rigidBody(kMass, Vec3(1, 2, 3))});
  world->addBody(body);
  return world;
}
}  // namespace

class TestDragSpring : public QObject {
  Q_OBJECT
 private slots:
  void forceIsTheDampedSpringOnTheGrabbedPoint() {
    WorldSettings s = test::freeSpace(IntegratorKind::Leapfrog, 1e-4);
    BodyInit b;
    b.position = Vec3(0.1, 0.2, 0.3);
    b.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 1, 0).normalized()));
    b.velocity = Vec3(0.01, -0.02, 0.005);
    b.angularVelocity = Vec3(0.3, 0.1, -0.2);
    auto world = oneBody(s, b);
    const DragSpring spring{0, Vec3(0.01, 0.0, -0.005), Vec3(0.12, 0.21, 0.3)};
    spring.pull(*world);

    const Vec3 arm = b.orientation * spring.anchorInBody;
    const Vec3 point = b.position + arm;
    const Vec3 pointVelocity = b.velocity + b.angularVelocity.cross(arm);
    const double w = DragSpring::kAngularFrequency;
    const Vec3 expected = kMass * (w * w * (spring.target - point) - 2.0 * w * pointVelocity);
    QVERIFY(expected.norm() < DragSpring::kForceCapInWeights * kMass * 9.81);  // not capped here
    QCOMPARE(world->state().loads.size(), std::size_t{1});
    const ExternalLoad& load = world->state().loads[0];
    QCOMPARE(load.body, 0u);
    QVERIFY((load.force - expected).norm() <= 1e-12 * expected.norm());
    QVERIFY((load.point - point).norm() <= 1e-15);
  }

  void forceIsCappedAtThirtyWeights() {
    WorldSettings s = test::freeSpace(IntegratorKind::Leapfrog, 1e-4);
    s.gravity = Vec3(0, 0, -20.0);  // above 9.81: the cap follows the scene's gravity
    auto world = oneBody(s, BodyInit{});
    const DragSpring spring{0, Vec3::Zero(), Vec3(100.0, 0, 0)};  // far away
    spring.pull(*world);
    const Vec3 force = world->state().loads[0].force;
    QCOMPARE(force.norm(), DragSpring::kForceCapInWeights * kMass * 20.0);
    QVERIFY(force.normalized().isApprox(Vec3::UnitX(), 1e-12));
  }

  void pullAcrossAPeriodicFaceTakesTheNearestImage() {
    WorldSettings s = test::freeSpace(IntegratorKind::Leapfrog, 1e-4);
    s.periodic.periodic = {true, false, false};
    s.periodic.lower = Vec3(0, -1, -1);
    s.periodic.length = Vec3(1, 2, 2);
    BodyInit b;
    b.position = Vec3(0.95, 0, 0);
    auto world = oneBody(s, b);
    // The target at x = 0.05 is 0.1 m away through the face at x = 1, 0.9 m away the other way.
    const DragSpring spring{0, Vec3::Zero(), Vec3(0.05, 0, 0)};
    spring.pull(*world);
    const double w = DragSpring::kAngularFrequency;
    const Vec3 force = world->state().loads[0].force;
    QVERIFY(force.isApprox(Vec3(kMass * w * w * 0.1, 0, 0), 1e-9));
  }

  void pausedMovePutsTheGrabbedPointOnTheTarget() {
    BodyInit b;
    b.orientation = Quat(Eigen::AngleAxisd(1.1, Vec3(0, 1, 1).normalized()));
    b.velocity = Vec3(1, 2, 3);
    b.angularVelocity = Vec3(4, 5, 6);
    auto world = oneBody(test::freeSpace(IntegratorKind::Leapfrog, 1e-4), b);
    const DragSpring spring{0, Vec3(0.02, -0.01, 0.0), Vec3(0.5, 0.25, -0.125)};
    spring.moveBody(*world);
    const BodyState& after = world->bodies();
    QVERIFY((after.position[0] + after.orientation[0] * spring.anchorInBody - spring.target).norm() < 1e-15);
    QVERIFY(after.orientation[0].isApprox(b.orientation, 0.0));  // moved, not turned
    QCOMPARE(after.velocity[0], Vec3::Zero().eval());
    QCOMPARE(after.angularVelocity[0], Vec3::Zero().eval());
  }
};

QTEST_APPLESS_MAIN(TestDragSpring)
#include "tst_drag_spring.moc"
