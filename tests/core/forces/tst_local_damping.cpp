// Cundall's local (non-viscous) damping, as Woo's leapfrog and Yade's NewtonIntegrator apply it
// (scene key damping.local, lambda in [0, 1)): each world component of a body's force is scaled by
// 1 - lambda sign(F_i v_i). A ball thrown up under gravity alone then rises against (1 + lambda) g and
// falls with (1 - lambda) g: closed forms for the apex, the fall and the energy the damping takes,
// lambda m g times the distance travelled, in every force-stage integrator. The scene key, its range
// and the integrators that refuse it (cim, rk4).
#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/scene/Scene.hpp"

#include <stdexcept>

using namespace clumplab;
using namespace clumplab::test;

namespace {

constexpr double kG = 9.81;          // [m/s^2]
constexpr double kLambda = 0.3;      // the local damping
constexpr double kThrowSpeed = 2.0;  // [m/s], upwards

std::unique_ptr<World> thrownBall(IntegratorKind kind, double dt) {
  WorldSettings s;
  s.timeStep = dt;
  s.integrator = kind;
  s.gravity = Vec3(0.0, 0.0, -kG);
  s.localDamping = kLambda;
  auto world = std::make_unique<World>(s, linearContact(1e3, 0.5, 0.0), std::vector<Wall>{},
                                       std::vector<TemplatePtr>{rigidBody(0.2, {1e-4, 1e-4, 1e-4}, 0.01)});
  BodyInit b;
  b.velocity = Vec3(0.0, 0.0, kThrowSpeed);
  b.angularVelocity = Vec3(0.0, 0.0, 5.0);  // a spin no torque acts on: the damping leaves it alone
  world->addBody(b);
  return world;
}

}  // namespace

class LocalDampingTest : public QObject {
  Q_OBJECT

 private slots:
  // Up: deceleration (1 + lambda) g, apex v0^2 / (2 (1 + lambda) g) at t = v0 / ((1 + lambda) g).
  // Down: acceleration (1 - lambda) g from the apex. The damping force, lambda m g, always opposes
  // the motion: the dissipated energy is lambda m g times the path (up and down), and total +
  // dissipated holds. One step straddles the apex (the sign flips within it): errors O(dt).
  void aThrownBallRisesAndFallsAtTheDampedRates_data() { addIntegratorRows(); }
  void aThrownBallRisesAndFallsAtTheDampedRates() {
    QFETCH(IntegratorKind, kind);
    const double dt = 1e-4;
    auto world = thrownBall(kind, dt);
    const double mass = world->bodies().mass[0];
    const double e0 = world->energy().total();
    const double apexTime = kThrowSpeed / ((1.0 + kLambda) * kG);
    const double apexHeight = kThrowSpeed * kThrowSpeed / (2.0 * (1.0 + kLambda) * kG);
    double highest = 0.0, highestAt = 0.0, worstBalance = 0.0;
    const double end = 2.5 * apexTime;
    while (world->time() < end - 0.5 * dt) {
      mustStep(*world);
      const double z = world->bodies().position[0].z();
      if (z > highest) {
        highest = z;
        highestAt = world->time();
      }
      const EnergyReport e = world->energy();
      worstBalance = std::max(worstBalance, std::abs(e.total() + e.dissipated - e0));
    }
    const double fall = world->time() - apexTime;
    const double z = world->bodies().position[0].z(), v = world->bodies().velocity[0].z();
    const double zExpected = apexHeight - 0.5 * (1.0 - kLambda) * kG * fall * fall;
    const double vExpected = -(1.0 - kLambda) * kG * fall;
    const double dissipatedExpected = kLambda * mass * kG * (apexHeight + (apexHeight - zExpected));
    const EnergyReport e = world->energy();
    qInfo(
        "%s: apex %.6g m at %.6g s (closed form %.6g m at %.6g s); at %.4g s z %.6g m (%.6g), v %.6g m/s "
        "(%.6g); dissipated %.6g J (%.6g); worst |total + dissipated - E0| %.3g J",
        integratorName(kind).data(), highest, highestAt, apexHeight, apexTime, world->time(), z, zExpected, v,
        vExpected, e.dissipated, dissipatedExpected, worstBalance);
    CLUMPLAB_COMPARE_REL(highest, apexHeight, 1e-3);
    QVERIFY(std::abs(highestAt - apexTime) <= dt);
    QVERIFY(std::abs(z - zExpected) <= 1e-3 * apexHeight);
    QVERIFY(std::abs(v - vExpected) <= 2.0 * kG * dt);
    CLUMPLAB_COMPARE_REL(e.dissipated, dissipatedExpected, 2e-3);
    CLUMPLAB_VERIFY_LESS(worstBalance, 1e-3 * mass * kG * apexHeight);
    // No torque acts: the spin is untouched.
    QCOMPARE(world->bodies().angularVelocity[0], Vec3(0.0, 0.0, 5.0));
  }

