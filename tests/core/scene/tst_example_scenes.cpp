// The example scenes of resources/scenes: every one loads and runs, and the seed examples behave
// as their papers say (MercuryDPM rigid clumps, §4.1 equipartition, Mutze, Polyspherical grains, §8 energy in
// the cavity).
#include <QDir>
#include <QtTest>

#include "BuildSize.hpp"
#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/scene/Scene.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {
std::string scenePath(const char* name) {
  return std::string(CLUMPLAB_SCENES_DIR) + "/" + name;
}

// Largest |E(t) - E(0)| over the first `duration` seconds, and the final deviation.
std::pair<double, double> energyDeviation(Scene scene, double dt, double duration) {
  scene.model.settings.timeStep = dt;
  auto world = buildWorld(scene);
  const double e0 = world->energy().total();
  double worst = 0.0;
  while (world->time() < duration) {
    test::mustStep(*world);
    worst = std::max(worst, std::abs(world->energy().total() - e0));
  }
  return {worst, std::abs(world->energy().total() - e0)};
}
}  // namespace

class ExampleScenesTest : public QObject {
  Q_OBJECT
 private slots:
  void everySceneLoadsAndRuns() {
    const QStringList files = QDir(CLUMPLAB_SCENES_DIR).entryList({"*.json"});
    QVERIFY(files.size() >= 4);
    for (const QString& f : files) {
      Scene scene;
      try {
        scene = loadScene(scenePath(qPrintable(f)));
      } catch (const InputError& e) {
        // Scenes naming meshes or built-in shapes need the shapes library (tests/shapes runs them).
        QVERIFY2(QString(e.what()).contains("need the shapes library"), e.what());
        continue;
      }
      auto world = buildWorld(scene);
      for (int n = 0; n < 20; ++n) QVERIFY2(world->step(), qPrintable(f));
      QVERIFY2(!scene.description.empty(), qPrintable(f + " needs a description"));
    }
  }

  void benchSceneMatchesTheSharedCopy() {
    // resources/scenes/tbar-bulk.json is ClumpLab's copy of the shared benchmark scene.
    const Scene scene = loadScene(scenePath("tbar-bulk.json"));
    QCOMPARE(scene.bodies.size(), std::size_t(1000));
    QCOMPARE(scene.model.templates[0]->pebbles.size(), std::size_t(10));
  }

  void equipartitionInAnElasticBox() {
    // MercuryDPM rigid clumps, §4.1: all six degrees of freedom active -> <E_rot> / <E_trans> -> 1 (within
    // 10%). The scene's 80 s; 30 s under the sanitizers (8e6 steps took 75 s under ASan), where the running
    // ratio is already 0.97 (0.95 at 20 s, 0.99 at 40 s in the release build).
    Scene scene = loadScene(scenePath("single-equipartition.json"));
    scene.duration = sizedForBuild(scene.duration, 30.0);
    auto world = buildWorld(scene);
    double rot = 0.0, trans = 0.0;
    const double dt = scene.model.settings.timeStep;
    while (world->time() < scene.duration) {
      test::mustStep(*world);
      if (world->time() > 2.0) {  // after the first collisions have mixed the energy
        const BodyState& s = world->bodies();
        const Vec3 wb = s.bodyAngularVelocity(0);
        rot += 0.5 * wb.dot(s.moments[0].cwiseProduct(wb)) * dt;
        trans += 0.5 * s.mass[0] * s.velocity[0].squaredNorm() * dt;
      }
    }
    qInfo("<E_rot>/<E_trans> = %.3f over %.0f s", rot / trans, scene.duration - 2.0);
    CLUMPLAB_COMPARE_REL(rot / trans, 1.0, 0.10);
  }

  void stableAndUnstableAxes() {
    // Three T-bars spun about axes 1, 2 and 3 with the same 1% perturbation: about 1 and 3 the
    // spin axis stays within a small cone of the body axis; about 2 it flips, at the interval
    // Landau & Lifshitz §37 predict (within 1%).
    Scene scene = loadScene(scenePath("stable-unstable-axes.json"));
    auto world = buildWorld(scene);
    QCOMPARE(world->bodies().size(), std::size_t(3));
    const Vec3 I = scene.model.templates[0]->principalMoments;
    const double predicted = predictFlips(I, world->bodies().bodyAngularVelocity(1)).halfPeriod;
    const double approximate = smallPerturbationHalfPeriod(I, 10.0, 0.01);
    FlipCounter flips;
    double cone[3] = {0.0, 0.0, 0.0};  // largest angle between omega and the spun axis [rad]
    while (world->time() < scene.duration) {
      test::mustStep(*world);
      for (int b = 0; b < 3; ++b) {
        const Vec3 w = world->bodies().bodyAngularVelocity(static_cast<std::size_t>(b));
        cone[b] = std::max(cone[b], std::acos(std::min(1.0, std::abs(w[b]) / w.norm())));
      }
      flips.add(world->time(), world->bodies().bodyAngularVelocity(1)[1]);
    }
    qInfo(
        "cones: axis 1 %.2f deg, axis 2 %.1f deg, axis 3 %.2f deg; %zu flips every %.4f s "
        "(predicted %.4f s, small-epsilon %.4f s)",
        cone[0] * 180 / M_PI, cone[1] * 180 / M_PI, cone[2] * 180 / M_PI, flips.count(), flips.meanInterval(),
        predicted, approximate);
    CLUMPLAB_VERIFY_LESS(cone[0], 0.05);  // 1% perturbation: a cone of a few hundredths of a radian
    CLUMPLAB_VERIFY_LESS(cone[2], 0.05);
    QVERIFY(cone[1] > M_PI / 3);
    QVERIFY(flips.count() >= 3);
    CLUMPLAB_COMPARE_REL(flips.meanInterval(), predicted, 0.01);
  }

