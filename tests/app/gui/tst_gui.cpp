// The desktop app as a user drives it: the real MainWindow, its simulation thread and its 3D view
// (under Xvfb with Mesa in CI). Here the window and its documents: the default scene and its energy
// plot, broken and saved scenes, divergences and their fix, the toolbar, the wall-impulse plot,
// closing mid-run, screenshots. The Parameters panel: tst_gui_parameters; bodies in the view and the
// template library: tst_gui_bodies; movies: tst_gui_recording.
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QToolBar>
#include <QUndoStack>
#include <QtTest>
#include <cmath>

#include "BuildSize.hpp"
#include "GuiScenes.hpp"
#include "GuiTestSupport.hpp"
#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "gui/docks/EnergyPlotDock.hpp"
#include "gui/docks/ParametersDock.hpp"
#include "gui/recording/RecordDialog.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/widgets/TimeSeriesChart.hpp"
#include "gui/window/MainWindow.hpp"

using namespace clumplab;
using namespace clumplab::gui;
using namespace clumplab::sim;
using namespace clumplab::gui::test;

namespace {
// A stiff ball squeezed between floor and ceiling, with a step far above the stable limit: its
// overlap runs away within a few steps. Half the step runs.
const char* kTooLargeStep = R"({
  "format": "clumplab-scene/1", "time_step": 8e-4, "integrator": "leapfrog", "gravity": [0, 0, -9.81],
  "contact": { "model": "linear", "stiffness": 1e7, "restitution": 0.9, "friction": 0.0 },
  "walls": [ { "type": "box", "min": [-1, -1, 0], "max": [1, 1, 0.0999] } ],
  "templates": { "ball": { "density": 1000, "pebbles": [[0, 0, 0, 0.05]] } },
  "bodies": [ { "template": "ball", "position": [0, 0, 0.0499] } ] })";

// The same ball resting on a floor, free above: the unstable step flings it up (142 J from rest
// within a second) without a NaN or a deep overlap.
const char* kFlungBall = R"({
  "format": "clumplab-scene/1", "time_step": 8e-4, "integrator": "leapfrog", "gravity": [0, 0, -9.81],
  "contact": { "model": "linear", "stiffness": 1e7, "restitution": 0.9, "friction": 0.0 },
  "walls": [ { "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1] } ],
  "templates": { "ball": { "density": 1000, "pebbles": [[0, 0, 0, 0.05]] } },
  "bodies": [ { "template": "ball", "position": [0, 0, 0.0499] } ] })";
}  // namespace

