// Fields and point interactions (Mutze, Polyspherical grains, §1 (v)-(vii)): a charge drifting in crossed
// fields, dipoles aligning, second-order energy conservation with charges, dipoles and point masses, a Kepler
// orbit, and the scene keys.
#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/io/TemplateFile.hpp"
#include "core/scene/Scene.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

std::unique_ptr<World> freeWorld(const WorldSettings& s, const TemplatePtr& t, double stiffness = 1e3) {
  return std::make_unique<World>(s, linearContact(stiffness, 1.0, 0.0), std::vector<Wall>{},
                                 std::vector<TemplatePtr>{t});
}

// Adds a body of template 0 at x with velocity v and the given point properties.
void addAt(World& w, const Vec3& x, const PointProperties& point, const Vec3& v = Vec3::Zero()) {
  BodyInit b;
  b.position = x;
  b.velocity = v;
  w.addBody(b, point);
}

// Largest |E(t) - E(0)| [J] (total + dissipated) over `steps` steps.
double maxEnergyDeviation(World& world, long long steps) {
  const auto total = [&] {
    const EnergyReport e = world.energy();
    return e.total() + e.dissipated;
  };
  const double e0 = total();
  double worst = 0.0;
  for (long long k = 0; k < steps; ++k) {
    if (!world.step()) {
      qWarning("%s", world.state().divergence.message.c_str());
      return std::numeric_limits<double>::infinity();
    }
    worst = std::max(worst, std::abs(total() - e0));
  }
  return worst;
}

}  // namespace

class FieldsTest : public QObject {
  Q_OBJECT

 private slots:
  void crossedFieldDrift_data() { addIntegratorRows(); }
  // A charge starting at rest in E = E x^ and B = B z^ moves on a cycloid: gyration at qB/m about a
  // guiding centre drifting with v_d = E x B / B^2 = -(E/B) y^ (Jackson §12.3).
  void crossedFieldDrift() {
    QFETCH(IntegratorKind, kind);
    const double mass = 2.0, charge = 2.0, fieldB = 0.5, fieldE = 0.05;  // q B / m = 0.5 rad/s
    const double gyration = charge * fieldB / mass, period = 2.0 * M_PI / gyration;
    const int stepsPerPeriod = 400, periods = 10;
    WorldSettings s = freeSpace(kind, period / stepsPerPeriod);
    s.fields.electric = Vec3(fieldE, 0, 0);
    s.fields.magnetic = Vec3(0, 0, fieldB);
    auto world = freeWorld(s, rigidBody(mass, Vec3(1, 1, 1)));
    PointProperties p;
    p.charge = charge;
    addAt(*world, Vec3::Zero(), p);
    const Vec3 drift = s.fields.electric.cross(s.fields.magnetic) / s.fields.magnetic.squaredNorm();
    // Gyration: v - v_d turns at qB/m; count its x-component's sign changes, interpolated.
    std::vector<double> crossings;
    double previous = world->bodies().velocity[0].x() - drift.x();
    for (int k = 0; k < stepsPerPeriod * periods; ++k) {
      QVERIFY(world->step());
      const double now = world->bodies().velocity[0].x() - drift.x();
      if ((previous < 0.0) != (now < 0.0) && k > 0) {
        crossings.push_back(world->time() - s.timeStep * now / (now - previous));
      }
      previous = now;
    }
    const Vec3 measured = world->bodies().position[0] / world->time();  // whole periods: the guiding centre
    const double driftError = (measured - drift).norm() / drift.norm();
    qInfo("%s: drift %.6g m/s (expected %.6g), relative error %.2e", integratorName(s.integrator).data(),
          -measured.y(), -drift.y(), driftError);
    CLUMPLAB_VERIFY_LESS(driftError, 0.01);
    QVERIFY(crossings.size() >= 2 * periods - 1);
    const double measuredPeriod = 2.0 * (crossings.back() - crossings.front()) / double(crossings.size() - 1);
    qInfo("gyration period %.8g s (expected %.8g)", measuredPeriod, period);
    CLUMPLAB_COMPARE_REL(measuredPeriod, period, 1e-3);
    QCOMPARE(world->bodies().position[0].z(), 0.0);
    // E does work on the charge; B none: total energy (with -q E.x) is conserved.
    const EnergyReport e = world->energy();
    CLUMPLAB_VERIFY_LESS(std::abs(e.total()), 1e-4 * mass * drift.squaredNorm());
  }

