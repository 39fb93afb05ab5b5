// A checkpoint holds the model, the state and the history the contacts hold, not the broad phase's
// lists: World::restore lists pairs afresh around that history. A run restored from a checkpoint
// every 100 steps (each time after a detour that the restore undoes) must give the bits of the run
// that never stopped: bodies, the energy ledger, the contact counts. For each contact law (the linear
// spring, Hertz-Mindlin's stiffness kept beside the spring, Mutze's largest overlap), each integrator
// (its history is in the state: leapfrog's body-frame angular velocities, the midpoint method's
// accelerations, cim's and rk4's bodies, largest overlaps and carried cluster lists), spherocylinders,
// periodic axes, mesh walls and bodies an inlet adds mid-run, over a pile that settles.
#include <QtTest>

#include "InletWorlds.hpp"
#include "MeshWallSupport.hpp"
#include "SceneBuilders.hpp"
#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/scene/Scene.hpp"

Q_DECLARE_METATYPE(clumplab::Scene)

using namespace clumplab;

namespace {

// What must come out the same to the bit, and what shows the run meant something.
struct RunFigures {
  std::uint64_t hash = 0;    // bodies (test::stateHash) and the ledger
  std::uint64_t booked = 0;  // each step's dissipation booked by the contacts (run())
  std::size_t contacts = 0;
  std::size_t heldPairs = 0;  // entries of the contact history that hold something, at the end
  std::size_t rebuilds = 0;   // of the broad phase
};

std::uint64_t ledgerHash(const World& world, std::uint64_t h) {
  const EnergyLedger& l = world.state().ledger;
  for (const double v : {l.dissipated, l.externalWork, l.wallWork, l.inserted, world.time()})
    h = test::mixBits(h, v);
  return h;
}

RunFigures figures(const World& world) {
  return {ledgerHash(world, test::stateHash(world)), 0, world.contactCount(),
          world.state().contactHistory.heldCount() + world.state().meshContacts.history().size(),
          world.neighbors().rebuildCount()};
}

// `steps` steps straight, or with a checkpoint every `every` steps, `detour` steps past it and a
// restore back to it before the `every` steps go on.
RunFigures run(const Scene& scene, int steps, int every, int detour) {
  auto world = buildWorld(scene);
  // What each evaluation's pebble and plane-wall contacts book as dissipated, summed in chunk order
  // as World books it, mixed in step by step: the ledger alone would hide a change in its last bits
  // (dissipated is far larger than one step's share).
  std::uint64_t booked = 0;
  const auto step = [&] {
    test::mustStep(*world);
    double lost = 0.0;
    const ContactSolver& contacts = world->state().contacts;
    for (std::size_t c = 0; c < contacts.chunkCount(); ++c)
      lost += contacts.chunks()[c].hysteresisLoss - contacts.chunks()[c].springEnergyChange;
    booked = test::mixBits(booked, lost);
  };
  for (int done = 0; done < steps; done += every) {
    if (detour > 0) {
      const WorldCheckpoint saved = world->checkpoint();
      for (int k = 0; k < detour; ++k) test::mustStep(*world);
      world->restore(saved);
    }
    for (int k = 0; k < every && done + k < steps; ++k) step();
  }
  RunFigures f = figures(*world);
  f.booked = booked;
  return f;
}

// The T-bar pile of tbarPileJson on a floor, periodic along x and y instead of the box's sides.
Scene periodicPile() {
  std::string text = test::tbarPileJson({.skin = 1.5e-3, .count = 120, .top = 0.05});
  const std::string walls =
      R"("walls": [ { "type": "box", "min": [-0.02, -0.02, 0], "max": [0.02, 0.02, 0.08] } ],)";
  const std::size_t at = text.find(walls);
  if (at == std::string::npos) qFatal("tbarPileJson's walls changed");
  text.replace(at, walls.size(), R"("walls": [ { "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1] } ],
  "periodic": { "min": [-0.02, -0.02, -1], "max": [0.02, 0.02, 1], "axes": "xy" },)");
  return parseScene(text, "periodic-pile.json");
}

Scene tbarPile(const ContactModel& contact, const char* integrator) {
  Scene scene = parseScene(test::tbarPileJson({.skin = 1.5e-3, .count = 120, .top = 0.05}), "pile.json");
  scene.model.contact = contact;
  scene.model.settings.integrator = *integratorFromName(integrator);
  return scene;
}

ContactModel linear() {
  ContactModel m;
  m.kind = ContactModel::Kind::Linear;
  m.linear.stiffness = 1e3;
  m.linear.restitution = 0.5;
  m.linear.friction = 0.5;
  return m;
}

ContactModel hertzMindlin() {
  ContactModel m;
  m.kind = ContactModel::Kind::HertzMindlin;
  m.hertzMindlin.youngsModulus = 1e7;
  m.hertzMindlin.restitution = 0.5;
  m.hertzMindlin.friction = 0.5;
  return m;
}

ContactModel mutzeHertz() {
  ContactModel m;
  m.kind = ContactModel::Kind::Hertz;
  m.hertz.young = 5e6;
  m.hertz.restitutionSquared = 0.5;
  m.hertz.friction = 0.3;
  return m;
}

