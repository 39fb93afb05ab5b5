// The 2D mode (Mutze, Polyspherical grains, §1 (i)): a pile of T-bars confined to the plane y = offset keeps
// every out-of-plane coordinate and angular velocity component exactly where they belong, keeps its energy
// balance, and the plane round-trips through scene files.
#include "SceneBuilders.hpp"
#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/scene/Scene.hpp"
#include "core/scene/SceneOverlap.hpp"
#include "core/scene/ScenePlane.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

constexpr double kOffset = 1.5e-3;  // [m], the plane y = 1.5 mm

// Eight T-bars dropped into a box in the xz plane, tilted so that no principal axis lies along y.
std::unique_ptr<World> tbarPile(IntegratorKind kind, const ContactModel& contact) {
  WorldSettings s;
  s.integrator = kind;
  s.timeStep = 2e-6;
  s.plane.enabled = true;
  s.plane.normal = Vec3::UnitY();
  s.plane.offset = kOffset;
  auto world = std::make_unique<World>(s, contact, Wall::box(Vec3(-0.012, -0.02, 0), Vec3(0.012, 0.02, 0.1)),
                                       std::vector<TemplatePtr>{templateFromPebbles(tbarPebbles(), 2500)});
  for (int k = 0; k < 8; ++k) {
    BodyInit b;
    b.position = Vec3(k % 2 == 0 ? -0.005 : 0.005, 0.01 * k, 0.008 + 0.009 * k);  // y is projected
    b.orientation = Quat(Eigen::AngleAxisd(0.4 + 0.7 * k, Vec3(1, 2 + k, 3).normalized()));
    b.velocity = Vec3(0.1 * (k % 3) - 0.1, 0.3, -0.2);
    b.angularVelocity = Vec3(5, -20 + 5 * k, 3);
    world->addBody(b);
  }
  return world;
}

}  // namespace

class PlaneModeTest : public QObject {
  Q_OBJECT

