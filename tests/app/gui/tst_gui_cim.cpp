// The cim and rk4 integrators (Meland et al., Cluster integration method) in the desktop app: the Parameters
// panel offers them and switches a running scene to them, refusing (with the engine's reason) a scene whose
// contact law they cannot take; stepping back through the history of a cim run and running on repeats it bit
// for bit (the cluster list carried across steps is part of each saved state).
#include <QComboBox>
#include <QElapsedTimer>
#include <QtTest>

#include "BuildSize.hpp"
#include "GuiTestSupport.hpp"
#include "TestSupport.hpp"
#include "gui/docks/ParametersDock.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/window/MainWindow.hpp"
#include "sim/StateHistory.hpp"

using namespace clumplab;
using namespace clumplab::gui;
using namespace clumplab::sim;
using namespace clumplab::gui::test;

namespace {

// Spinning spherocylinders in a periodic box, elastic: cim at a frame-like step of 1 ms.
const char* kRods = R"({
  "format": "clumplab-scene/1", "time_step": 1e-3, "integrator": "cim", "gravity": [0, 0, 0],
  "periodic": {"min": [0, 0, 0], "max": [0.02, 0.02, 0.02], "axes": "xyz"},
  "cim": {"buffer": 6e-4},
  "contact": {"model": "linear", "stiffness": 1e4, "damping": 0},
  "templates": {"rod": {"shape": "spherocylinder", "radius": 1e-3, "length": 4e-3, "density": 2700}},
  "bodies": [],
  "generate": [{"template": "rod", "count": 30, "region": {"min": [0, 0, 0], "max": [0.02, 0.02, 0.02]},
                "seed": 3, "random_speed": 0.6, "random_spin": 100}]})";
constexpr std::size_t kRodCount = 30;

// The same rods in a closed box under the leapfrog, with friction (a tangential spring).
const char* kFrictionBox = R"({
  "format": "clumplab-scene/1", "time_step": 1e-5, "integrator": "leapfrog", "gravity": [0, 0, -9.81],
  "contact": {"model": "linear", "stiffness": 1e4, "restitution": 0.5, "friction": 0.4},
  "walls": [{"type": "box", "min": [0, 0, 0], "max": [0.03, 0.03, 0.03]}],
  "templates": {"rod": {"shape": "spherocylinder", "radius": 1e-3, "length": 4e-3, "density": 2700}},
  "bodies": [],
  "generate": [{"template": "rod", "count": 10, "region": {"min": [0.005, 0.005, 0.005], "max": [0.025, 0.025, 0.025]},
                "seed": 3, "random_speed": 0.3}]})";

// A dilute gas of 200 T-bars under cim with a stiff contact and a 50 ms step: one step takes tens
// of seconds of cluster integration (found by the soak test, after edits of the stiffness and step).
const char* kStiffGas = R"({
  "format": "clumplab-scene/1", "time_step": 0.05, "integrator": "cim", "gravity": [0, 0, 0],
  "cim": {"buffer": 6e-4, "rtol": 1e-5, "atol": 1e-20, "min_step": 8.45e-6},
  "contact": {"model": "linear", "stiffness": 1e9, "damping": 0},
  "walls": [{"type": "box", "min": [0, 0, 0], "max": [0.06, 0.06, 0.06]}],
  "templates": {"tbar": {"density": 2700, "inertia": "pebbles",
    "pebbles": [[0, 0, 0, 0.001], [0, 0, 0.001, 0.001], [0, 0, 0.002, 0.001], [0, 0, 0.003, 0.001],
                [0, 0, 0.004, 0.001], [-0.002, 0, 0.005, 0.001], [-0.001, 0, 0.005, 0.001],
                [0, 0, 0.005, 0.001], [0.001, 0, 0.005, 0.001], [0.002, 0, 0.005, 0.001]]}},
  "bodies": [],
  "generate": [{"template": "tbar", "count": 200, "region": {"min": [0.006, 0.006, 0.006], "max": [0.054, 0.054, 0.054]},
                "random_orientation": true, "seed": 8, "random_speed": 0.6, "random_spin": 60}]})";

const SimulationFrame* runUntil(MainWindow& w, double time, double dt) {
  w.simulation().runUntil(time);
  const std::uint64_t ticket = w.simulation().commandsPosted();
  const bool reached = waitForFrame(w, [&](const SimulationFrame& f) {
    return f.commandsApplied >= ticket && f.stats.paused && f.snapshot.time + 0.5 * dt >= time;
  });
  return reached ? w.currentFrame() : nullptr;
}

