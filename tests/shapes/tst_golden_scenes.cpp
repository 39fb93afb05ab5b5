// The guard rail for refactoring the engine: every committed example scene, advanced a few hundred
// steps from its file, to the bit against a hash recorded when the scene last meant to change. The
// hash covers the bodies' state, the energy ledger (dissipated, external, wall and inserted work)
// and the energy report (elastic and field energy included), so a change in the force stages, the
// integrators, the bookkeeping or energy() shows. A change that means to change the physics updates
// these figures and says so in its commit; any other change must leave them.
#include <QtTest>

#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/scene/Scene.hpp"
#include "shapes/SceneLoading.hpp"

using namespace clumplab;

namespace {
struct SceneRun {
  std::uint64_t hash = 0;
  std::size_t contacts = 0;
  std::size_t bodies = 0;
};

SceneRun runScene(const std::string& file, int steps) {
  const Scene scene = loadScene(std::string(CLUMPLAB_SCENES_DIR) + "/" + file, shapes::sceneLoadOptions());
  auto world = buildWorld(scene);
  std::size_t contacts = 0;
  for (int n = 0; n < steps; ++n) {
    test::mustStep(*world);
    contacts = std::max(contacts, world->contactCount());
  }
  std::uint64_t h = test::stateHash(*world);
  for (const double v : {world->time(), world->state().ledger.dissipated, world->state().ledger.externalWork,
                         world->state().ledger.wallWork, world->state().ledger.inserted})
    h = test::mixBits(h, v);
  const EnergyReport e = world->energy();
  for (const double v : {e.keTranslational, e.keRotational, e.peGravity, e.peElastic, e.peFields})
    h = test::mixBits(h, v);
  return {h, contacts, world->bodies().size()};
}
}  // namespace

class GoldenScenesTest : public QObject {
  Q_OBJECT
 private slots:
  void sameBitsAsRecorded_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("steps");
    QTest::addColumn<quint64>("golden");
    // Recorded at 16a5834 (before the engine's state became one value); default, pill-bottle,
    // inlet-hopper, fine-clumps-one-coarse and polydisperse-pile again when their time steps came
    // down to the recommended ones (issue 38: the faces' stiffest modes), over the same simulated time;
    // fine-clumps-one-coarse and polydisperse-pile again when a count fill searched the grid's phase
    // (issue 39: their wing nuts' "count": 300 gave 326 pebbles, now 301); osmosis-box when bodies of
    // equal principal moments (its spheres) came to turn in the world frame without the Euler solve
    // (issue 41: the same rotation, other round-off).
    const auto row = [](const char* file, int steps, quint64 golden) {
      QTest::newRow(file) << QString(file) << steps << golden;
    };
    row("default.json", 10000, 0x61aba63b85e5b47dULL);
    row("pill-bottle.json", 4200, 0x035f82d31286a5dbULL);
    row("rotating-drum.json", 1200, 0x1d5f8c2db954f5b8ULL);
    row("periodic-shear-box.json", 800, 0xe84b56d9b6226168ULL);
    row("inlet-hopper.json", 20000, 0xcd3169764e713430ULL);
    row("charges-in-fields-2d.json", 7500, 0xef929eb4d69b2c34ULL);
    row("cim-tbar-gas.json", 60, 0x6f508ec3494689fcULL);
    row("cim-spherocylinders.json", 40, 0xec02602793912974ULL);
    row("spherocylinders.json", 1200, 0x5465edde037f708cULL);
    row("osmosis-box.json", 3000, 0xd083104ff768ca70ULL);
    row("ten-grains-cavity.json", 2300, 0xa7763edf1de6944fULL);
    row("self-righting.json", 2000, 0x2b282896ef998673ULL);
    row("fine-clumps-one-coarse.json", 70000, 0x73546cd681a057b8ULL);
    row("polydisperse-pile.json", 56000, 0x0ff6a3ce3abfaf7bULL);
    row("tbar-bulk.json", 4000, 0xbe683270c6c9221cULL);
    row("tbar-dzhanibekov.json", 2000, 0x12c5d3c7dd538d71ULL);
    row("order-two-tbars.json", 2700, 0xd5d99bd425a9f075ULL);
  }
  void sameBitsAsRecorded() {
    QFETCH(QString, file);
    QFETCH(int, steps);
    QFETCH(quint64, golden);
    const SceneRun run = runScene(file.toStdString(), steps);
    qInfo("%s: 0x%016llx (%zu bodies, at most %zu contacts)", qPrintable(file),
          static_cast<unsigned long long>(run.hash), run.bodies, run.contacts);
    QCOMPARE(run.hash, static_cast<std::uint64_t>(golden));
  }
};

QTEST_GUILESS_MAIN(GoldenScenesTest)
#include "tst_golden_scenes.moc"
