// Periodic boundaries (Meland et al., Cluster integration method), whole worlds: a fully periodic gas of
// T-bars conserves momentum to round-off and total + dissipated energy, stays in the primary box, keeps every
// touching pair in its neighbour list and gives the same bits with 1 and 2 threads; checkpoints and body
// removal across faces; generation without overlaps through the faces; scene files (round trip to the bit,
// errors for short boxes, bad keys, walls across a periodic axis, the 2D switch).
#include <QtTest>
#include <set>

#include "BuildSize.hpp"
#include "SceneBuilders.hpp"
#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/scene/Scene.hpp"
#include "core/scene/SceneOverlap.hpp"
#include "core/scene/ScenePlane.hpp"
#include "core/world/Generation.hpp"
#include "core/world/PeriodicChecks.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

// 240 T-bars (about 1 cm) in a 6 x 5 x 5.5 cm box periodic in x, y and z, random speeds and spins,
// partly dissipative contacts with friction, no gravity.
std::string gasScene(const std::string& integrator = "leapfrog") {
  return withTbar(R"({
  "format": "clumplab-scene/1", "time_step": 1e-5, "integrator": ")" +
                  integrator + R"(", "gravity": [0, 0, 0],
  "contact": { "model": "linear", "stiffness": 1e3, "restitution": 0.7, "friction": 0.3 },
  "periodic": { "min": [-0.03, 0.01, -0.02], "max": [0.03, 0.06, 0.035], "axes": "xyz" },
  "templates": { TBAR },
  "generate": [ { "template": "tbar", "count": 240, "region": { "min": [-0.03, 0.01, -0.02], "max": [0.03, 0.06, 0.035] },
                  "random_orientation": true, "scale": [0.9, 1.1], "random_speed": 0.6, "random_spin": 60, "seed": 5 } ]
})");
}

std::unique_ptr<World> gasWorld(int threads, const std::string& integrator = "leapfrog",
                                bool elastic = false) {
  std::string text = gasScene(integrator);
  if (elastic) {
    const std::string from = R"("restitution": 0.7, "friction": 0.3)";
    text.replace(text.find(from), from.size(), R"("restitution": 1, "friction": 0)");
  }
  Scene scene = parseScene(text, "gas.json");
  scene.model.settings.threads = threads;
  return buildWorld(scene);
}

bool insideBox(const PeriodicBox& box, const Vec3& x) {
  for (int a = 0; a < 3; ++a) {
    if (box.periodic[a] && !(x[a] >= box.lower[a] && x[a] < box.lower[a] + box.length[a])) return false;
  }
  return true;
}

// Every touching pebble pair of two bodies (by the minimum image) is in the neighbour list.
int missingTouchingPairs(const World& w) {
  const PebbleArrays& p = w.state().pebbles;
  const PeriodicBox& box = w.model().settings.periodic;
  std::set<std::pair<std::uint32_t, std::uint32_t>> listed;
  for (const PebblePair& pair : w.state().contactHistory.pairs) listed.insert({pair.a, pair.b});
  int missing = 0;
  for (std::uint32_t i = 0; i < p.position.size(); ++i) {
    for (std::uint32_t j = i + 1; j < p.position.size(); ++j) {
      if (p.body[i] == p.body[j]) continue;
      const double range = p.radius[i] + p.radius[j];
      if (box.minimumImage(p.position[j] - p.position[i]).squaredNorm() < range * range &&
          listed.count({i, j}) == 0)
        ++missing;
    }
  }
  return missing;
}

std::uint64_t gasHash(int threads, const std::string& integrator, int steps) {
  auto world = gasWorld(threads, integrator);
  for (int n = 0; n < steps; ++n) test::mustStep(*world);
  if (world->contactCount() == 0) qFatal("the gas must have contacts for this test to mean anything");
  std::uint64_t bits = 0;
  const double dissipated = world->state().ledger.dissipated;
  std::memcpy(&bits, &dissipated, sizeof bits);
  return (stateHash(*world) ^ bits) * 1099511628211ULL;
}