 private slots:
  void pileStaysInThePlane_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("friction");
    for (const IntegratorKind k : allIntegrators()) {
      QTest::newRow((std::string(integratorName(k)) + " elastic").c_str()) << static_cast<int>(k) << false;
      QTest::newRow((std::string(integratorName(k)) + " friction").c_str()) << static_cast<int>(k) << true;
    }
  }
  void pileStaysInThePlane() {
    QFETCH(int, kind);
    QFETCH(bool, friction);
    const ContactModel contact = friction ? linearContact(2e3, 0.5, 0.5) : frictionlessHertz(1e7);
    auto world = tbarPile(static_cast<IntegratorKind>(kind), contact);
    const auto balance = [&] {
      const EnergyReport e = world->energy();
      return e.total() + e.dissipated;
    };
    const double e0 = balance();
    const double scale = world->energy().peGravity;
    double worst = 0.0;
    std::size_t contacts = 0;
    for (int k = 0; k < 150000; ++k) {  // 0.3 s: the bars fall, collide and pile up
      QVERIFY2(world->step(), world->state().divergence.message.c_str());
      const BodyState& s = world->bodies();
      for (std::size_t b = 0; b < s.size(); ++b) {
        if (s.position[b].y() != kOffset || s.velocity[b].y() != 0.0 || s.angularVelocity[b].x() != 0.0 ||
            s.angularVelocity[b].z() != 0.0) {
          QFAIL(qPrintable(QString("body %1 left the plane at step %2: y = %3, v_y = %4, w = (%5, %6, %7)")
                               .arg(b)
                               .arg(k)
                               .arg(s.position[b].y(), 0, 'g', 17)
                               .arg(s.velocity[b].y())
                               .arg(s.angularVelocity[b].x())
                               .arg(s.angularVelocity[b].y())
                               .arg(s.angularVelocity[b].z())));
        }
      }
      contacts = std::max(contacts, world->contactCount());
      if (k % 100 == 0) worst = std::max(worst, std::abs(balance() - e0));
    }
    const EnergyReport e = world->energy();
    qInfo(
        "%s: max |d(total + dissipated)| = %.3g J of %.3g J potential; dissipated %.3g J, up to %zu contacts",
        integratorName(world->model().settings.integrator).data(), worst, scale, e.dissipated, contacts);
    QVERIFY(contacts > 4);
    CLUMPLAB_VERIFY_LESS(worst, 0.01 * scale);
  }

  // A body turns about the normal with n.I.n whatever its principal axes: a free spin keeps
  // omega along n and the orientation turns about n exactly.
  void spinAboutTheNormal() {
    for (const IntegratorKind k : allIntegrators()) {
      WorldSettings s = freeSpace(k, 1e-4);
      s.plane.enabled = true;
      s.plane.normal = Vec3(0, 0, 1);
      auto world = std::make_unique<World>(s, frictionlessHertz(), std::vector<Wall>{},
                                           std::vector<TemplatePtr>{rigidBody(1.0, Vec3(1, 2, 3))});
      BodyInit b;
      b.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 1, 0).normalized()));
      b.angularVelocity = Vec3(0.5, 0.2, 2.0);
      world->addBody(b);
      const double energy0 = world->energy().keRotational;
      const Quat q0 = world->bodies().orientation[0];
      for (int n = 0; n < 10000; ++n) QVERIFY(world->step());
      const Quat turn = world->bodies().orientation[0] * q0.conjugate();
      const Eigen::AngleAxisd axisAngle(turn);
      QCOMPARE(world->bodies().angularVelocity[0], Vec3(0, 0, 2.0));
      CLUMPLAB_VERIFY_LESS(std::abs(std::remainder(axisAngle.angle() * axisAngle.axis().z() - 2.0, 2 * M_PI)),
                           1e-9);
      CLUMPLAB_COMPARE_REL(world->energy().keRotational, energy0, 1e-12);
    }
  }

  void sceneRoundTrip() {
    const std::string text = R"({"format": "clumplab-scene/1", "time_step": 1e-5,
      "plane": {"normal": "xz", "offset": 0.0015},
      "contact": {"model": "hertz", "young": 1e7},
      "walls": [{"type": "box", "min": [-0.02, -0.02, 0], "max": [0.02, 0.02, 0.1]}],
      "templates": {"ball": {"density": 1000, "inertia": "pebbles", "pebbles": [[0, 0, 0, 0.002], [0.002, 0, 0, 0.002]]}},
      "bodies": [{"template": "ball", "position": [0, 0.005, 0.01], "angular_velocity": [1, 2, 3]}]})";
    const Scene scene = parseScene(text, "plane.json");
    QVERIFY(scene.model.settings.plane.enabled);
    QCOMPARE(scene.model.settings.plane.normal, Vec3(0, 1, 0));
    auto world = buildWorld(scene);
    QCOMPARE(world->bodies().position[0].y(), 0.0015);
    QCOMPARE(world->bodies().angularVelocity[0], Vec3(0, 2, 0));
    for (int k = 0; k < 100; ++k) QVERIFY(world->step());
    const std::string saved = sceneToJson(sceneFromWorld(*world, scene), ".");
    const Scene again = parseScene(saved, "saved.json");
    QVERIFY(again.model.settings.plane.enabled);
    QCOMPARE(again.model.settings.plane.normal, Vec3(0, 1, 0));
    QCOMPARE(again.model.settings.plane.offset, 0.0015);
    QCOMPARE(sceneToJson(sceneFromWorld(*buildWorld(again), again), "."), saved);
  }

  // PaLa's 2D / 3D switch on a scene written for 3D (SceneOverrides::plane).
  void switchGeneratedSceneTo2D() {
    const std::string text = withTbar(R"({"format": "clumplab-scene/1", "time_step": 1e-5,
      "contact": {"model": "hertz", "young": 1e7},
      "walls": [{"type": "box", "min": [-0.03, -0.03, 0], "max": [0.03, 0.03, 0.1]}],
      "templates": {TBAR},
      "bodies": [{"template": "tbar", "position": [0, 0.004, 0.09], "velocity": [0.1, 0.2, 0.3],
                  "angular_velocity": [1, 2, 3]}],
      "generate": [{"template": "tbar", "count": COUNT, "region": {"min": [-0.02, -0.02, 0.01],
                    "max": [0.02, 0.02, 0.08]}, "random_speed": 0.1, "random_spin": 5, "seed": 3}]})");
    const auto withCount = [&](int n) {
      std::string t = text;
      t.replace(t.find("COUNT"), 5, std::to_string(n));
      return t;
    };
    const Scene threeD = parseScene(withCount(40), "tbars.json");
    QCOMPARE(threeD.bodies.size(), std::size_t(41));
    const PlaneConstraint plane = planeThroughBodies(threeD, 1);
    QCOMPARE(plane.normal, Vec3(0, 1, 0));
    double lo = 1.0, hi = -1.0;
    for (const BodyInit& b : threeD.bodies) {
      lo = std::min(lo, b.position.y());
      hi = std::max(hi, b.position.y());
    }
    QCOMPARE(plane.offset, 0.5 * (lo + hi));

    SceneLoadOptions options;
    options.plane = plane;
    const Scene twoD = parseScene(withCount(40), "tbars.json", options);
    QVERIFY(twoD.model.settings.plane.enabled);
    QCOMPARE(twoD.bodies.size(), std::size_t(41));  // forty T-bars fit in a 4 cm x 7 cm slice
    for (const BodyInit& b : twoD.bodies) {
      QCOMPARE(b.position.y(), plane.offset);
      QCOMPARE(b.velocity.y(), 0.0);
      QCOMPARE(b.angularVelocity.x(), 0.0);
      QCOMPARE(b.angularVelocity.z(), 0.0);
    }
    QCOMPARE(twoD.bodies[0].velocity, Vec3(0.1, 0, 0.3));  // the explicit body, moved into the plane
    QCOMPARE(twoD.bodies[0].angularVelocity, Vec3(0, 2, 0));
    QCOMPARE(worstInitialOverlap(twoD), 0.0);     // generated in the plane, not squashed into it
    QCOMPARE(twoD.notes.size(), std::size_t(1));  // the explicit body was moved

    // Too many for the slice: what fits, and a note that says so (a 3D scene's region was not
    // made for the plane); the same count asked for by a scene written for 2D is an error.
    const Scene crowded = parseScene(withCount(400), "tbars.json", options);
    QVERIFY(crowded.bodies.size() > 41 && crowded.bodies.size() < 401);
    QCOMPARE(worstInitialOverlap(crowded), 0.0);
    QVERIFY(crowded.notes.back().find(std::to_string(crowded.bodies.size() - 1) + " of 400 bodies fit") !=
            std::string::npos);
    std::string written2D = withCount(400);
    written2D.insert(written2D.find("\"contact\""), R"("plane": {"normal": "xz", "offset": 0.001}, )");
    QVERIFY_THROWS_EXCEPTION(InputError, parseScene(written2D, "tbars.json"));
    // A scene written for 2D generates in its plane too, without overlaps.
    written2D = withCount(40);
    written2D.insert(written2D.find("\"contact\""), R"("plane": {"normal": "xz", "offset": 0.001}, )");
    const Scene authored = parseScene(written2D, "tbars.json");
    for (const BodyInit& b : authored.bodies) QCOMPARE(b.position.y(), 0.001);
    QCOMPARE(worstInitialOverlap(authored), 0.0);

    // And back: a disabled plane override makes a 2D file 3D.
    SceneLoadOptions threeDOptions;
    threeDOptions.plane = PlaneConstraint{};
    const Scene back = parseScene(written2D, "tbars.json", threeDOptions);
    QVERIFY(!back.model.settings.plane.enabled);
    QCOMPARE(back.bodies[0].position, Vec3(0, 0.004, 0.09));
    QVERIFY(back.bodies[1].position.y() != 0.001);
  }
};

QTEST_GUILESS_MAIN(PlaneModeTest)
#include "tst_plane_mode.moc"