// The T-bar pile with a V-shaped mesh floor in its box: pebbles slide across the fold, their springs
// handed from face to face (MeshWallContacts.hpp).
Scene meshFloorPile() {
  Scene scene = tbarPile(linear(), "leapfrog");
  scene.model.walls.push_back(test::meshWall(test::fold(0.02, 0.02, 0.08)));
  return scene;
}

Scene committed(const char* file) {
  return loadScene(std::string(CLUMPLAB_SCENES_DIR) + "/" + file);
}

// Sixty T-bars and dumbbells poured fast into a box (the inlet tests' templates): they come in
// during the first checkpoints (each with its integrator history started while the others keep
// theirs) and land within the run.
Scene inletPile(const char* integrator) {
  Scene scene;
  scene.file = "inlet-pile.json";
  scene.model.settings.timeStep = 1e-5;
  scene.model.settings.integrator = *integratorFromName(integrator);
  scene.model.contact = linear();
  scene.model.walls = Wall::box(Vec3(-0.02, -0.02, 0), Vec3(0.02, 0.02, 0.08));
  scene.model.templates = {test::templateFromPebbles(test::tbarPebbles(), 2500.0, "tbar"),
                           test::templateFromPebbles(test::dumbbellPebbles(), 2500.0, "dumbbell")};
  InletSettings in;
  in.region.min = Vec3(-0.018, -0.018, 0.04);
  in.region.max = Vec3(0.018, 0.018, 0.07);
  in.templates = {0, 1};
  in.weights = {2.0, 1.0};
  in.massRate = 0.5;
  in.maxCount = 60;
  in.velocity = Vec3(0, 0, -1);
  in.velocitySpread = 0.1;
  in.seed = 7;
  scene.inlets.emplace_back(in);
  return scene;
}

}  // namespace

class TestCheckpointChain : public QObject {
  Q_OBJECT

 private slots:
  void restoredEveryHundredStepsKeepsTheBits_data() {
    QTest::addColumn<Scene>("scene");
    QTest::addColumn<int>("steps");
    QTest::addColumn<int>("minHeld");  // held history entries the run must end with
    QTest::newRow("linear") << tbarPile(linear(), "leapfrog") << 8000 << 50;
    QTest::newRow("hertz-mindlin") << tbarPile(hertzMindlin(), "leapfrog") << 8000 << 50;
    QTest::newRow("mutze-hertz") << tbarPile(mutzeHertz(), "leapfrog") << 8000 << 50;
    QTest::newRow("midpoint") << tbarPile(linear(), "midpoint") << 8000 << 50;
    QTest::newRow("splitting") << tbarPile(linear(), "splitting") << 8000 << 50;
    QTest::newRow("spherocylinders") << committed("spherocylinders.json") << 4000 << 20;
    QTest::newRow("periodic") << periodicPile() << 8000 << 50;
    QTest::newRow("mesh-walls") << meshFloorPile() << 8000 << 50;
    QTest::newRow("inlet-leapfrog") << inletPile("leapfrog") << 12000 << 20;
    QTest::newRow("inlet-midpoint") << inletPile("midpoint") << 12000 << 20;
  }
  void restoredEveryHundredStepsKeepsTheBits() {
    QFETCH(Scene, scene);
    QFETCH(int, steps);
    QFETCH(int, minHeld);
    const RunFigures straight = run(scene, steps, steps, 0);
    const RunFigures chained = run(scene, steps, 100, 37);
    qInfo("%zu contacts, %zu held entries; rebuilds %zu straight, %zu restored", straight.contacts,
          straight.heldPairs, straight.rebuilds, chained.rebuilds);
    QVERIFY2(
        straight.heldPairs >= static_cast<std::size_t>(minHeld),
        qPrintable(QString("the run must end with contacts that hold history (%1)").arg(straight.heldPairs)));
    QVERIFY(chained.rebuilds > straight.rebuilds);  // the lists were built at other times
    QCOMPARE(chained.contacts, straight.contacts);
    QCOMPARE(chained.heldPairs, straight.heldPairs);
    QCOMPARE(chained.booked, straight.booked);
    QCOMPARE(chained.hash, straight.hash);
  }

  // cim and rk4 keep the contacts' memory (Mutze's largest overlaps) and their bodies in the
  // integrator's history, not in World's contact history or broad phase: the bits must still follow.
  void ownForcesIntegratorsRestoreTheirHistory_data() {
    QTest::addColumn<Scene>("scene");
    QTest::newRow("cim") << tbarPile(mutzeHertz(), "cim");
    QTest::newRow("rk4") << tbarPile(mutzeHertz(), "rk4");
  }
  void ownForcesIntegratorsRestoreTheirHistory() {
    QFETCH(Scene, scene);
    const int steps = 8000;
    const RunFigures straight = run(scene, steps, steps, 0);
    const RunFigures chained = run(scene, steps, 100, 37);
    qInfo("%zu contacts at the end", straight.contacts);
    QVERIFY2(straight.contacts > 20, "the pile must have formed");
    QCOMPARE(chained.contacts, straight.contacts);
    QCOMPARE(chained.hash, straight.hash);
  }
};

QTEST_GUILESS_MAIN(TestCheckpointChain)
#include "tst_checkpoint_chain.moc"
