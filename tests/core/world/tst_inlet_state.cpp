// An inlet's state (core/world/Inlet.hpp, Woo's inlets): runs are deterministic (two runs, 1 and 2 threads,
// checkpoint and restore, the inlet's random state and progress included), scenes round-trip the inlet
// and its progress, and bad input names its JSON path. What the inlet inserts: tst_inlet.
#include <QtTest>
#include <cstring>

#include "InletWorlds.hpp"
#include "SceneBuilders.hpp"
#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/scene/Scene.hpp"
#include "core/world/Inlet.hpp"
#include "core/world/World.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

// Every bit of the bodies' state and of the inlets' progress.
bool sameBits(const World& a, const World& b) {
  const BodyState &x = a.bodies(), &y = b.bodies();
  if (x.size() != y.size() || a.state().inlets.size() != b.state().inlets.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x.templateIndex[i] != y.templateIndex[i] ||
        std::memcmp(x.position[i].data(), y.position[i].data(), sizeof(Vec3)) != 0 ||
        std::memcmp(x.velocity[i].data(), y.velocity[i].data(), sizeof(Vec3)) != 0 ||
        std::memcmp(x.angularVelocity[i].data(), y.angularVelocity[i].data(), sizeof(Vec3)) != 0 ||
        std::memcmp(x.orientation[i].coeffs().data(), y.orientation[i].coeffs().data(), 4 * sizeof(double)) !=
            0)
      return false;
  }
  for (std::size_t i = 0; i < a.state().inlets.size(); ++i) {
    if (!(a.state().inlets[i].progress() == b.state().inlets[i].progress())) return false;
  }
  return a.state().ledger.inserted == b.state().ledger.inserted &&
         a.state().ledger.dissipated == b.state().ledger.dissipated;
}

const std::string kInletScene = withTbar(R"({
  "format": "clumplab-scene/1", "time_step": 2e-5, "gravity": [0, 0, -9.81],
  "contact": { "model": "linear", "stiffness": 2e3, "restitution": 0.5, "friction": 0.3 },
  "walls": [ { "type": "box", "min": [-0.02, -0.02, 0], "max": [0.02, 0.02, 0.3] } ],
  "templates": {
    TBAR,
    "dumbbell": { "density": 2500, "inertia": "pebbles", "pebbles": [[0,0,-0.0015,0.001],[0,0,0.0015,0.001]] }
  },
  "inlets": [ { "region": { "cylinder": { "center": [0, 0, 0.26], "axis": [0, 0, 2], "radius": 0.017, "height": 0.05 } },
                "templates": [ { "template": "tbar", "mass_fraction": 0.7 }, { "template": "dumbbell", "mass_fraction": 0.3 } ],
                "mass_rate": 0.002, "max_mass": 0.0012, "velocity": [0, 0, -0.5], "velocity_spread": 0.1, "seed": 3 } ]
})");

QString replaced(const QString& from, const QString& to,
                 const QString& text = QString::fromStdString(kInletScene)) {
  QString s = text;
  if (!s.contains(from)) qFatal("test scene lacks %s", qPrintable(from));
  return s.replace(from, to);
}

}  // namespace

class TestInletState : public QObject {
  Q_OBJECT

 private slots:
  void deterministicAcrossRunsAndThreads() {
    // Two runs, and one against two threads, give the same bits (bodies, inlet progress, energies)
    // after 0.4 s of pouring onto a pile (contacts all the while).
    Setup s;
    s.massRate = 0.01;
    s.maxCount = 200;
    s.region.min = Vec3(-0.019, -0.019, 0.02);
    s.region.max = Vec3(0.019, 0.019, 0.06);
    auto a = makeWorld(s), b = makeWorld(s);
    s.threads = 2;
    auto c = makeWorld(s);
    for (int k = 0; k < 20000; ++k) QVERIFY(a->step() && b->step() && c->step());
    qInfo("%zu bodies, %zu contacts", a->bodies().size(), a->contactCount());
    QVERIFY(a->bodies().size() > 40);
    QVERIFY(a->contactCount() > 20);
    QVERIFY2(sameBits(*a, *b), "two runs differ");
    QVERIFY2(sameBits(*a, *c), "one and two threads differ");
  }