const char* kShortBox = R"({
  "format": "clumplab-scene/1", "time_step": 1e-5,
  "contact": { "model": "linear", "stiffness": 1e3, "restitution": 0.5 },
  "periodic": { "min": [0, 0, 0], "max": [0.05, 0.02, 0.05], "axes": "xy" },
  "walls": [ { "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1] } ],
  "templates": { "ball": { "density": 2500, "pebbles": [[0, 0, 0, 0.004]] } },
  "bodies": [ { "template": "ball", "position": [0.01, 0.01, 0.01] } ] })";

std::string replaced(const std::string& from, const std::string& to, std::string text) {
  const auto at = text.find(from);
  if (at == std::string::npos) qFatal("test scene lacks '%s'", from.c_str());
  return text.replace(at, from.size(), to);
}

}  // namespace

class PeriodicWorldTest : public QObject {
  Q_OBJECT
 private slots:
  void gasConservesAndStaysInTheBox();
  void gasThreadCountDoesNotChangeTheResult_data();
  void gasThreadCountDoesNotChangeTheResult();
  void checkpointAcrossWrapsRepeatsBitForBit();
  void removingABodyAcrossAFaceKeepsForcesConsistent();
  void generationAvoidsOverlapsThroughTheFaces();
  void floorWithPeriodicSidesRuns();
  void savedPeriodicWorldLoadsBack();
  void shortBoxesAreRefused();
  void badKeysAreRefused_data();
  void badKeysAreRefused();
  void worldChecksItsOwnEdits();
  void planeSwitchDropsTheAxisAcrossIt();
};

void PeriodicWorldTest::gasConservesAndStaysInTheBox() {
  auto world = gasWorld(1);
  const PeriodicBox box = world->model().settings.periodic;
  const EnergyReport start = world->energy();
  const double e0 = start.keTranslational + start.keRotational;
  double momentumScale = 0.0;
  for (std::size_t b = 0; b < world->bodies().size(); ++b)
    momentumScale += world->bodies().mass[b] * world->bodies().velocity[b].norm();
  double worstMomentum = 0.0, worstBalance = 0.0;  // changes since the start
  std::size_t acrossFaces = 0, wraps = 0, contacts = 0;
  std::vector<Vec3> last = world->bodies().position;
  for (int n = 1; n <= 6000; ++n) {
    QVERIFY2(world->step(), world->state().divergence.message.c_str());
    const BodyState& s = world->bodies();
    for (std::size_t b = 0; b < s.size(); ++b) {
      QVERIFY2(insideBox(box, s.position[b]), "a centre of mass left the primary box");
      wraps += (s.position[b] - last[b]).norm() > 0.01 ? 1 : 0;
    }
    last = s.position;
    // Contacts through a face: the partner's image is not the partner itself.
    for (std::size_t c = 0; c < world->state().contacts.chunkCount(); ++c) {
      for (const ContactRecord& r : world->state().contacts.chunks()[c].records) {
        if (r.bodyB == kWallBody) continue;
        ++contacts;
        acrossFaces += box.imageShift(s.position[r.bodyB] - s.position[r.bodyA]) != Vec3::Zero() ? 1 : 0;
      }
    }
    if (n % 200 == 0) {
      const EnergyReport e = world->energy();
      worstMomentum = std::max(worstMomentum, (e.momentum - start.momentum).norm());
      const double balance = e.keTranslational + e.keRotational + e.peElastic + e.dissipated - e0;
      worstBalance = std::max(worstBalance, std::abs(balance));
    }
    if (n % 1500 == 0) QCOMPARE(missingTouchingPairs(*world), 0);
  }
  qInfo(
      "periodic gas: %zu wraps, %zu contact-steps (%zu through faces), dissipated %.3g of %.3g J, "
      "worst |P| %.3g (scale %.3g), worst |E + D - E0| %.3g J",
      wraps, contacts, acrossFaces, world->state().ledger.dissipated, e0, worstMomentum, momentumScale,
      worstBalance);
  QVERIFY2(wraps > 100, "bodies crossed the faces");
  QVERIFY2(acrossFaces > 100, "contacts happened through the faces");
  QVERIFY2(world->state().ledger.dissipated > 0.02 * e0, "collisions dissipated energy");
  QVERIFY2(worstMomentum < 1e-13 * momentumScale,
           qPrintable(QString("momentum change %1 of %2").arg(worstMomentum).arg(momentumScale)));
  QVERIFY2(worstBalance < 1e-3 * e0,
           qPrintable(QString("energy balance off by %1 of %2").arg(worstBalance).arg(e0)));
}

