// Journeys through the real main window as users take them (issue 37): the default scene poured and
// piling, then S and G with the cursor over the pile, until things come to rest. Each test asserts
// what a user sees: no divergence, the new body on the pile (not in it), the run going on.
#include <QComboBox>
#include <QCursor>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>
#include <QtTest>
#include <cmath>

#include "BuildSize.hpp"
#include "GuiScenes.hpp"
#include "GuiTestSupport.hpp"
#include "TestSupport.hpp"
#include "core/base/ResourceLimits.hpp"
#include "gui/docks/ParametersDock.hpp"
#include "gui/document/DocumentController.hpp"
#include "gui/document/MeshRepairChoice.hpp"
#include "gui/document/RecentFiles.hpp"
#include "gui/spawn/SpawnController.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/window/DivergenceBanner.hpp"
#include "gui/window/MainWindow.hpp"
#include "gui/window/MeshNoticeBar.hpp"
#include "gui/window/StepAdviceBar.hpp"

using namespace clumplab;
using namespace clumplab::gui;
using namespace clumplab::sim;
using namespace clumplab::gui::test;

namespace {

// Runs the shown scene as fast as it goes until simulated time `t` [s]; false on a time-out.
bool runUntil(MainWindow& w, double t, int timeoutMs) {
  w.setSpeed(1.0, true);
  w.setRunning(true);
  return waitForFrame(
      w, [t](const SimulationFrame& f) { return f.diverged || f.snapshot.time >= t; }, timeoutMs);
}

// The pixel of the 3D view where world point `x` is drawn.
QPoint pixelOf(const Viewport& view, const Vec3& x) {
  const Eigen::Vector2d p = view.camera().project(x);
  return {static_cast<int>(std::lround(p.x())), static_cast<int>(std::lround(p.y()))};
}

// The body whose centre is highest in the frame shown.
std::size_t highestBody(const SimulationFrame& f) {
  std::size_t top = 0;
  for (std::size_t i = 1; i < f.snapshot.bodies.size(); ++i)
    if (f.snapshot.bodies.position[i].z() > f.snapshot.bodies.position[top].z()) top = i;
  return top;
}

// Moves the mouse over `pixel` of the view and presses `key` there, as a user does.
void pressOver(MainWindow& w, QPoint pixel, Qt::Key key) {
  w.activateWindow();  // a key reaches the window's shortcuts only in the active window
  QVERIFY(QTest::qWaitForWindowActive(&w));
  Viewport& view = *w.viewport();
  QCursor::setPos(view.mapToGlobal(pixel));
  QTest::mouseMove(&view, pixel);
  QTest::keyClick(&view, key);
}

// Shows the window active, opens the default scene and runs it to `t` [s]; "" or what went wrong.
QString pourTheDefaultScene(MainWindow& w, double t) {
  w.resize(1400, 900);
  w.show();
  w.activateWindow();
  if (!QTest::qWaitForWindowActive(&w)) return QStringLiteral("the window did not become active");
  w.openDefaultScene();
  if (!waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() > 0; }))
    return QStringLiteral("the default scene did not open");
  if (!runUntil(w, t, clumplab::test::wallClockMs(120000))) return QStringLiteral("the run did not reach t");
  const SimulationFrame* f = w.currentFrame();
  if (f == nullptr || f->diverged) return QStringLiteral("diverged while pouring");
  return QString();
}

// Types `text` into the Parameters panel's field named `name` and confirms it, as a user does.
bool typeParameter(MainWindow& w, const QString& name, const QString& text) {
  auto* field = w.parametersDock()->findChild<QDoubleSpinBox*>(name);
  if (field == nullptr) return false;
  field->setFocus();
  field->selectAll();
  QTest::keyClicks(field, text);
  QTest::keyClick(field, Qt::Key_Enter);
  return true;
}

const StepAdviceBar* adviceBar(const MainWindow& w) {
  return w.findChild<StepAdviceBar*>();
}