class TestGui : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QSurfaceFormat::setDefaultFormat(viewportSurfaceFormat()); }

  void init() { useTestSettings(QStringLiteral("tst_gui")); }

  void defaultSceneOpensAndPlotsEverySingleStep() {
    MainWindow w;
    w.setRunning(false);
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    w.openDefaultScene();
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() > 50; }));
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr);
    QVERIFY2(f->snapshot.templates.size() >= 3, "the default scene mixes T-handles, wing nuts and dumbbells");
    const std::size_t before = w.energyDock()->pointCount();
    const std::uint64_t steps0 = f->snapshot.steps;
    constexpr int kSteps = 25;
    for (int i = 0; i < kSteps; ++i) QTest::keyClick(w.viewport(), Qt::Key_Right);
    QVERIFY(waitForFrame(w, [&](const SimulationFrame& g) { return g.snapshot.steps >= steps0 + kSteps; }));
    QTRY_COMPARE_WITH_TIMEOUT(w.energyDock()->pointCount(), before + kSteps,
                              clumplab::test::wallClockMs(5000));
    const TimeSeriesChart* chart = w.energyDock()->energyChart();
    QCOMPARE(chart->times().back(), w.currentFrame()->snapshot.time);
  }

  void brokenSceneKeepsTheCurrentOne() {
    QTemporaryDir dir;
    MainWindow w;
    w.setRunning(false);
    w.show();
    QCOMPARE(openScene(w, dir, QStringLiteral("fall.json"), kFallingSphere, 1), QString());
    const std::uint64_t generation = w.currentFrame()->sceneGeneration;
    const QString broken =
        writeFile(dir, QStringLiteral("broken.json"),
                  R"({"format": "clumplab-scene/1", "time_step": "fast", "templates": {}})");
    const QString error = w.openDocument(broken, true);
    QVERIFY2(error.contains(QStringLiteral("broken.json")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("time_step")), qPrintable(error));
    const QString missing = w.openDocument(dir.filePath(QStringLiteral("nowhere.stl")), true);
    QVERIFY2(missing.contains(QStringLiteral("nowhere.stl")), qPrintable(missing));
    QTest::qWait(100);
    w.tick();
    QCOMPARE(w.currentFrame()->sceneGeneration, generation);
    QCOMPARE(w.currentFrame()->snapshot.bodies.size(), std::size_t{1});
  }

  void savedSceneReloadsWithTheLiveState() {
    QTemporaryDir dir;
    MainWindow w;
    w.setRunning(false);
    w.show();
    QCOMPARE(openScene(w, dir, QStringLiteral("fall.json"), kFallingSphere, 1), QString());
    EditableModel edited = w.parameters();
    edited.gravity = Vec3(1.0, 0.0, -3.0);
    edited.contact.linear.friction = 0.7;
    emit w.parametersDock()->edited(edited, QStringLiteral("gravity"));
    QVERIFY(std::isfinite(measuredAcceleration(w, 100)));
    const Vec3 position = w.currentFrame()->snapshot.bodies.position[0];
    const QString saved = dir.filePath(QStringLiteral("saved.json"));
    QCOMPARE(w.saveSceneTo(saved), QString());
    MainWindow other;
    other.setRunning(false);
    QCOMPARE(other.openDocument(saved, true), QString());
    QVERIFY(waitForFrame(other, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 1; }));
    CLUMPLAB_VERIFY_LESS((other.currentFrame()->snapshot.bodies.position[0] - position).norm(), 1e-12);
    // The edited parameters were saved with it.
    QCOMPARE(other.parameters().gravity, Vec3(1.0, 0.0, -3.0));
    QCOMPARE(other.parameters().contact.linear.friction, 0.7);
  }

  void divergencePausesAndHalvingTheStepRecovers() {
    QTemporaryDir dir;
    MainWindow w;
    w.setSpeed(1.0, false);
    w.setRunning(false);
    w.show();
    QCOMPARE(openScene(w, dir, QStringLiteral("stiff.json"), kTooLargeStep, 1), QString());
    // An edit just before the run: resuming from the last good state must keep it.
    EditableModel edited = w.parameters();
    edited.gravity = Vec3(0.0, 0.0, -12.0);
    emit w.parametersDock()->edited(edited, QStringLiteral("gravity z"));
    w.setRunning(true);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.diverged; }));
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr);
    QVERIFY2(QString::fromStdString(f->problem).contains(QStringLiteral("time step")), f->problem.c_str());
    QVERIFY(f->stats.paused);
    QVERIFY(f->canRecover);
    QVERIFY(w.divergenceBannerShown());
    QTRY_VERIFY_WITH_TIMEOUT(!w.running(),
                             clumplab::test::wallClockMs(5000));  // the play button follows the thread
    const double divergedAt = f->snapshot.time;
    const std::uint64_t divergedSteps = f->snapshot.steps;

    // A single step on the diverged world does nothing (and does not spin).
    w.simulation().singleStep(1);
    QTest::qWait(50);
    w.tick();
    QCOMPARE(w.currentFrame()->snapshot.steps, divergedSteps);

    // Halve until it runs: 8e-4 is far beyond the stable step of this contact; 2e-4 runs.
    double divergedAtLast = divergedAt;
    int halvings = 0;
    while (halvings < 6) {
      w.recoverWithHalfStep();
      ++halvings;
      const double dt = w.parameters().timeStep;
      QVERIFY(waitForFrame(w, [&](const SimulationFrame& g) {
        return g.snapshot.timeStep == dt && (g.diverged || g.snapshot.time > divergedAtLast + 0.05);
      }));
      const SimulationFrame* now = w.currentFrame();
      QVERIFY(now != nullptr);
      if (!now->diverged) break;
      divergedAtLast = now->snapshot.time;
    }
    // Where it resumes from depends on wall-clock checkpoints, so the count varies: resumed early
    // (a loaded machine checkpoints late), 4e-4 can carry the ball 0.05 s past the old divergence
    // before the contact that breaks it; at most 4 halvings (5e-5) always run.
    QVERIFY2(halvings >= 1 && halvings <= 4, qPrintable(QString::number(halvings)));
    const double finalStep = w.parameters().timeStep;
    QCOMPARE(finalStep, 8e-4 / std::pow(2.0, halvings));
    QCOMPARE(w.undoStack()->count(), 1 + halvings);
    QVERIFY(!w.divergenceBannerShown());
    QTRY_VERIFY_WITH_TIMEOUT(w.running(), clumplab::test::wallClockMs(5000));
    const SimulationFrame* g = w.currentFrame();
    QVERIFY(g != nullptr && g->snapshot.bodies.size() == 1);
    QCOMPARE(g->parameters.gravity.z(), -12.0);  // the edit made before the run survived
    QVERIFY(g->snapshot.bodies.position[0].z() > 0.0);
    // Undo takes back the last halving like any edit.
    w.undoStack()->undo();
    QCOMPARE(w.parameters().timeStep, 2.0 * finalStep);
    QCOMPARE(w.parameters().gravity.z(), -12.0);
  }

  void energyBlowUpIsADivergence() {
    QTemporaryDir dir;
    MainWindow w;
    w.setSpeed(1.0, true);
    w.setRunning(true);
    w.show();
    QCOMPARE(w.openDocument(writeFile(dir, QStringLiteral("flung.json"), kFlungBall), true), QString());
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.diverged; }));
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr);
    QVERIFY2(QString::fromStdString(f->problem).contains(QStringLiteral("energy")), f->problem.c_str());
    QVERIFY(f->canRecover);
    // Caught early: the ball has not flown far.
    CLUMPLAB_VERIFY_LESS(f->snapshot.bodies.position[0].z(), 1.0);
    // Halve until it runs (4e-4 s still shows a large energy error on this contact; 2e-4 s does not).
    for (int halvings = 0; halvings < 5; ++halvings) {
      w.recoverWithHalfStep();
      const double dt = w.parameters().timeStep;
      QVERIFY(waitForFrame(w, [&](const SimulationFrame& g) {
        return g.snapshot.timeStep == dt && g.commandsApplied >= w.simulation().commandsPosted() &&
               (g.diverged || g.snapshot.time > 0.3);
      }));
      const SimulationFrame* now = w.currentFrame();
      QVERIFY(now != nullptr);
      if (!now->diverged) break;
    }
    QVERIFY(!w.currentFrame()->diverged);
    // A stable step keeps the resting ball at rest.
    const SimulationFrame* g = w.currentFrame();
    QVERIFY(g != nullptr && g->snapshot.bodies.size() == 1);
    CLUMPLAB_VERIFY_LESS(std::abs(g->snapshot.bodies.velocity[0].z()), 0.05);
  }

  void defaultSceneNeverTripsTheEnergyWatch() {
#if CLUMPLAB_UNDER_TSAN
    // 1.5 s of the default pile is a physics check, ~10x slower under TSan than its minute allows; the
    // simulation thread's hand-offs are exercised by every other test here.
    QSKIP("a physics check too slow under ThreadSanitizer (runs in the release suite)");
#endif
    MainWindow w;
    w.setSpeed(1.0, true);
    w.setRunning(true);
    w.show();
    w.openDefaultScene();
    QVERIFY(waitForFrame(
        w, [](const SimulationFrame& f) { return f.snapshot.time > 1.5 || f.diverged; }, 60000));
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr);
    QVERIFY2(!f->diverged, f->problem.c_str());
  }

  // At 1500 px (a laptop) the toolbar shows the clump wizard, not behind its » menu.
  void toolbarShowsTheClumpWizardAt1500Pixels() {
    MainWindow w;
    w.setRunning(false);
    w.resize(1500, 920);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* bar = w.findChild<QToolBar*>(QStringLiteral("simulationToolBar"));
    QVERIFY(bar != nullptr);
    QAction* wizard = nullptr;
    for (QAction* a : bar->actions())
      if (a->text().contains(QStringLiteral("New clump from mesh"))) wizard = a;
    QVERIFY(wizard != nullptr);
    QWidget* button = bar->widgetForAction(wizard);
    QVERIFY(button != nullptr);
    QTRY_VERIFY(button->isVisible());
    QVERIFY(bar->rect().contains(button->geometry()));
  }

  // The osmosis box (Mutze, Polyspherical grains, §1 iv) in the window: the energy panel's wall view plots
  // each wall's impulse and the momentum balance, which stays at round-off (no gravity).
  void osmosisBoxWallImpulses() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setSpeed(1.0, true);
    QCOMPARE(w.openDocument(QString(CLUMPLAB_SCENES_DIR) + QStringLiteral("/osmosis-box.json"), true),
             QString());
    w.setRunning(true);
    w.energyDock()->showView(EnergyPlotDock::View::Walls);
    // At real-time speed 0.2 s is about a dozen display frames, one plot point each; a loaded machine
    // publishes fewer frames in that time, so wait for the points as well as for the simulated time.
    QVERIFY(waitForFrame(
        w,
        [&w](const SimulationFrame& f) {
          return f.snapshot.time > 0.2 && w.energyDock()->wallChart()->pointCount() > 10;
        },
        60000));
    const TimeSeriesChart* chart = w.energyDock()->wallChart();
    const std::size_t walls = w.currentFrame()->snapshot.walls.size();
    QVERIFY(walls >= 7);  // a box and the membrane
    double largest = 0.0;
    for (std::size_t k = 0; k < walls; ++k)
      largest = std::max(largest, chart->column(static_cast<int>(k)).back());
    const double balance = chart->column(static_cast<int>(walls)).back();
    qInfo("largest wall impulse %.3g N s, momentum balance %.3g N s", largest, balance);
    QVERIFY(largest > 0.0);
    QVERIFY(balance < 1e-9 * largest + 1e-18);
    QCOMPARE(w.energyDock()->view(), EnergyPlotDock::View::Walls);
  }

  void closingWhileRunningStopsTheThread() {
    auto* w = new MainWindow;
    w->setSpeed(1.0, true);
    w->setRunning(true);
    w->show();
    w->openDefaultScene();
    QVERIFY(waitForFrame(*w, [](const SimulationFrame& f) { return f.snapshot.steps > 20; }));
    QVERIFY(w->close());
    delete w;  // joins the simulation thread; a hang here fails the test by timeout
  }

  // Whole-window images of the main states (help overlay, inspector with a selected body, the
  // divergence banner), written to $CLUMPLAB_SHOTS_DIR when set, for looking at them.
  void windowStatesRender() {
#if CLUMPLAB_UNDER_TSAN
    // Waits 10 s of wall time for 0.35 s of a pile before its screenshots: not enough under TSan on
    // a loaded machine.
    QSKIP("screenshots after a run too slow under ThreadSanitizer (runs in the release suite)");
#endif
    QTemporaryDir dir;
    const QString shots = qEnvironmentVariable("CLUMPLAB_SHOTS_DIR");
    auto save = [&](QWidget& widget, const QString& name) {
      const QPixmap image = widget.grab();
      QVERIFY(!image.isNull());
      if (!shots.isEmpty()) QVERIFY(image.save(QDir(shots).filePath(name)));
    };
    MainWindow w;
    w.resize(1500, 920);
    w.setSpeed(1.0, true);
    w.setRunning(true);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openDefaultScene();
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.time > 0.35; }));
    w.setRunning(false);
    w.viewport()->setSelectedBody(5);
    w.viewport()->options().bodyAxes = true;
    w.viewport()->options().angularVelocityArrows = true;
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.stats.paused; }));
    QTest::qWait(50);
    w.tick();
    save(w, QStringLiteral("window-selected.png"));
    w.viewport()->setHelpVisible(true);
    const QImage help = w.viewport()->grabFramebuffer();
    QVERIFY(!help.isNull());
    if (!shots.isEmpty()) QVERIFY(help.save(QDir(shots).filePath(QStringLiteral("view-help.png"))));
    w.viewport()->setHelpVisible(false);
    {
      RecordDialog record(QSize(1280, 720), &w);
      record.show();
      QVERIFY(QTest::qWaitForWindowExposed(&record));
      QVERIFY(!record.plan().movie.path.isEmpty());
      save(record, QStringLiteral("record-dialog.png"));
    }
    {
      // The Parameters dock at the linear contact law, where the restitution hint is shown.
      auto* hint = w.findChild<QLabel*>(QStringLiteral("restitution hint"));
      QVERIFY(hint != nullptr);
      QWidget* dock = hint->window() == &w ? hint->parentWidget() : nullptr;
      while (dock != nullptr && qobject_cast<QDockWidget*>(dock) == nullptr) dock = dock->parentWidget();
      QVERIFY(dock != nullptr);
      for (QWidget* p = hint->parentWidget(); p != nullptr; p = p->parentWidget()) {
        if (auto* area = qobject_cast<QScrollArea*>(p)) area->ensureWidgetVisible(hint);
      }
      QTest::qWait(50);
      QVERIFY(hint->isVisible() && hint->text().contains(QStringLiteral("0.37")) &&
              hint->height() >= hint->heightForWidth(hint->width()));
      save(*dock, QStringLiteral("parameters-contact.png"));
    }
    QCOMPARE(w.openDocument(writeFile(dir, QStringLiteral("stiff.json"), kTooLargeStep), true), QString());
    w.setRunning(true);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.diverged; }));
    w.tick();
    QVERIFY(w.divergenceBannerShown());
    save(w, QStringLiteral("window-diverged.png"));
  }

  void scriptedScreenshotShowsTheScene() {
    QTemporaryDir dir;
    MainWindow w;
    w.setRunning(false);
    w.viewport()->setFixedSize(640, 360);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openDefaultScene();
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() > 50; }));
    const QImage image = w.viewport()->grabFramebuffer();
    QCOMPARE(image.size(), QSize(640, 360) * w.viewport()->devicePixelRatio());
    // Bodies are coloured: some pixels are far from grey.
    int colourful = 0;
    for (int y = 0; y < image.height(); y += 4) {
      for (int x = 0; x < image.width(); x += 4) {
        const QColor c = image.pixelColor(x, y);
        if (c.saturation() > 100 && c.value() > 80) ++colourful;
      }
    }
    QVERIFY2(colourful > 50, qPrintable(QStringLiteral("colourful pixels: %1").arg(colourful)));
  }
};

QTEST_MAIN(TestGui)
#include "tst_gui.moc"