  void checkpointRestoresTheInlet() {
    // Step back and forward (the app's history): restore a checkpoint and run again, bit for bit,
    // the inlet's random state and progress included.
    Setup s;
    s.massRate = 0.01;
    auto w = makeWorld(s);
    for (int k = 0; k < 5000; ++k) QVERIFY(w->step());
    const WorldCheckpoint c = w->checkpoint();
    const std::size_t bodiesAtCheckpoint = w->bodies().size();
    for (int k = 0; k < 5000; ++k) QVERIFY(w->step());
    Setup same = s;
    auto reference = makeWorld(same);
    for (int k = 0; k < 10000; ++k) QVERIFY(reference->step());
    QVERIFY(sameBits(*w, *reference));
    const std::size_t bodiesAfter = w->bodies().size();
    QVERIFY2(bodiesAfter > bodiesAtCheckpoint + 10,
             qPrintable(QString("%1 then %2 bodies").arg(bodiesAtCheckpoint).arg(bodiesAfter)));
    w->restore(c);
    QCOMPARE(w->bodies().size(), bodiesAtCheckpoint);
    for (int k = 0; k < 5000; ++k) QVERIFY(w->step());
    QVERIFY2(sameBits(*w, *reference), "restoring and stepping again differs");
  }

  void sceneRoundTrip() {
    // A cylinder inlet with mass fractions, saved while it runs: the file names its progress, a
    // reload gives the same settings and progress, and saving that gives the same text. A saved
    // scene of a done inlet stays done.
    Scene scene = parseScene(kInletScene, "inlet.json");
    QCOMPARE(scene.inlets.size(), std::size_t{1});
    const InletSettings& in = scene.inlets[0].settings();
    QCOMPARE(in.region.kind, InletRegion::Kind::Cylinder);
    QCOMPARE(in.region.axis, Vec3(0, 0, 1));
    // Mass fractions become count weights f / m: the T-bar's mass share over many bodies is 0.7.
    CLUMPLAB_COMPARE_REL(in.weights[0] / in.weights[1],
                         (0.7 / scene.model.templates[in.templates[0]]->mass) /
                             (0.3 / scene.model.templates[in.templates[1]]->mass),
                         1e-15);
    auto world = buildWorld(scene);
    for (int k = 0; k < 15000; ++k) QVERIFY(world->step());
    QVERIFY(world->state().inlets[0].progress().insertedCount > 3);
    const Scene saved = sceneFromWorld(*world, scene);
    const std::string text = sceneToJson(saved, ".");
    QVERIFY(text.find("\"progress\"") != std::string::npos);
    const Scene reloaded = parseScene(text, "saved.json");
    QVERIFY(reloaded.inlets[0].settings() == world->state().inlets[0].settings());
    QVERIFY(reloaded.inlets[0].progress() == world->state().inlets[0].progress());
    QCOMPARE(sceneToJson(reloaded, "."), text);
    // Continue until done and save again: the reloaded inlet is done and inserts nothing more.
    for (int k = 0; k < 60000 && world->state().inlets[0].progress().state != InletState::Done; ++k)
      QVERIFY(world->step());
    QCOMPARE(world->state().inlets[0].progress().state, InletState::Done);
    auto again = buildWorld(parseScene(sceneToJson(sceneFromWorld(*world, scene), "."), "done.json"));
    const std::size_t n = again->bodies().size();
    QCOMPARE(n, world->bodies().size());
    for (int k = 0; k < 1000; ++k) QVERIFY(again->step());
    QCOMPARE(again->bodies().size(), n);
    QCOMPARE(again->state().inlets[0].progress().finishedAt, world->state().inlets[0].progress().finishedAt);
  }