void PeriodicWorldTest::gasThreadCountDoesNotChangeTheResult_data() {
  QTest::addColumn<QString>("integrator");
  QTest::newRow("leapfrog") << "leapfrog";
  QTest::newRow("midpoint") << "midpoint";
  QTest::newRow("splitting") << "splitting";
}

void PeriodicWorldTest::gasThreadCountDoesNotChangeTheResult() {
  QFETCH(QString, integrator);
  QCOMPARE(gasHash(2, integrator.toStdString(), 2500), gasHash(1, integrator.toStdString(), 2500));
}

void PeriodicWorldTest::checkpointAcrossWrapsRepeatsBitForBit() {
  auto world = gasWorld(1);
  for (int n = 0; n < 500; ++n) QVERIFY(world->step());
  const WorldCheckpoint c = world->checkpoint();
  const double e = world->energy().peGravity;
  for (int n = 0; n < 1500; ++n) QVERIFY(world->step());
  const std::uint64_t first = stateHash(*world);
  world->restore(c);
  QCOMPARE(world->energy().peGravity, e);
  for (int n = 0; n < 1500; ++n) QVERIFY(world->step());
  QCOMPARE(stateHash(*world), first);
}

void PeriodicWorldTest::removingABodyAcrossAFaceKeepsForcesConsistent() {
  // Remove bodies in contact through a face: the remaining forces equal a fresh evaluation (elastic,
  // frictionless contacts, whose forces depend on positions only).
  auto world = gasWorld(1, "leapfrog", true);
  const PeriodicBox box = world->model().settings.periodic;
  int removed = 0;
  for (int n = 0; n < 6000 && removed < 3; ++n) {
    QVERIFY(world->step());
    const BodyState& s = world->bodies();
    for (std::size_t c = 0; c < world->state().contacts.chunkCount() && removed < 3; ++c) {
      for (const ContactRecord& r : world->state().contacts.chunks()[c].records) {
        if (r.bodyB == kWallBody || box.imageShift(s.position[r.bodyB] - s.position[r.bodyA]) == Vec3::Zero())
          continue;
        const std::uint32_t gone = (removed % 2 == 0) ? r.bodyA : r.bodyB;
        world->removeBody(gone);
        const std::vector<Vec3> force = world->bodies().force, torque = world->bodies().torque;
        world->refreshForces();
        for (std::size_t b = 0; b < world->bodies().size(); ++b) {
          const double scale = 1e-9 + world->bodies().force[b].norm();
          QVERIFY2((force[b] - world->bodies().force[b]).norm() < 1e-9 * scale, "force after removal");
          QVERIFY2((torque[b] - world->bodies().torque[b]).norm() < 1e-9 * scale * 0.01,
                   "torque after removal");
        }
        ++removed;
        break;
      }
    }
  }
  QCOMPARE(removed, 3);
}