  void dipolesAlign_data() {
    QTest::addColumn<bool>("magnetic");
    QTest::newRow("magnetic") << true;
    QTest::newRow("electric") << false;
  }
  // Two free dipoles (spheres of radius 1 cm) released at angles: without damping the energy is
  // conserved; with damping they settle head to tail, parallel to each other and to the line through
  // their centres (the minimum -2 k d^2 / r^3 of the dipole-dipole energy).
  void dipolesAlign() {
    QFETCH(bool, magnetic);
    const double radius = 0.01, mass = 0.01;
    const TemplatePtr sphere = rigidBody(mass, Vec3::Constant(0.4 * mass * radius * radius), radius);
    const double moment = magnetic ? 1.0 : 1.0 * std::sqrt(kMagnetic / kCoulomb);  // same energy scale
    const auto dipole = [&](double angle) {
      PointProperties p;
      (magnetic ? p.magneticDipole : p.electricDipole) = moment * Vec3(std::cos(angle), std::sin(angle), 0.0);
      return p;
    };
    const auto make = [&](double damping, double dt) {
      WorldSettings s = freeSpace(IntegratorKind::Leapfrog, dt);
      s.linearDamping = s.angularDamping = damping;
      auto w = freeWorld(s, sphere, 1e5);
      addAt(*w, Vec3(-0.025, 0, 0), dipole(1.2));
      addAt(*w, Vec3(0.025, 0, 0), dipole(-0.7));
      return w;
    };
    // Undamped over 0.2 s: they turn, attract, touch and rattle in contact (linear, e = 1).
    auto free = make(0.0, 2e-6);
    const double u0 = std::abs(free->energy().peFields);
    const double deviation = maxEnergyDeviation(*free, 100000);
    qInfo("undamped: |U0| = %.4g J, max |dE| = %.3g J (%.2e relative)", u0, deviation, deviation / u0);
    CLUMPLAB_VERIFY_LESS(deviation, 2e-3 * u0);

    auto damped = make(30.0, 1e-5);
    for (int k = 0; k < 150000; ++k) QVERIFY(damped->step());
    const BodyState& b = damped->bodies();
    const auto world = [&](std::size_t i) {
      const PointProperties& p = b.point[i];
      return Vec3(b.orientation[i] * (magnetic ? p.magneticDipole : p.electricDipole)).normalized();
    };
    const Vec3 line = (b.position[1] - b.position[0]).normalized();
    const double between = std::acos(std::clamp(world(0).dot(world(1)), -1.0, 1.0));
    const double toLine = std::acos(std::clamp(std::abs(world(0).dot(line)), -1.0, 1.0));
    qInfo("damped: angle between dipoles %.3g deg, to the line of centres %.3g deg, distance %.4g m",
          between * 180 / M_PI, toLine * 180 / M_PI, (b.position[1] - b.position[0]).norm());
    CLUMPLAB_VERIFY_LESS(between, 1.0 * M_PI / 180);
    CLUMPLAB_VERIFY_LESS(toLine, 1.0 * M_PI / 180);
  }

