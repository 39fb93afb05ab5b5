// The committed scene of the cluster integration paper's test system,
// resources/scenes/cim-spherocylinders.json (made by clumplab-cli cim-scene): 746 spherocylinders (shaft 4
// mm, radius 1 mm, density 2700), a cubic periodic box of 5 cm (volume fraction 0.1), zero gravity, a linear
// repulsive spring only, buffer 0.6 mm, mean kinetic energy 6.13e-6 J per particle, no spin about the shafts,
// and rotational and translational energies in equipartition (2 rotational, 3 translational degrees of
// freedom: E_rot / E_trans = 2/3). And the generator: deterministic for a seed, and it reaches equipartition
// from a start with no rotation at all.
#include <QtTest>

#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/clump/Spherocylinder.hpp"
#include "core/scene/Scene.hpp"
#include "core/studies/SpherocylinderGas.hpp"

using namespace clumplab;
using namespace clumplab::test;

class CimPaperSceneTest : public QObject {
  Q_OBJECT
 private slots:
  void theCommittedSceneIsThePapers() {
    const Scene scene = loadScene(std::string(CLUMPLAB_SCENES_DIR) + "/cim-spherocylinders.json");
    QCOMPARE(scene.bodies.size(), std::size_t(746));
    QCOMPARE(scene.model.templates.size(), std::size_t(1));
    const ClumpTemplate& rod = *scene.model.templates.front();
    QVERIFY(isSpherocylinder(rod));
    QCOMPARE(rod.pebbles.front().radius, 1e-3);
    QCOMPARE(2.0 * rod.pebbles.front().halfLength, 4e-3);
    CLUMPLAB_COMPARE_REL(rod.mass, spherocylinderMass(1e-3, 4e-3, 2700.0).mass, 1e-15);
    const PeriodicBox& box = scene.model.settings.periodic;
    QVERIFY(box.periodic[0] && box.periodic[1] && box.periodic[2]);
    QCOMPARE(box.length, Vec3::Constant(0.05));
    QVERIFY(scene.model.walls.empty());
    QCOMPARE(scene.model.settings.gravity, Vec3::Zero());
    QCOMPARE(scene.model.settings.integrator, IntegratorKind::Cim);
    QCOMPARE(scene.model.settings.cim.buffer, 6e-4);
    QCOMPARE(scene.model.settings.cim.relativeTolerance, 1e-5);
    QCOMPARE(scene.model.settings.cim.absoluteTolerance, 1e-20);
    // A linear repulsive spring only: no dashpot, no friction.
    QCOMPARE(scene.model.contact.kind, ContactModel::Kind::Linear);
    QVERIFY(!scene.model.contact.linear.dampingFromRestitution);
    QCOMPARE(scene.model.contact.linear.damping, 0.0);
    QCOMPARE(scene.model.contact.linear.friction, 0.0);

    const double fraction = 746.0 * rod.volume / std::pow(0.05, 3);
    qInfo("volume fraction %.6f", fraction);
    CLUMPLAB_COMPARE_REL(fraction, 0.1, 1e-3);

    auto world = buildWorld(scene);
    const EnergyReport e = world->energy();
    const double mean = (e.keTranslational + e.keRotational) / 746.0;
    const double ratio = e.keRotational / e.keTranslational;
    double axialSpin = 0.0, spin = 0.0, inBox = 0.0;
    const BodyState& b = world->bodies();
    for (std::size_t i = 0; i < b.size(); ++i) {
      const Vec3 u = b.orientation[i] * rod.pebbles.front().axis;
      axialSpin = std::max(axialSpin, std::abs(b.angularVelocity[i].dot(u)));
      spin = std::max(spin, b.angularVelocity[i].norm());
      inBox += (b.position[i].array() >= 0.0).all() && (b.position[i].array() < 0.05).all() ? 1.0 : 0.0;
    }
    qInfo(
        "mean kinetic energy %.6g J, E_rot/E_trans %.4f, largest spin about a shaft %.3g rad/s (largest spin "
        "%.3g), |P| %.3g, elastic energy %.3g J",
        mean, ratio, axialSpin, spin, e.momentum.norm(), e.peElastic);
    CLUMPLAB_COMPARE_REL(mean, 6.13e-6, 1e-9);
    CLUMPLAB_COMPARE_REL(ratio, 2.0 / 3.0, 0.02);
    CLUMPLAB_VERIFY_LESS(axialSpin, 1e-9 * spin);
    QCOMPARE(inBox, 746.0);
    // Equilibrated with the repulsive spring of the scene: a few shallow overlaps, little energy in them.
    CLUMPLAB_VERIFY_LESS(e.peElastic, 1e-3 * (e.keTranslational + e.keRotational));
    CLUMPLAB_VERIFY_LESS(e.momentum.norm(), 1e-3 * 746.0 * rod.mass * 0.4);
    // It runs as the cim integrator's scene: 20 ms keep the energy (a smoke run; cim-table is the test).
    for (int n = 0; n < 20; ++n) QVERIFY(world->step());
    qInfo("after 20 ms: %zu contacts, the largest overlap %.3g radii", world->contactCount(),
          world->state().worstOverlapRatio);
    CLUMPLAB_VERIFY_LESS(std::abs(world->energy().total() / e.total() - 1.0), 1e-3);
  }