void PeriodicWorldTest::generationAvoidsOverlapsThroughTheFaces() {
  // A crowded periodic region: no two bodies overlap through any face, all centres in the box.
  const TemplatePtr t = templateFromPebbles(tbarPebbles(), 2500.0, "tbar");
  std::vector<TemplatePtr> templates = {t};
  std::vector<BodyInit> bodies;
  GenerationRequest r;
  r.count = 110;
  r.regionMin = Vec3(-0.01, -0.01, -0.01);
  r.regionMax = Vec3(0.02, 0.015, 0.012);
  r.periodic.lower = Vec3(-0.01, -0.01, -0.01);
  r.periodic.length = Vec3(0.03, 0.025, 0.022);
  r.periodic.periodic = {true, true, true};
  r.seed = 3;
  const GenerationResult g = generateBodies(r, templates, bodies, {});
  QCOMPARE(g.placed, r.count);
  Scene scene;
  scene.model.templates = templates;
  scene.bodies = bodies;
  scene.model.settings.periodic = r.periodic;
  QCOMPARE(worstInitialOverlap(scene), 0.0);
  // Close pairs through the faces exist (so the test means something), and, measured without the
  // minimum image, the same placement would overlap somewhere nowhere; the periodic check is needed.
  std::size_t closeThroughFaces = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    QVERIFY(insideBox(r.periodic, bodies[i].position));
    for (std::size_t j = i + 1; j < bodies.size(); ++j) {
      const Vec3 d = bodies[j].position - bodies[i].position;
      if (r.periodic.imageShift(d) != Vec3::Zero() &&
          r.periodic.minimumImage(d).norm() < 2.0 * t->boundingRadius)
        ++closeThroughFaces;
    }
  }
  QVERIFY2(closeThroughFaces > 10,
           qPrintable(QString("%1 close pairs through faces").arg(closeThroughFaces)));
  // The same request without the periodic box ignores the faces: its bodies overlap their images.
  std::vector<BodyInit> open;
  GenerationRequest o = r;
  o.periodic = PeriodicBox{};
  generateBodies(o, templates, open, {});
  scene.bodies = open;
  QVERIFY(worstInitialOverlap(scene) > 0.0);
}

void PeriodicWorldTest::floorWithPeriodicSidesRuns() {
  // A floor facing +z with x and y periodic: T-bars poured onto it settle and stay in the box.
  const std::string text = R"({
    "format": "clumplab-scene/1", "time_step": 2e-5, "integrator": "midpoint",
    "contact": { "model": "linear", "stiffness": 1e3, "restitution": 0.3, "friction": 0.5 },
    "periodic": { "min": [0, 0, 0], "max": [0.04, 0.03, 1], "axes": "xy" },
    "walls": [ { "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1] } ],
    "templates": { "rod": { "shape": "spherocylinder", "radius": 0.001, "length": 0.005, "density": 2700 } },
    "generate": [ { "template": "rod", "count": 80, "region": { "min": [0, 0, 0.004], "max": [0.04, 0.03, 0.03] },
                    "velocity": [0.3, -0.2, 0], "seed": 2 } ] })";
  auto world = buildWorld(parseScene(text, "floor.json"));
  const PeriodicBox box = world->model().settings.periodic;
  std::vector<Vec3> last = world->bodies().position;
  int wraps = 0;
  for (int n = 0; n < 20000; ++n) {
    QVERIFY2(world->step(), world->state().divergence.message.c_str());
    for (std::size_t b = 0; b < last.size(); ++b) {
      const Vec3 x = world->bodies().position[b];
      QVERIFY(insideBox(box, x) && x.z() > 0.0);
      wraps += (x - last[b]).norm() > 0.01 ? 1 : 0;
      last[b] = x;
    }
  }
  QVERIFY2(wraps > 10, qPrintable(QString("%1 wraps").arg(wraps)));
  QVERIFY(world->state().wallContacts > 40);
  // Settled: the floor carries the weight (mean speed below 1 cm/s).
  double mass = 0.0;
  for (const double m : world->bodies().mass) mass += m;
  QVERIFY(world->energy().keTranslational < 0.5 * mass * 1e-4);
}