  void energyIsConservedToSecondOrder_data() { addIntegratorRows(); }
  // Three bodies with charges, both dipoles and point masses in uniform E and B: halving the step
  // divides the largest energy deviation by about 4.
  void energyIsConservedToSecondOrder() {
    QFETCH(IntegratorKind, kind);
    const auto run = [&](double dt) {
      WorldSettings s = freeSpace(kind, dt);
      s.fields.electric = Vec3(0.3, -0.2, 0.1);
      s.fields.magnetic = Vec3(0.1, 0.2, 0.8);
      s.fields.gravitationalConstant = 0.05;
      auto w = freeWorld(s, rigidBody(1.0, Vec3(0.2, 0.3, 0.4), 0.05));
      const double q = 6e-6;  // k q^2 / r ~ 0.3 J at 1 m
      const auto props = [&](double charge, const Vec3& p, const Vec3& m) {
        PointProperties pp;
        pp.charge = charge;
        pp.electricDipole = p;
        pp.magneticDipole = m;
        pp.pointMass = true;
        return pp;
      };
      addAt(*w, Vec3(0, 0, 0), props(q, Vec3(0, 2e-6, 1e-6), Vec3(300, 0, 100)), Vec3(0.1, 0, 0));
      addAt(*w, Vec3(1, 0.2, 0), props(q, Vec3(1e-6, 0, 2e-6), Vec3(0, 400, 0)), Vec3(0, 0.2, 0));
      addAt(*w, Vec3(0.3, 1, 0.4), props(-0.5 * q, Vec3(2e-6, 1e-6, 0), Vec3(0, 100, 300)));
      w->bodies().angularVelocity[0] = Vec3(1, 2, 0.5);
      return maxEnergyDeviation(*w, std::llround(2.0 / dt));
    };
    const double coarse = run(4e-3), fine = run(2e-3), finer = run(1e-3);
    qInfo("%s: max |dE| %.3e, %.3e, %.3e J; ratios %.2f, %.2f", integratorName(kind).data(), coarse, fine,
          finer, coarse / fine, fine / finer);
    QVERIFY2(coarse / fine > 3.0 && coarse / fine < 5.5, qPrintable(QString::number(coarse / fine)));
    QVERIFY2(fine / finer > 3.0 && fine / finer < 5.5, qPrintable(QString::number(fine / finer)));
  }

  // Two equal point masses on a circular orbit (G = 1, M = 1 kg each, a = 1 m): the separation stays
  // a and the period is 2 pi sqrt(a^3 / (G 2M)).
  void keplerOrbit() {
    const double a = 1.0, mass = 1.0, g = 1.0;
    const double omega = std::sqrt(g * 2.0 * mass / (a * a * a)), period = 2.0 * M_PI / omega;
    WorldSettings s = freeSpace(IntegratorKind::Leapfrog, period / 2000);
    s.fields.gravitationalConstant = g;
    s.fields.softening = 1e-6;
    auto w = freeWorld(s, rigidBody(mass, Vec3(0.01, 0.01, 0.01), 0.05));
    PointProperties p;
    p.pointMass = true;
    const double v = 0.5 * omega * a;
    addAt(*w, Vec3(-0.5 * a, 0, 0), p, Vec3(0, -v, 0));
    addAt(*w, Vec3(0.5 * a, 0, 0), p, Vec3(0, v, 0));
    double worstRadius = 0.0, angle = 0.0, crossing = 0.0;
    Vec3 last = Vec3(a, 0, 0);
    for (int k = 0; k < 3 * 2000 + 100; ++k) {
      QVERIFY(w->step());
      const Vec3 r = w->bodies().position[1] - w->bodies().position[0];
      worstRadius = std::max(worstRadius, std::abs(r.norm() - a));
      const double turn = std::atan2(last.cross(r).z(), last.dot(r));
      if (angle < 6.0 * M_PI && angle + turn >= 6.0 * M_PI) {
        crossing = w->time() - s.timeStep * (angle + turn - 6.0 * M_PI) / turn;
      }
      angle += turn;
      last = r;
    }
    qInfo("Kepler: max |r - a| = %.3g m, three periods in %.8g s (expected %.8g)", worstRadius, crossing,
          3 * period);
    CLUMPLAB_VERIFY_LESS(worstRadius, 1e-4 * a);
    CLUMPLAB_COMPARE_REL(crossing, 3 * period, 1e-4);
  }