  void bulkTbarsHaveArbitraryVelocitiesAndSettle() {
    // MercuryDPM rigid clumps, §4.4: 100 T-bars, random velocities and spins (within the balls asked for,
    // pointing every way), come to rest on the floor; total + dissipated stays constant meanwhile.
    Scene scene = loadScene(scenePath("bulk-tbars.json"));
    QCOMPARE(scene.bodies.size(), std::size_t(100));
    Vec3 meanVelocity = Vec3::Zero();
    double fastest = 0.0, fastestSpin = 0.0, slowest = 1.0;
    for (const BodyInit& b : scene.bodies) {
      meanVelocity += b.velocity / 100.0;
      fastest = std::max(fastest, b.velocity.norm());
      slowest = std::min(slowest, b.velocity.norm());
      fastestSpin = std::max(fastestSpin, b.angularVelocity.norm());
    }
    QVERIFY(fastest <= 0.3 && fastest > 0.25 && slowest < 0.1);
    QVERIFY(fastestSpin <= 30.0 && fastestSpin > 25.0);
    CLUMPLAB_VERIFY_LESS(meanVelocity.norm(), 0.06);  // no preferred direction (sigma ~ 0.02 m/s)
    auto world = buildWorld(scene);
    const EnergyReport e0 = world->energy();
    while (world->time() < scene.duration) QVERIFY(world->step());
    const EnergyReport e = world->energy();
    const double kinetic = e.keTranslational + e.keRotational;
    qInfo("after %.1f s: kinetic %.3g J of %.3g J at the start; balance drift %.2g%%", scene.duration,
          kinetic, e0.keTranslational + e0.keRotational,
          100.0 * (e.total() + e.dissipated - e0.total()) / e0.total());
    CLUMPLAB_VERIFY_LESS(kinetic, 1e-3 * (e0.keTranslational + e0.keRotational));
    CLUMPLAB_VERIFY_LESS(std::abs(e.total() + e.dissipated - e0.total()), 0.01 * std::abs(e0.total()));
  }

  void selfRightingBodyEndsUpright() {
    // Laid on its side, the roly-poly rocks back until its head points up (within 3 degrees).
    Scene scene = loadScene(scenePath("self-righting.json"));
    const ClumpTemplate& t = *scene.model.templates[0];
    // The centre of mass lies below the hull's centre: the condition for righting itself.
    QVERIFY(t.centerOfMassInInput.z() < -0.005);
    auto world = buildWorld(scene);
    const Vec3 headInBody = t.rotationFromInput * Vec3::UnitZ();
    const double start = std::acos((world->bodies().orientation[0] * headInBody).z());
    while (world->time() < scene.duration) QVERIFY(world->step());
    const double tilt = std::acos(std::min(1.0, (world->bodies().orientation[0] * headInBody).z()));
    qInfo("tilt %.1f deg at the start, %.2f deg after %.0f s", start * 180 / M_PI, tilt * 180 / M_PI,
          scene.duration);
    QVERIFY(start > 1.4);
    CLUMPLAB_VERIFY_LESS(tilt, 3.0 * M_PI / 180);
  }

  void tenGrainsEnergyScalesWithDtSquared() {
    // Mutze, Polyspherical grains, §8, Fig. 2: during the first impacts the energy deviates by a term
    // proportional to dt^2, and it stays bounded (no drift) through the collisions that follow.
    const Scene scene = loadScene(scenePath("ten-grains-cavity.json"));
    double scale = 0.0;  // the potential energy of the fall to the cavity wall
    for (const BodyInit& b : scene.bodies)
      scale += scene.model.templates[b.templateIndex]->mass * scene.model.settings.gravity.norm() * 0.0442;
    const auto [coarse, coarseFinal] = energyDeviation(scene, 2e-6, 0.0035);
    const auto [fine, fineFinal] = energyDeviation(scene, 1e-6, 0.0035);
    qInfo("first impacts: max |dE|/E_fall = %.3g (dt 2e-6), %.3g (dt 1e-6), ratio %.2f", coarse / scale,
          fine / scale, coarse / fine);
    QVERIFY2(coarse / fine > 2.5 && coarse / fine < 6.0, qPrintable(QString("ratio %1").arg(coarse / fine)));
    const auto [whole, wholeFinal] = energyDeviation(scene, 1e-6, scene.duration);
    qInfo("over %.3g s at dt 1e-6: max |dE|/E_fall = %.3g, final %.3g", scene.duration, whole / scale,
          wholeFinal / scale);
    CLUMPLAB_VERIFY_LESS(whole / scale, 5e-4);
  }
};

QTEST_GUILESS_MAIN(ExampleScenesTest)
#include "tst_example_scenes.moc"