  // The committed file is the generator's output (clumplab-cli cim-scene --seed 1 --stiffness 1e5):
  // made again here, its bodies are the file's to the bit.
  void theCommittedSceneIsWhatTheGeneratorMakes() {
    const Scene file = loadScene(std::string(CLUMPLAB_SCENES_DIR) + "/cim-spherocylinders.json");
    cim::SpherocylinderGasRequest r;
    r.stiffness = 1e5;
    const cim::SpherocylinderGasResult made = cim::makeSpherocylinderGas(r);
    QCOMPARE(made.scene.bodies.size(), file.bodies.size());
    for (std::size_t i = 0; i < file.bodies.size(); ++i) {
      const BodyInit &a = file.bodies[i], &b = made.scene.bodies[i];
      QVERIFY2(a.position == b.position && a.velocity == b.velocity &&
                   a.angularVelocity == b.angularVelocity && a.orientation.coeffs() == b.orientation.coeffs(),
               qPrintable(QString("body %1 differs").arg(i)));
    }
    QCOMPARE(file.model.contact.linear.stiffness, 1e5);
  }

  // The generator on a small box: the same bits for the same seed, and equipartition reached from
  // translation only.
  void theGeneratorIsDeterministicAndReachesEquipartition() {
    cim::SpherocylinderGasRequest r;
    r.count = 120;
    r.boxLength = 0.027;
    r.minTime = 0.05;
    r.window = 0.01;
    r.tolerance = 0.05;
    double first = -1.0;
    r.progress = [&](double, double ratio, double) {
      if (first < 0.0) first = ratio;
    };
    const cim::SpherocylinderGasResult a = cim::makeSpherocylinderGas(r);
    const cim::SpherocylinderGasResult b = cim::makeSpherocylinderGas(r);
    qInfo("volume fraction %.4f, E_rot/E_trans %.4f after the first ms, %.4f after %.3g s", a.volumeFraction,
          first, a.ratio, a.equilibrationTime);
    QCOMPARE(a.scene.bodies.size(), std::size_t(120));
    CLUMPLAB_VERIFY_LESS(first, 0.3);
    CLUMPLAB_COMPARE_REL(a.ratio, 2.0 / 3.0, 0.025);
    for (std::size_t i = 0; i < a.scene.bodies.size(); ++i) {
      QVERIFY(a.scene.bodies[i].position == b.scene.bodies[i].position);
      QVERIFY(a.scene.bodies[i].velocity == b.scene.bodies[i].velocity);
      QVERIFY(a.scene.bodies[i].angularVelocity == b.scene.bodies[i].angularVelocity);
    }
  }
};

QTEST_GUILESS_MAIN(CimPaperSceneTest)
#include "tst_cim_paper_scene.moc"