  void sceneKeysRoundTrip() {
    const std::string text = R"({"format": "clumplab-scene/1", "time_step": 1e-4, "gravity": [0, 0, 0],
      "fields": {"electric": [1, 2, 3], "magnetic": [0, 0, 0.5], "softening": 0.002},
      "gravitation": {"G": 0.01},
      "contact": {"model": "linear", "stiffness": 1000, "restitution": 1},
      "templates": {"ball": {"density": 1000, "inertia": "pebbles", "pebbles": [[0, 0, 0, 0.01]]}},
      "bodies": [{"template": "ball", "position": [0, 0, 0], "charge": 1e-6,
                  "electric_dipole": [1e-9, 0, 0], "magnetic_dipole": [0, 0.1, 0], "point_mass": true},
                 {"template": "ball", "position": [0.1, 0, 0]}]})";
    const Scene scene = parseScene(text, "fields.json");
    QCOMPARE(scene.model.settings.fields.electric, Vec3(1, 2, 3));
    QCOMPARE(scene.model.settings.fields.gravitationalConstant, 0.01);
    QCOMPARE(scene.pointOf(0).charge, 1e-6);
    QVERIFY(scene.pointOf(0).pointMass);
    QVERIFY(!scene.pointOf(1).any());
    auto world = buildWorld(scene);
    for (int k = 0; k < 10; ++k) QVERIFY(world->step());
    const std::string saved = sceneToJson(sceneFromWorld(*world, scene), ".");
    const Scene again = parseScene(saved, "saved.json");
    QCOMPARE(again.model.settings.fields.electric, scene.model.settings.fields.electric);
    QCOMPARE(again.model.settings.fields.magnetic, scene.model.settings.fields.magnetic);
    QCOMPARE(again.model.settings.fields.softening, 0.002);
    QCOMPARE(again.model.settings.fields.gravitationalConstant, 0.01);
    QVERIFY(again.pointOf(0) == world->bodies().point[0]);
    QVERIFY(!again.pointOf(1).any());
    QCOMPARE(sceneToJson(sceneFromWorld(*buildWorld(again), again), "."), saved);
  }

  // A template's point keys are its bodies' defaults; a body's or a generate entry's keys override
  // them one by one, and saved scenes and template files keep both exactly.
  void templateDefaults() {
    const std::string text = R"({"format": "clumplab-scene/1", "time_step": 1e-4, "gravity": [0, 0, 0],
      "contact": {"model": "linear", "stiffness": 1000, "restitution": 1},
      "templates": {"rod": {"density": 1000, "inertia": "pebbles", "charge": 2e-6, "magnetic_dipole": [0.1, 0, 0],
                            "pebbles": [[0, 0, 0, 0.01], [0.02, 0, 0, 0.01], [0.04, 0, 0, 0.01]]}},
      "bodies": [{"template": "rod", "position": [0, 0, 0]},
                 {"template": "rod", "position": [0.2, 0, 0], "charge": 0, "point_mass": true}],
      "generate": [{"template": "rod", "count": 3, "region": {"min": [0, 0.2, 0], "max": [0.3, 0.3, 0.1]},
                    "electric_dipole": [0, 0, 1e-9], "seed": 2}]})";
    const Scene scene = parseScene(text, "defaults.json");
    const ClumpTemplate& rod = *scene.model.templates[0];
    QCOMPARE(rod.point.charge, 2e-6);
    // The rod lies along x as written; its principal axis 1 (smallest moment) is that axis.
    QCOMPARE(std::abs((rod.rotationFromInput.conjugate() * rod.point.magneticDipole).x()), 0.1);
    QVERIFY(scene.pointOf(0) == rod.point);
    QCOMPARE(scene.pointOf(1).charge, 0.0);  // overridden, explicitly zero
    QVERIFY(scene.pointOf(1).pointMass);
    QCOMPARE(scene.pointOf(1).magneticDipole, rod.point.magneticDipole);  // not overridden
    for (std::size_t b = 2; b < 5; ++b) {
      QCOMPARE(scene.pointOf(b).charge, 2e-6);
      QVERIFY(scene.pointOf(b).electricDipole.norm() > 0.0);
    }
    auto world = buildWorld(scene);
    const std::string saved = sceneToJson(sceneFromWorld(*world, scene), ".");
    const Scene again = parseScene(saved, "saved.json");
    QCOMPARE(again.model.templates[0]->point.charge, 2e-6);
    for (std::size_t b = 0; b < 5; ++b) QVERIFY(again.pointOf(b) == scene.pointOf(b));
    QCOMPARE(sceneToJson(sceneFromWorld(*buildWorld(again), again), "."), saved);
    // A body added later without properties carries its template's (library spawns, the wizard).
    const std::uint32_t spawned =
        world->addBody({0, Vec3(1, 1, 1), Quat::Identity(), Vec3::Zero(), Vec3::Zero()});
    QVERIFY(world->bodies().point[spawned] == rod.point);
    // Template files too.
    const ClumpTemplate fromFile = parseTemplateFile(templateToJson(rod), "rod.json");
    QVERIFY(fromFile.point == rod.point);
    QVERIFY(!parseTemplateFile(templateToJson(*scene.model.templates[0]), "rod.json").point.pointMass);
    // Spheres keep them (they sit at the centre of mass).
    SceneLoadOptions spheres;
    spheres.spheres = SphereKind::Bounding;
    QVERIFY(parseScene(text, "defaults.json", spheres).pointOf(0) == rod.point);
  }

  void sceneErrorsNameTheField_data() {
    QTest::addColumn<QString>("replace");
    QTest::addColumn<QString>("by");
    QTest::addColumn<QString>("expected");
    QTest::newRow("fields key") << "\"fields\": {"
                                << "\"fields\": {\"electik\": [1, 0, 0], "
                                << "fields.electik: unknown key";
    QTest::newRow("field vector") << "\"magnetic\": [0, 0, 1]"
                                  << "\"magnetic\": [0, 1]"
                                  << "fields.magnetic";
    QTest::newRow("G") << "\"G\": 1"
                       << "\"G\": -1"
                       << "gravitation.G";
    QTest::newRow("charge") << "\"charge\": 1"
                            << "\"charge\": \"a lot\""
                            << "bodies[0].charge";
    QTest::newRow("dipole") << "\"magnetic_dipole\": [0, 0, 1]"
                            << "\"magnetic_dipole\": 1"
                            << "bodies[0].magnetic_dipole";
    QTest::newRow("point mass") << "\"point_mass\": true"
                                << "\"point_mass\": 1"
                                << "bodies[0].point_mass";
    QTest::newRow("plane") << "\"plane\": {\"normal\": \"xy\"}"
                           << "\"plane\": {\"normal\": \"xw\"}"
                           << "plane.normal: unknown plane";
    QTest::newRow("template charge") << "\"inertia\": \"pebbles\","
                                     << "\"inertia\": \"pebbles\", \"charge\": [1],"
                                     << "templates.ball.charge";
    QTest::newRow("membrane") << "\"walls\": ["
                              << "\"walls\": [{\"type\": \"membrane\", \"point\": [0, 0, 0], "
                                 "\"normal\": [1, 0, 0], \"pass_radius\": 0}"
                              << "walls[0].pass_radius";
  }
  void sceneErrorsNameTheField() {
    QFETCH(QString, replace);
    QFETCH(QString, by);
    QFETCH(QString, expected);
    QString text = R"({"format": "clumplab-scene/1", "time_step": 1e-4, "gravity": [0, 0, 0],
      "fields": {"magnetic": [0, 0, 1]}, "gravitation": {"G": 1}, "plane": {"normal": "xy"},
      "contact": {"model": "linear", "stiffness": 1000, "restitution": 1}, "walls": [],
      "templates": {"ball": {"density": 1000, "inertia": "pebbles", "pebbles": [[0, 0, 0, 0.01]]}},
      "bodies": [{"template": "ball", "position": [0, 0, 0], "charge": 1, "magnetic_dipole": [0, 0, 1],
                  "point_mass": true}]})";
    QVERIFY(text.contains(replace));
    parseScene(text.toStdString(), "ok.json");
    text.replace(replace, by);
    try {
      parseScene(text.toStdString(), "bad.json");
      QFAIL("the bad scene was accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains(expected), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(FieldsTest)
#include "tst_fields.moc"