  // The scene key: read, saved and read back; its range [0, 1) named when a value is beyond it.
  void theSceneKeyRoundTripsAndItsRangeIsChecked() {
    const auto text = [](const std::string& local) {
      return R"({"format": "clumplab-scene/1", "time_step": 1e-4, "damping": {"linear": 0.1, "local": )" +
             local +
             R"(}, "contact": {"model": "linear", "stiffness": 1000, "restitution": 0.5},
        "templates": {"ball": {"density": 1000, "pebbles": [[0, 0, 0, 0.01]]}},
        "bodies": [{"template": "ball", "position": [0, 0, 0.1]}]})";
    };
    const Scene scene = parseScene(text("0.25"), "local.json");
    QCOMPARE(scene.model.settings.localDamping, 0.25);
    QCOMPARE(scene.model.settings.linearDamping, 0.1);
    auto world = buildWorld(scene);
    QCOMPARE(world->model().settings.localDamping, 0.25);
    const std::string saved = sceneToJson(sceneFromWorld(*world, scene), ".");
    QCOMPARE(parseScene(saved, "saved.json").model.settings.localDamping, 0.25);
    QCOMPARE(parseScene(text("0"), "none.json").model.settings.localDamping, 0.0);
    for (const std::string bad : {"1", "-0.1", "1.5"}) {
      try {
        parseScene(text(bad), "bad.json");
        QFAIL(qPrintable(QString::fromStdString("accepted local damping " + bad)));
      } catch (const InputError& e) {
        const std::string what = e.what();
        QVERIFY2(what.find("bad.json") != std::string::npos &&
                     what.find("damping.local") != std::string::npos &&
                     what.find("[0, 1)") != std::string::npos,
                 e.what());
      }
    }
    // The one way to change the model: its range, and the edit takes effect.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             world->editModel([](EditableModel& m) { m.localDamping = 1.0; }));
    QCOMPARE(world->model().settings.localDamping, 0.25);
    world->editModel([](EditableModel& m) { m.localDamping = 0.5; });
    QCOMPARE(world->model().settings.localDamping, 0.5);
  }

  // cim and rk4 integrate with adaptive steps of their own forces: a force that flips with each velocity
  // component is refused by name there, from a scene and as an edit, and the world is unchanged.
  void theAdaptiveIntegratorsRefuseIt() {
    WorldSettings s;
    s.integrator = IntegratorKind::Cim;
    s.localDamping = 0.2;
    try {
      World world(s, linearContact(1e3, 0.5, 0.0), {}, {rigidBody(1.0, {1.0, 1.0, 1.0})});
      QFAIL("cim took local damping");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(std::string(e.what()).find("local damping") != std::string::npos, e.what());
    }
    s.localDamping = 0.0;
    World world(s, linearContact(1e3, 0.5, 0.0), {}, {rigidBody(1.0, {1.0, 1.0, 1.0})});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             world.editModel([](EditableModel& m) { m.localDamping = 0.2; }));
    QCOMPARE(world.model().settings.localDamping, 0.0);
    s.integrator = IntegratorKind::Leapfrog;
    World leapfrog(s, linearContact(1e3, 0.5, 0.0), {}, {rigidBody(1.0, {1.0, 1.0, 1.0})});
    leapfrog.editModel([](EditableModel& m) { m.localDamping = 0.2; });
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, leapfrog.editModel([](EditableModel& m) {
      m.integrator = IntegratorKind::Rk4;
    }));
    QCOMPARE(leapfrog.model().settings.integrator, IntegratorKind::Leapfrog);
  }
};

QTEST_GUILESS_MAIN(LocalDampingTest)
#include "tst_local_damping.moc"