// Clicks the step advice's "Use Δt = … and run" and runs `seconds` [s] on: "" or what went wrong.
QString takeTheOfferedStepAndRun(MainWindow& w, double seconds) {
  QTest::mouseClick(adviceBar(w)->useSafeStepButton(), Qt::LeftButton);
  if (!waitForFrame(w, [](const SimulationFrame& g) { return !g.stepAdvised && !g.stats.paused; }))
    return QStringLiteral("the run did not go on at the offered step");
  const SimulationFrame* f = w.currentFrame();
  if (f == nullptr || !runUntil(w, f->snapshot.time + seconds, clumplab::test::wallClockMs(120000)))
    return QStringLiteral("the run did not reach its time");
  f = w.currentFrame();
  if (f == nullptr) return QStringLiteral("no frame");
  return f->diverged ? QString::fromStdString(f->problem) : QString();
}

const DivergenceBanner* banner(const MainWindow& w) {
  return w.findChild<DivergenceBanner*>();
}

// With CLUMPLAB_JOURNEY_SCREENSHOTS set to a folder, the window as the user sees it at this point of
// the journey, as `name`.png there (to look at what the tests drive; nothing is asserted on it).
void screenshot(MainWindow& w, const char* name) {
  const QString folder = qEnvironmentVariable("CLUMPLAB_JOURNEY_SCREENSHOTS");
  if (folder.isEmpty()) return;
  QCoreApplication::processEvents();
  w.grab().save(folder + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png"));
}

}  // namespace