  void badInput_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    const auto row = [](const char* name, const QString& text, const char* expected) {
      QTest::newRow(name) << text << QString(expected);
    };
    row("negative rate", replaced("\"mass_rate\": 0.002", "\"mass_rate\": -0.002"),
        "inlets[0].mass_rate: the mass rate must be positive");
    row("zero rate", replaced("\"mass_rate\": 0.002", "\"mass_rate\": 0"),
        "inlets[0].mass_rate: the mass rate must be positive");
    row("unknown template", replaced("\"template\": \"dumbbell\"", "\"template\": \"dumbell\""),
        "inlets[0].templates[1].template: unknown template \"dumbell\"");
    row("unknown template by name",
        replaced(
            R"([ { "template": "tbar", "mass_fraction": 0.7 }, { "template": "dumbbell", "mass_fraction": 0.3 } ])",
            R"(["tbar", "gear"])"),
        "inlets[0].templates[1]: unknown template \"gear\"");
    row("empty box",
        replaced(
            R"({ "cylinder": { "center": [0, 0, 0.26], "axis": [0, 0, 2], "radius": 0.017, "height": 0.05 } })",
            R"({ "box": { "min": [0, 0, 0.2], "max": [0.01, 0, 0.25] } })"),
        "inlets[0].region.box.max: the region is empty");
    row("zero-size cylinder", replaced("\"radius\": 0.017", "\"radius\": 0"),
        "inlets[0].region.cylinder.radius: the cylinder's radius must be positive");
    row("flat cylinder", replaced("\"height\": 0.05", "\"height\": 0"),
        "inlets[0].region.cylinder.height: the cylinder's height must be positive");
    row("zero axis", replaced("\"axis\": [0, 0, 2]", "\"axis\": [0, 0, 0]"),
        "inlets[0].region.cylinder.axis: the axis must not be zero");
    row("both regions",
        replaced("{ \"cylinder\"", "{ \"box\": { \"min\": [0, 0, 0], \"max\": [1, 1, 1] }, \"cylinder\""),
        "inlets[0].region: give exactly one of \"box\" and \"cylinder\"");
    row("misspelt key", replaced("\"mass_rate\"", "\"massrate\""), "inlets[0].massrate: unknown key");
    row("fractions and weights mixed", replaced("\"mass_fraction\": 0.3", "\"weight\": 1"),
        "inlets[0].templates: give every template a \"mass_fraction\", or none");
    row("template twice", replaced("\"template\": \"dumbbell\"", "\"template\": \"tbar\""),
        "inlets[0].templates[1].template: template \"tbar\" named twice");
    row("max mass below a body", replaced("\"max_mass\": 0.0012", "\"max_mass\": 1e-6"),
        "inlets[0].max_mass: 1e-06 kg is below the lightest template's mass");
    row("negative spread", replaced("\"velocity_spread\": 0.1", "\"velocity_spread\": -0.1"),
        "inlets[0].velocity_spread: must not be negative");
    row("zero count", replaced("\"max_mass\": 0.0012", "\"max_count\": 0"),
        "inlets[0].max_count: the maximum count must be at least 1");
    row("more pebbles than the limit", replaced("\"max_mass\": 0.0012", "\"max_count\": 2000000"),
        "inlets[0].max_count: the scene would hold 20000000 pebbles, more than the limit");
    row("bad progress state",
        replaced("\"seed\": 3",
                 "\"seed\": 3, \"progress\": { \"state\": \"busy\", \"inserted_mass\": 0, "
                 "\"inserted_count\": 0, \"random_state\": \"0x1\" }"),
        "inlets[0].progress.state: unknown state \"busy\"");
  }
  void badInput() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    try {
      (void)parseScene(text.toStdString(), "bad.json");
      QFAIL("the bad scene was accepted");
    } catch (const InputError& e) {
      const QString message = e.what();
      QVERIFY2(message.startsWith("bad.json: "), qPrintable(message));
      QVERIFY2(message.contains(expected), qPrintable(message + "  (expected: " + expected + ")"));
    }
  }
};

QTEST_GUILESS_MAIN(TestInletState)
#include "tst_inlet_state.moc"