void PeriodicWorldTest::savedPeriodicWorldLoadsBack() {
  // A running periodic world, saved and loaded: bodies (wrapped), settings and the box to the bit;
  // saving the reloaded one writes the same text.
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  std::string text = gasScene();
  // Corners and lengths whose sums round: the writer must keep max - min == length exactly.
  text = replaced(R"("min": [-0.03, 0.01, -0.02], "max": [0.03, 0.06, 0.035])",
                  R"("min": [-0.0301, 0.0103, -0.0207], "max": [0.0299, 0.0607, 0.0349])", text);
  const Scene scene = parseScene(text, dir.filePath("gas.json").toStdString());
  auto world = buildWorld(scene);
  for (int n = 0; n < 3000; ++n) QVERIFY(world->step());
  const std::string saved = dir.filePath("saved.json").toStdString();
  saveScene(sceneFromWorld(*world, scene), saved);
  const Scene back = loadScene(saved);
  QVERIFY(back.model.settings.periodic == world->model().settings.periodic);
  auto reloaded = buildWorld(back);
  QVERIFY(reloaded->model().settings.periodic == world->model().settings.periodic);
  QCOMPARE(reloaded->bodies().size(), world->bodies().size());
  for (std::size_t b = 0; b < world->bodies().size(); ++b) {
    QCOMPARE(reloaded->bodies().position[b], world->bodies().position[b]);
    QCOMPARE(reloaded->bodies().orientation[b].coeffs(), world->bodies().orientation[b].coeffs());
    QCOMPARE(reloaded->bodies().velocity[b], world->bodies().velocity[b]);
    QCOMPARE(reloaded->bodies().angularVelocity[b], world->bodies().angularVelocity[b]);
  }
  QCOMPARE(reloaded->time(), world->time());
  QCOMPARE(sceneToJson(sceneFromWorld(*reloaded, back), dir.path().toStdString()),
           sceneToJson(back, dir.path().toStdString()));
  for (int n = 0; n < 200; ++n) QVERIFY(reloaded->step());
}

void PeriodicWorldTest::shortBoxesAreRefused() {
  // y is 2 cm; a ball of radius 4 mm needs 2 (2 x 4 mm + skin 1.6 mm) = 1.92 cm... so it runs;
  // at 1.8 cm it does not, and the message names the axis, the length needed and the template.
  QVERIFY(parseScene(kShortBox, "ok.json").bodies.size() == 1);
  const std::string shorter = replaced("[0.05, 0.02, 0.05]", "[0.05, 0.018, 0.05]", kShortBox);
  try {
    parseScene(shorter, "short.json");
    QFAIL("a box shorter than twice the pair range was accepted");
  } catch (const InputError& e) {
    const std::string m = e.what();
    QVERIFY2(
        m.find(
            "short.json: periodic: the periodic length along y is 0.018 m; it must be at least 0.0192 m") !=
            std::string::npos,
        m.c_str());
    QVERIFY2(m.find("template \"ball\"") != std::string::npos, m.c_str());
  }
  // The world itself refuses it too (code that builds worlds without files).
  Scene scene = parseScene(kShortBox, "ok.json");
  scene.model.settings.periodic.length.y() = 0.018;
  try {
    buildWorld(scene);
    QFAIL("the world accepted a short box");
  } catch (const std::invalid_argument& e) {
    QVERIFY2(std::string(e.what()).find("along y") != std::string::npos, e.what());
  }
  CLUMPLAB_COMPARE_REL(minimumPeriodicLength(0.004, 0.0016), 0.0192, 1e-15);
}