// Chooses `kind` in the panel's integrator box as a user would.
void chooseIntegrator(MainWindow& w, IntegratorKind kind) {
  auto* box = w.parametersDock()->findChild<QComboBox*>(QStringLiteral("integrator"));
  QVERIFY(box != nullptr);
  const int index = box->findData(static_cast<int>(kind));
  QVERIFY(index >= 0);
  box->setCurrentIndex(index);
}

}  // namespace

class TestGuiCim : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QSurfaceFormat::setDefaultFormat(viewportSurfaceFormat()); }
  void init() { useTestSettings(QStringLiteral("tst_gui_cim")); }

  void stepBackUnderCimRepeatsTheRunBitForBit() {
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showScene(w, false, QSize(480, 360), dir, QStringLiteral("rods.json"), kRods, kRodCount),
             QString());
    const std::uint64_t every = StateHistory().intervalSteps(1e-3);
    const SimulationFrame* end = runUntil(w, 5.0 * static_cast<double>(every) * 1e-3, 1e-3);
    QVERIFY(end != nullptr);
    QCOMPARE(end->parameters.integrator, IntegratorKind::Cim);
    QVERIFY(end->problem.empty());
    const SnapshotBodies live = end->snapshot.bodies;
    const std::uint64_t steps = end->snapshot.steps;
    // Back to the newest saved state, then on again to the same step: the same bits.
    w.simulation().stepBack();
    QVERIFY(waitForFrame(w, [&](const SimulationFrame& g) { return g.snapshot.steps < steps; }));
    const std::uint64_t back = w.currentFrame()->snapshot.steps;
    QVERIFY(back % every == 0);
    const SimulationFrame* again = runUntil(w, static_cast<double>(steps) * 1e-3, 1e-3);
    QVERIFY(again != nullptr);
    QCOMPARE(again->snapshot.steps, steps);
    QVERIFY2(clumplab::test::sameBits(again->snapshot.bodies, live), "the run after stepping back differs");
  }

  void thePanelSwitchesToCimAndRk4AndSaysWhyNot() {
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showScene(w, true, QSize(480, 360), dir, QStringLiteral("friction.json"), kFrictionBox, 10),
             QString());
    chooseIntegrator(w, IntegratorKind::Cim);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return !f.problem.empty(); }));
    const SimulationFrame* refused = w.currentFrame();
    QVERIFY(refused != nullptr);
    const QString problem = QString::fromStdString(refused->problem);
    QVERIFY2(problem.contains(QStringLiteral("cim")) && problem.contains(QStringLiteral("tangential")),
             qPrintable(problem));
    QCOMPARE(refused->parameters.integrator, IntegratorKind::Leapfrog);

    // The rods' scene, paused: to rk4 (at the scene's 1 ms it would not resolve a contact), and back
    // to cim, which then runs.
    w.setRunning(false);
    QCOMPARE(openScene(w, dir, QStringLiteral("rods.json"), kRods, kRodCount), QString());
    chooseIntegrator(w, IntegratorKind::Rk4);
    QVERIFY(waitForFrame(
        w, [](const SimulationFrame& f) { return f.parameters.integrator == IntegratorKind::Rk4; }));
    chooseIntegrator(w, IntegratorKind::Cim);
    QVERIFY(waitForFrame(
        w, [](const SimulationFrame& f) { return f.parameters.integrator == IntegratorKind::Cim; }));
    w.setRunning(true);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.steps > 20; }));
    const SimulationFrame* running = w.currentFrame();
    QVERIFY(running != nullptr);
    QVERIFY2(running->problem.empty(), running->problem.c_str());
  }

  // Opening another scene, a reset, a step back, a pause, a save, a deletion or an edit during such a
  // step abandons it (World::setStepCancel: the world stays as before it): the user's command is
  // applied at once (the soak test found a scene that opened only after a 30 s step). No abandoned
  // state is shown.
  void userActionsDuringALongCimStepDoNotWaitForIt_data() {
    QTest::addColumn<QString>("command");
    QTest::newRow("open a scene") << QStringLiteral("open");
    QTest::newRow("reset") << QStringLiteral("reset");
    QTest::newRow("step back") << QStringLiteral("step back");
    QTest::newRow("pause") << QStringLiteral("pause");
    QTest::newRow("save") << QStringLiteral("save");  // the window waits for the file
    QTest::newRow("delete a body") << QStringLiteral("delete");
    QTest::newRow("edit") << QStringLiteral("edit");
  }
  void userActionsDuringALongCimStepDoNotWaitForIt() {
    QFETCH(QString, command);
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showScene(w, false, QSize(320, 200), dir, QStringLiteral("stiff-gas.json"), kStiffGas, 200),
             QString());
    if (command == QLatin1String("pause")) {
      w.setRunning(true);
    } else {
      w.simulation().singleStep(1);
    }
    QTest::qWait(1500);
    w.tick();
    QVERIFY2(w.currentFrame() != nullptr && w.currentFrame()->snapshot.steps == 0,
             "the step was expected to take far longer than 1.5 s");
    std::size_t bodies = 200;
    if (command == QLatin1String("open")) {
      QCOMPARE(w.openDocument(writeFile(dir, QStringLiteral("rods.json"), kRods), true), QString());
      bodies = kRodCount;
    } else if (command == QLatin1String("reset")) {
      w.simulation().reset();
    } else if (command == QLatin1String("step back")) {
      w.simulation().stepBack();
    } else if (command == QLatin1String("delete")) {
      w.simulation().removeBody({0, w.currentFrame()->bodyIndexGeneration});
      bodies = 199;
    } else if (command == QLatin1String("edit")) {
      EditableModel p = w.currentFrame()->parameters;
      p.gravity = Vec3(0.0, 0.0, -1.0);  // an edit that leaves the step as long
      w.simulation().setParameters(p);
    } else if (command == QLatin1String("save")) {
      QElapsedTimer clock;
      clock.start();
      const QString saved = dir.filePath(QStringLiteral("saved.json"));
      QCOMPARE(w.saveSceneTo(saved), QString());
      QVERIFY2(clock.elapsed() < clumplab::test::wallClockMs(15'000),
               "saving waited for the step (it takes tens of seconds)");
      QVERIFY(QFileInfo::exists(saved));
    } else {
      w.setRunning(false);
    }
    const std::uint64_t ticket = w.simulation().commandsPosted();
    bool sawAbandoned = false;
    const bool applied = waitForFrame(
        w,
        [&](const SimulationFrame& f) {
          sawAbandoned = sawAbandoned || f.diverged || f.snapshot.steps > 0;
          return f.commandsApplied >= ticket;
        },
        clumplab::test::wallClockMs(15'000));
    QVERIFY2(applied, "the command waited for the step (it takes tens of seconds)");
    const SimulationFrame& f = *w.currentFrame();
    QVERIFY(!sawAbandoned);
    QVERIFY2(f.problem.empty(), f.problem.c_str());
    QCOMPARE(f.snapshot.bodies.size(), bodies);
    QCOMPARE(f.snapshot.steps, std::uint64_t{0});
    QVERIFY(f.stats.paused);
    if (command == QLatin1String("edit")) QCOMPARE(f.parameters.gravity, Vec3(0.0, 0.0, -1.0));
  }

  // Closing the window during such a step cancels it (World::setStepCancel): the simulation thread
  // joins at once instead of after the step (it took a minute on this machine before).
  void closingDuringALongCimStepDoesNotWaitForIt() {
    QTemporaryDir dir;
    auto* w = new MainWindow;
    QCOMPARE(showScene(*w, false, QSize(320, 200), dir, QStringLiteral("stiff-gas.json"), kStiffGas, 200),
             QString());
    w->simulation().singleStep(1);
    QTest::qWait(1500);
    w->tick();
    const sim::SimulationFrame* frame = w->currentFrame();
    QVERIFY2(frame != nullptr && frame->snapshot.steps == 0,
             "the step was expected to take far longer than 1.5 s");
    QElapsedTimer clock;
    clock.start();
    QVERIFY(w->close());
    delete w;
    const qint64 ms = clock.elapsed();
    QVERIFY2(ms < clumplab::test::wallClockMs(5000),
             qPrintable(QStringLiteral("closing took %1 ms").arg(ms)));
  }
};

QTEST_MAIN(TestGuiCim)
#include "tst_gui_cim.moc"
