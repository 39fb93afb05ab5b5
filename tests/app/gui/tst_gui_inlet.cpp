// Inlets (core/world/Inlet.hpp) in the desktop app: the status bar follows an inlet and says when it is
// done; stepping back through the history while it inserts and running on repeats the run bit for
// bit (the inlet's random state and progress are part of each saved state); the energy watch does
// not take the energy the new bodies bring for a blow-up.
#include <QStatusBar>
#include <QtTest>

#include "BuildSize.hpp"
#include "GuiTestSupport.hpp"
#include "TestSupport.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/widgets/InletStatusLabel.hpp"
#include "gui/window/MainWindow.hpp"
#include "sim/StateHistory.hpp"

using namespace clumplab;
using namespace clumplab::gui;
using namespace clumplab::sim;
using namespace clumplab::gui::test;

namespace {

// Two-pebble balls (about 0.1 g) poured from a box inlet into a closed box at 2 g/s: 20 of them.
const char* kPour = R"({
  "format": "clumplab-scene/1", "description": "balls poured", "time_step": 1e-4, "gravity": [0, 0, -9.81],
  "contact": { "model": "linear", "stiffness": 2e3, "restitution": 0.5, "friction": 0.3 },
  "walls": [ { "type": "box", "min": [-0.02, -0.02, 0], "max": [0.02, 0.02, 0.1] } ],
  "templates": { "ball": { "density": 2500, "inertia": "pebbles", "pebbles": [[0, 0, 0, 0.002], [0.002, 0, 0, 0.0015]] } },
  "bodies": [],
  "inlets": [ { "region": { "box": { "min": [-0.015, -0.015, 0.06], "max": [0.015, 0.015, 0.09] } },
                "templates": ["ball"], "mass_rate": 0.002, "max_count": 20, "velocity": [0, 0, -0.2],
                "velocity_spread": 0.05, "seed": 5 } ] })";

const SimulationFrame* runUntil(MainWindow& w, double time, double dt) {
  w.simulation().runUntil(time);
  const std::uint64_t ticket = w.simulation().commandsPosted();
  const bool reached = waitForFrame(
      w,
      [&](const SimulationFrame& f) {
        return f.commandsApplied >= ticket && f.stats.paused && f.snapshot.time + 0.5 * dt >= time;
      },
      clumplab::test::wallClockMs(30000));
  return reached ? w.currentFrame() : nullptr;
}

}  // namespace

class TestGuiInlet : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QSurfaceFormat::setDefaultFormat(viewportSurfaceFormat()); }
  void init() { useTestSettings(QStringLiteral("tst_gui_inlet")); }

  void statusBarSaysWhenTheInletIsDone() {
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showScene(w, false, QSize(480, 360), dir, QStringLiteral("pour.json"), kPour, 0), QString());
    auto* label = w.findChild<InletStatusLabel*>();
    QVERIFY(label != nullptr);
    QVERIFY(label->isVisible());
    const SimulationFrame* end = runUntil(w, 1.6, 1e-4);
    QVERIFY(end != nullptr);
    QVERIFY2(end->problem.empty(), end->problem.c_str());  // the energy watch did not trip
    QCOMPARE(end->snapshot.bodies.size(), std::size_t{20});
    QCOMPARE(end->snapshot.inlets.at(0).progress().state, InletState::Done);
    w.tick();
    qInfo("status bar: \"%s\"; label: \"%s\"", qPrintable(w.statusBar()->currentMessage()),
          qPrintable(label->text()));
    QVERIFY2(label->lastDoneMessage().startsWith(QStringLiteral("Inlet done at t = ")),
             qPrintable(label->lastDoneMessage()));
    QVERIFY2(label->lastDoneMessage().contains(QStringLiteral("20 bodies")),
             qPrintable(label->lastDoneMessage()));
    QCOMPARE(w.statusBar()->currentMessage(), label->lastDoneMessage());
    QVERIFY2(label->text().contains(QStringLiteral("done")), qPrintable(label->text()));
  }

  void stepBackWhileInsertingRepeatsTheRunBitForBit() {
    QTemporaryDir dir;
    MainWindow w;
    QCOMPARE(showScene(w, false, QSize(480, 360), dir, QStringLiteral("pour.json"), kPour, 0), QString());
    const std::uint64_t every = StateHistory().intervalSteps(1e-4);
    const double end = 10.0 * static_cast<double>(every) * 1e-4 + 0.0123;
    const SimulationFrame* first = runUntil(w, end, 1e-4);
    QVERIFY(first != nullptr);
    const SnapshotBodies live = first->snapshot.bodies;
    const std::uint64_t steps = first->snapshot.steps;
    const InletProgress progress = first->snapshot.inlets.at(0).progress();
    QVERIFY2(progress.insertedCount >= 3 && progress.state != InletState::Done,
             qPrintable(QString("%1 bodies at t = %2 s").arg(progress.insertedCount).arg(end)));
    // Back until fewer bodies are in than now, then on to the same step: the same bits.
    std::uint64_t at = steps;
    std::size_t bodiesBack = live.size();
    for (int k = 0; k < 8 && bodiesBack >= live.size(); ++k) {
      w.simulation().stepBack();
      QVERIFY(waitForFrame(w, [&](const SimulationFrame& g) { return g.snapshot.steps < at; }));
      const SimulationFrame* back = w.currentFrame();
      QVERIFY(back != nullptr);
      at = back->snapshot.steps;
      bodiesBack = back->snapshot.bodies.size();
    }
    qInfo("%zu bodies at step %llu, %zu after stepping back to step %llu", live.size(),
          static_cast<unsigned long long>(steps), bodiesBack, static_cast<unsigned long long>(at));
    QVERIFY(bodiesBack < live.size());
    const SimulationFrame* again = runUntil(w, static_cast<double>(steps) * 1e-4, 1e-4);
    QVERIFY(again != nullptr);
    QCOMPARE(again->snapshot.steps, steps);
    QVERIFY2(clumplab::test::sameBits(again->snapshot.bodies, live), "the run after stepping back differs");
    QVERIFY(again->snapshot.inlets.at(0).progress() == progress);
  }
};

QTEST_MAIN(TestGuiInlet)
#include "tst_gui_inlet.moc"