class TestJourneys : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QSurfaceFormat::setDefaultFormat(viewportSurfaceFormat()); }
  // Settings of each journey's own: ctest runs the journeys in two processes at once (CMakeLists.txt).
  void init() {
    useTestSettings(QStringLiteral("tst_journeys-%1").arg(QLatin1String(QTest::currentTestFunction())));
  }

  // README's first invitation: the default scene piles up; S over the pile (where the pile is
  // highest, and where it is lowest), then G at it. Nothing diverges; each new body starts clear of
  // the others and comes to rest on the pile.
  void spawnAndShootOverTheDefaultPile() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    w.openDefaultScene();
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() > 0; }));
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr);
    const std::size_t poured = f->snapshot.bodies.size();
    // Under ThreadSanitizer (5-15x slower) the journey keeps its keys, spawns and undo over a pile still
    // settling, which is what that build checks (the threads); where the bodies end and that they come
    // to rest, the release build checks (a quarter of the sanitizer stage's time otherwise).
    QVERIFY(runUntil(w, clumplab::test::sizedForBuild(2.5, 0.8), clumplab::test::wallClockMs(120000)));
    f = w.currentFrame();
    QVERIFY(f != nullptr);
    QVERIFY2(!f->diverged, f->problem.c_str());

    const Viewport& view = *w.viewport();
    const Vec3 top = f->snapshot.bodies.position[highestBody(*f)];
    const double topBefore = top.z();
    const QPoint overTop = pixelOf(view, top);
    pressOver(w, overTop, Qt::Key_S);
    QVERIFY(
        waitForFrame(w, [&](const SimulationFrame& g) { return g.snapshot.bodies.size() == poured + 1; }));
    // Over the floor outside the box (a point in view beside it): the body goes to the nearest room
    // inside the box.
    const QPoint besideTheBox = pixelOf(view, Vec3(0.0, 0.9, 0.0));
    QVERIFY(view.rect().contains(besideTheBox));
    CLUMPLAB_VERIFY_LESS(0.36, view.worldPointUnder(besideTheBox).head<2>().cwiseAbs().maxCoeff());
    pressOver(w, besideTheBox, Qt::Key_S);
    QVERIFY(
        waitForFrame(w, [&](const SimulationFrame& g) { return g.snapshot.bodies.size() == poured + 2; }));
    pressOver(w, overTop, Qt::Key_G);
    QVERIFY(
        waitForFrame(w, [&](const SimulationFrame& g) { return g.snapshot.bodies.size() == poured + 3; }));

    f = w.currentFrame();
    QVERIFY(f != nullptr);
    QVERIFY(runUntil(w, f->snapshot.time + clumplab::test::sizedForBuild(2.0, 0.3),
                     clumplab::test::wallClockMs(120000)));
    f = w.currentFrame();
    QVERIFY(f != nullptr);
    const SimulationFrame& after = *f;
    QVERIFY2(!after.diverged, after.problem.c_str());
    QCOMPARE(after.snapshot.bodies.size(), poured + 3);
    // Each new body inside the box (the default scene's: 0.72 m square, 1.6 m high), and every body
    // at rest two seconds later: on the pile, not shot out of it.
    for (std::size_t i = poured; i < after.snapshot.bodies.size() && !clumplab::test::kReducedCases; ++i) {
      const Vec3 x = after.snapshot.bodies.position[i];
      CLUMPLAB_VERIFY_LESS(std::max(std::abs(x.x()), std::abs(x.y())), 0.36);
      CLUMPLAB_VERIFY_LESS(0.0, x.z());
      CLUMPLAB_VERIFY_LESS(x.z(), topBefore + 0.3);
    }
    for (std::size_t i = 0; i < after.snapshot.bodies.size() && !clumplab::test::kReducedCases; ++i)
      CLUMPLAB_VERIFY_LESS(after.snapshot.bodies.velocity[i].norm(), 0.05);
    screenshot(w, "three-spawned-at-rest");
    // Each spawn is one edit on the undo stack: undoing the last two takes their bodies away (after
    // the checks above: a frame read is the thread's to reuse once the window takes the next).
    QCOMPARE(w.undoStack()->count(), 3);
    w.undoStack()->undo();
    w.undoStack()->undo();
    QVERIFY(
        waitForFrame(w, [&](const SimulationFrame& g) { return g.snapshot.bodies.size() == poured + 1; }));
  }

  // A stiffness typed a thousand times too large: the run pauses with the safe step offered; run on
  // anyway, the settled pile diverges: the banner says it began right after that change and offers to
  // undo it; one click and the run goes on, as before.
  void aDivergenceAfterAnEditOffersToUndoIt() {
    MainWindow w;
    QCOMPARE(pourTheDefaultScene(w, 1.5), QString());
    QVERIFY(typeParameter(w, QStringLiteral("stiffness"), QStringLiteral("1e9")));
    QCOMPARE(w.parameters().contact.linear.stiffness, 1e9);
    // Paused before anything diverged, with the safe step offered; the user runs on anyway.
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.stepAdvised; }));
    QVERIFY(!w.currentFrame()->diverged);
    QVERIFY(w.currentFrame()->stats.paused);
    QVERIFY(adviceBar(w)->keepStepButton()->isVisible());
    QTest::mouseClick(adviceBar(w)->keepStepButton(), Qt::LeftButton);
    QVERIFY(waitForFrame(
        w, [](const SimulationFrame& f) { return f.diverged; }, clumplab::test::wallClockMs(30000)));
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr);
    QCOMPARE(f->cause, DivergenceCause::ParameterEdit);
    QVERIFY2(
        QString::fromStdString(f->problem).contains(QStringLiteral("right after a parameter was changed")),
        f->problem.c_str());
    QVERIFY(waitForFrame(w, [&](const SimulationFrame&) { return banner(w)->undoButton()->isVisible(); }));
    QVERIFY(banner(w)->undoButton()->text().contains(QStringLiteral("stiffness")));
    screenshot(w, "banner-after-an-edit");
    QVERIFY(banner(w)->safeStepButton()->isVisible());  // at 1e9 N/m the step is above the safe one
    QVERIFY(!banner(w)->halveButton()->isVisible());
    QTest::mouseClick(banner(w)->undoButton(), Qt::LeftButton);
    QCOMPARE(w.parameters().contact.linear.stiffness, 1e6);
    f = w.currentFrame();
    QVERIFY(f != nullptr);
    const double t0 = f->snapshot.time;
    QVERIFY(runUntil(w, t0 + 1.0, clumplab::test::wallClockMs(120000)));
    f = w.currentFrame();
    QVERIFY(f != nullptr);
    QVERIFY2(!f->diverged, f->problem.c_str());
    QCOMPARE(f->parameters.contact.linear.stiffness, 1e6);
    QVERIFY(!w.divergenceBannerShown());
  }

  // An edit that needs a smaller step (a contact 1000x stiffer) pauses the run before anything
  // diverges and offers the safe step; one click, and the pile runs on at it, undoable like any edit.
  void anEditThatNeedsASmallerStepOffersIt() {
    MainWindow w;
    QCOMPARE(pourTheDefaultScene(w, 1.5), QString());
    const double before = w.parameters().timeStep;
    QVERIFY(typeParameter(w, QStringLiteral("stiffness"), QStringLiteral("1e9")));
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.stepAdvised; }));
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr);
    const double safe = f->advisedTimeStep;
    CLUMPLAB_VERIFY_LESS(safe, 0.5 * before);
    QCOMPARE(safe, f->recommendedTimeStep);
    screenshot(w, "step-advice");
    QCOMPARE(takeTheOfferedStepAndRun(w, 0.02), QString());
    QCOMPARE(w.parameters().timeStep, safe);
    f = w.currentFrame();
    QVERIFY(f != nullptr);
    QCOMPARE(f->parameters.timeStep, safe);
    QVERIFY(!adviceBar(w)->isVisible());
    QCOMPARE(w.undoStack()->undoText(),
             QStringLiteral("change time step, set to the safe %1 s after an edit").arg(safe, 0, 'g', 4));
  }

  // Issue 37, item 5: switching the contact model to Hertz–Mindlin at the scene's step diverged at once
  // without a word. Chosen in the Parameters panel over a running pile: the run pauses and the safe
  // step is offered before anything diverges; taken, the pile runs on under the new law.
  void aModelSwitchThatNeedsASmallerStepOffersIt() {
    MainWindow w;
    QCOMPARE(pourTheDefaultScene(w, 1.5), QString());
    const double before = w.parameters().timeStep;
    auto* model = w.parametersDock()->findChild<QComboBox*>(QStringLiteral("contact model"));
    QVERIFY(model != nullptr);
    const int hertzMindlin = model->findData(static_cast<int>(ContactModel::Kind::HertzMindlin));
    QVERIFY(hertzMindlin >= 0);
    model->setCurrentIndex(hertzMindlin);
    emit model->activated(hertzMindlin);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) {
      return f.parameters.contact.kind == ContactModel::Kind::HertzMindlin && (f.stepAdvised || f.diverged);
    }));
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr);
    QVERIFY2(!f->diverged, f->problem.c_str());
    const double safe = f->advisedTimeStep;
    CLUMPLAB_VERIFY_LESS(safe, before);
    QVERIFY(adviceBar(w)->isVisible());
    screenshot(w, "model-switch-advice");
    QCOMPARE(takeTheOfferedStepAndRun(w, 0.01), QString());
    f = w.currentFrame();
    QVERIFY(f != nullptr);
    QCOMPARE(f->parameters.timeStep, safe);
  }

  // A body shot into the pile at 100 m/s goes through it at a step five times the scene's (the
  // default scene's step before issue 38; at the scene's own step the pile stops the shot): the
  // banner names the shot and offers to undo it; undone, the body is gone and the pile runs on.
  void aDivergenceAfterAShotOffersToUndoIt() {
    MainWindow w;
    QCOMPARE(pourTheDefaultScene(w, 2.0), QString());
    QVERIFY(typeParameter(w, QStringLiteral("time step"), QStringLiteral("1e-4")));
    QVERIFY(waitForFrame(w, [](const SimulationFrame& g) { return g.parameters.timeStep == 1e-4; }));
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr);
    const std::size_t poured = f->snapshot.bodies.size();
    const double dt = f->parameters.timeStep;
    w.spawnController()->shootSpeedBox()->setValue(100.0);
    const Viewport& view = *w.viewport();
    pressOver(w, pixelOf(view, f->snapshot.bodies.position[highestBody(*f)]), Qt::Key_G);
    QVERIFY(waitForFrame(
        w, [&](const SimulationFrame& g) { return g.diverged || g.snapshot.bodies.size() == poured + 1; }));
    if (!waitForFrame(
            w, [](const SimulationFrame& g) { return g.diverged; }, clumplab::test::wallClockMs(20000)))
      QSKIP("the 100 m/s shot did not make this pile diverge: nothing to recover from");
    f = w.currentFrame();
    QVERIFY(f != nullptr);
    QCOMPARE(f->cause, DivergenceCause::SpawnedBodies);
    if (dt <= f->recommendedTimeStep)
      QVERIFY(!QString::fromStdString(f->problem).contains(QStringLiteral("above the safe step")));
    QVERIFY(waitForFrame(w, [&](const SimulationFrame&) { return banner(w)->undoButton()->isVisible(); }));
    screenshot(w, "banner-after-a-shot");
    QTest::mouseClick(banner(w)->undoButton(), Qt::LeftButton);
    QVERIFY(waitForFrame(
        w, [&](const SimulationFrame& g) { return !g.diverged && g.snapshot.bodies.size() == poured; }));
    f = w.currentFrame();
    QVERIFY(f != nullptr);
    // A second on (the energy watch once raised a false alarm here: 5e-3 J of a 400 J pour gained
    // on the pile at rest within 0.3 s; EnergyWatch::kRunScaleShare).
    QVERIFY(runUntil(w, f->snapshot.time + 1.0, clumplab::test::wallClockMs(120000)));
    f = w.currentFrame();
    QVERIFY(f != nullptr);
    QVERIFY2(!f->diverged, f->problem.c_str());
    QCOMPARE(f->snapshot.bodies.size(), poured);
    QCOMPARE(f->parameters.timeStep, dt);  // the step was not the cause and was left alone
  }

  // A returning user starts where they left off: their scene reopens (not the default), a lesson in
  // between changes neither that nor Open Recent (its scene is a working copy in the cache); with the
  // setting off, the default scene opens; a last scene since deleted gives the default scene.
  void aReturningUserFindsTheirScene() {
    QTemporaryDir dir;
    const QString mine = QFileInfo(writeFile(dir, QStringLiteral("mine.json"), kTwoBalls)).absoluteFilePath();
    DocumentController::setReopenLastScene(true);  // the default, whatever an earlier run left
    {
      MainWindow w;
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      QCOMPARE(w.openDocument(mine, true), QString());
      QCOMPARE(w.openLesson(0, false), QString());
      QVERIFY(RecentFiles::isWorkingCopy(w.document()->scenePath()));
    }
    const auto recentEntries = [](const MainWindow& w) {
      QStringList entries;
      for (const QMenu* menu : w.menuBar()->findChildren<QMenu*>()) {
        if (!menu->title().contains(QStringLiteral("Recent"))) continue;
        for (const QAction* a : menu->actions()) entries << a->text();
      }
      return entries;
    };
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    {
      MainWindow w;
      w.openStartScene();
      QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 2; }));
      QCOMPARE(w.document()->scenePath(), mine);
      const QStringList entries = recentEntries(w);
      QVERIFY(!entries.isEmpty());
      QVERIFY2(entries.front().startsWith(QStringLiteral("mine.json")), qPrintable(entries.join('\n')));
      for (const QString& e : entries) QVERIFY2(!e.contains(cache), qPrintable(e));
    }
    DocumentController::setReopenLastScene(false);
    {
      MainWindow w;
      w.openStartScene();
      QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() > 2; }));
      QCOMPARE(w.document()->scenePath(), QString());
    }
    DocumentController::setReopenLastScene(true);
    QVERIFY(QFile::remove(mine));
    {
      MainWindow w;
      w.openStartScene();
      QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() > 2; }));
      QCOMPARE(w.document()->scenePath(), QString());
    }
  }

  // Meshes from outside the project, dropped on the window: Wuson (open: 412 boundary edges as
  // given) becomes a clump that falls and lands, the status bar saying what the import did; a file
  // that bounds nothing (one triangle) gives one message naming it, with no command-line advice, and
  // the scene on screen stays as it was.
  void droppedMeshesFromOutside() {
    const QString wuson = QStringLiteral("/usr/share/assimp/models/STL/Wuson.stl");
    if (!QFile::exists(wuson)) QSKIP("assimp-testmodels is not installed (.ci/install-deps installs it)");
    QTemporaryDir dir;
    rememberRepairChoice(wuson, false);  // as a new user (the settings outlive a run)
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openDefaultScene();
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() > 1; }));
    MessageBoxCloser boxes;
    dropFile(w, wuson);
    const bool opened = waitForFrame(
        w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 1; },
        clumplab::test::wallClockMs(60000));
    QVERIFY2(opened && boxes.texts().isEmpty(), qPrintable(boxes.texts().join('\n')));
    const SimulationFrame* shown = w.currentFrame();
    QVERIFY(shown != nullptr);
    QCOMPARE(QFileInfo(QString::fromStdString(shown->sceneFile)).fileName(), QStringLiteral("Wuson.stl"));
    // What the import did, above the view, with its repair offered there.
    const MeshNoticeBar* notes = w.findChild<MeshNoticeBar*>();
    QVERIFY(notes != nullptr);
    QVERIFY(notes->isVisible());
    QVERIFY2(notes->message().contains(QStringLiteral("Wuson.stl")) &&
                 notes->message().contains(QStringLiteral("winding")),
             qPrintable(notes->message()));
    QVERIFY(notes->repairButton()->isVisible());
    QVERIFY(runUntil(w, 1.5, clumplab::test::wallClockMs(120000)));
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr);
    QVERIFY2(!f->diverged, f->problem.c_str());
    screenshot(w, "wuson-dropped");

    // Repair from the bar: the mesh opens again with its holes closed, and the choice is kept for
    // the file (a later drop, Open Recent, the wizard).
    QVERIFY(!repairChosenFor(wuson));
    w.setRunning(false);
    notes->repairButton()->click();  // opens in the background
    QVERIFY(waitForFrame(
        w, [](const SimulationFrame& g) { return g.snapshot.bodies.size() == 1 && g.snapshot.time == 0.0; },
        clumplab::test::wallClockMs(60000)));
    QVERIFY(repairChosenFor(wuson));
    QVERIFY2(notes->isVisible() && notes->message().contains(QStringLiteral("closed")),
             qPrintable(notes->message()));
    QVERIFY(!notes->repairButton()->isVisible());
    QVERIFY(runUntil(w, 0.5, clumplab::test::wallClockMs(120000)));
    f = w.currentFrame();
    QVERIFY(f != nullptr);
    QVERIFY2(!f->diverged, f->problem.c_str());
    screenshot(w, "wuson-repaired");

    const QString triangle = writeFile(dir, QStringLiteral("triangle.stl"),
                                       "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
                                       "vertex 0 1 0\nendloop\nendfacet\nendsolid t\n");
    w.setRunning(false);
    const std::size_t before = w.currentFrame()->snapshot.bodies.size();
    dropFile(w, triangle);
    QElapsedTimer waited;
    waited.start();
    while (boxes.texts().isEmpty() && waited.elapsed() < clumplab::test::wallClockMs(30000)) QTest::qWait(20);
    QCOMPARE(boxes.texts().size(), 1);
    const QString message = boxes.texts().front();
    QVERIFY2(message.contains(QStringLiteral("triangle.stl")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("unchanged")), qPrintable(message));
    QVERIFY2(!message.contains(QStringLiteral("--")), qPrintable(message));
    QTest::qWait(200);
    f = w.currentFrame();
    QVERIFY(f != nullptr);
    QCOMPARE(f->snapshot.bodies.size(), before);
    QCOMPARE(QFileInfo(QString::fromStdString(f->sceneFile)).fileName(), QStringLiteral("Wuson.stl"));
  }

  // A mesh beyond a resource limit (one set low here, as a huge scan meets the default): the message
  // names the file, the count and the limit, without command-line advice, and offers the limit raised
  // in one click, which opens the mesh.
  void aMeshBeyondALimitOpensWithTheLimitRaisedFromItsMessage() {
    const QString mesh = QStringLiteral("/usr/share/assimp/models/STL/sphereWithHole.stl");
    if (!QFile::exists(mesh)) QSKIP("assimp-testmodels is not installed (.ci/install-deps installs it)");
    const ResourceLimits before = resourceLimits();
    ResourceLimits low = before;
    low.maxTriangles = 100;  // the sphere has 285
    setResourceLimits(low);
    rememberRepairChoice(mesh, false);
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setRunning(false);
    {
      MessageBoxCloser boxes(QStringLiteral("Raise the limit"));
      dropFile(w, mesh);
      QVERIFY(waitForFrame(
          w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 1 && f.snapshot.pebbles > 0; },
          clumplab::test::wallClockMs(60000)));
      QCOMPARE(boxes.texts().size(), 1);
      const QString message = boxes.texts().front();
      QVERIFY2(message.contains(QStringLiteral("sphereWithHole.stl: 285 triangles exceed the limit of 100")),
               qPrintable(message));
      QVERIFY2(!message.contains(QStringLiteral("--")) && !message.contains(QStringLiteral("CLUMPLAB_")),
               qPrintable(message));
    }
    QCOMPARE(resourceLimits().maxTriangles, std::size_t{570});
    const SimulationFrame* shown = w.currentFrame();
    QVERIFY(shown != nullptr);
    QCOMPARE(QFileInfo(QString::fromStdString(shown->sceneFile)).fileName(),
             QStringLiteral("sphereWithHole.stl"));
    setResourceLimits(before);
  }
};

QTEST_MAIN(TestJourneys)
#include "tst_journeys.moc"