void PeriodicWorldTest::badKeysAreRefused_data() {
  QTest::addColumn<QString>("from");
  QTest::addColumn<QString>("to");
  QTest::addColumn<QString>("message");
  QTest::newRow("misspelt key") << R"("axes": "xy")"
                                << R"("axis": "xy")"
                                << R"(periodic.axis: unknown key "axis")";
  QTest::newRow("unknown axis") << R"("axes": "xy")"
                                << R"("axes": "xw")"
                                << "unknown axis 'w'";
  QTest::newRow("axis twice") << R"("axes": "xy")"
                              << R"("axes": "xyx")"
                              << "axis 'x' named twice";
  QTest::newRow("no axis") << R"("axes": "xy")"
                           << R"("axes": "")"
                           << "name at least one axis";
  QTest::newRow("empty length") << "[0.05, 0.02, 0.05]"
                                << "[0, 0.02, 0.05]"
                                << "positive length on every periodic axis";
  QTest::newRow("box wall") << R"({ "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1] })"
                            << R"({ "type": "box", "min": [0, 0, 0], "max": [0.05, 0.02, 0.05] })"
                            << "crosses the periodic x axis";
  QTest::newRow("tilted floor") << R"("normal": [0, 0, 1])"
                                << R"("normal": [0, 0.1, 1])"
                                << "crosses the periodic y axis";
  QTest::newRow("cavity") << R"({ "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1] })"
                          << R"({ "type": "sphere", "center": [0, 0, 0], "radius": 0.1 })"
                          << "spherical cavity";
  QTest::newRow("2D plane across x") << R"("axes": "xy")"
                                     << R"("axes": "xy" }, "plane": { "normal": "yz")"
                                     << "must contain every periodic axis";
}

void PeriodicWorldTest::badKeysAreRefused() {
  QFETCH(QString, from);
  QFETCH(QString, to);
  QFETCH(QString, message);
  std::string text = replaced(from.toStdString(), to.toStdString(), kShortBox);
  try {
    parseScene(text, "bad.json");
    QFAIL("accepted");
  } catch (const InputError& e) {
    QVERIFY2(std::string(e.what()).find(message.toStdString()) != std::string::npos, e.what());
    QVERIFY2(std::string(e.what()).rfind("bad.json: ", 0) == 0, e.what());
  }
}

void PeriodicWorldTest::worldChecksItsOwnEdits() {
  // A template too large for the box cannot join the running world; the world stays usable.
  auto world = buildWorld(parseScene(kShortBox, "ok.json"));
  const TemplatePtr big = templateFromPebbles({{Vec3::Zero(), 0.006}}, 2500.0, "boulder");
  try {
    world->addTemplate(big);
    QFAIL("a template too large for the periodic box joined");
  } catch (const std::invalid_argument& e) {
    QVERIFY2(std::string(e.what()).find("template \"boulder\"") != std::string::npos, e.what());
  }
  QCOMPARE(world->model().templates.size(), std::size_t(1));
  QVERIFY(world->step());
  // A body placed outside the box is wrapped in, whatever the edit.
  world->bodies().position[0] = Vec3(-0.02, 0.045, 0.01);
  world->stateChanged();
  CLUMPLAB_COMPARE_REL(world->bodies().position[0].x(), 0.03, 1e-12);
  CLUMPLAB_COMPARE_REL(world->bodies().position[0].y(), 0.005, 1e-12);
}

void PeriodicWorldTest::planeSwitchDropsTheAxisAcrossIt() {
  // The user's 2D switch to the x-y plane on a scene periodic in x, y and z: z is dropped, with a
  // note; the bodies move into the plane and the world runs.
  SceneLoadOptions options;
  options.plane = PlaneConstraint{true, Vec3::UnitZ(), 0.0};
  const Scene scene = parseScene(gasScene(), "gas.json", options);
  QVERIFY(scene.model.settings.periodic.periodic[0] && scene.model.settings.periodic.periodic[1]);
  QVERIFY(!scene.model.settings.periodic.periodic[2]);
  bool noted = false;
  for (const std::string& n : scene.notes) noted = noted || n.find("periodic z axis") != std::string::npos;
  QVERIFY(noted);
  auto world = buildWorld(scene);
  for (int n = 0; n < sizedForBuild(500, 100); ++n) QVERIFY(world->step());
  for (const Vec3& x : world->bodies().position) QCOMPARE(x.z(), 0.0);
}

QTEST_GUILESS_MAIN(PeriodicWorldTest)
#include "tst_periodic_world.moc"
