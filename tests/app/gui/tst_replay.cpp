// Trajectories recorded from the app and replayed: the file holds the live run's poses
// to the bit, a replay shows exactly the file's frames (seeking, keys, playback), leaving it brings
// the live scene back untouched; stepping back through the history and running on repeats the run
// bit for bit, within the memory bound; a replay re-renders headless, one video frame a frame.
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QProcess>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QtTest>
#include <bit>
#include <map>

#include "BuildSize.hpp"
#include "GuiTestSupport.hpp"
#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/io/Trajectory.hpp"
#include "core/scene/Scene.hpp"
#include "gui/docks/ParametersDock.hpp"
#include "gui/recording/MovieRecorder.hpp"
#include "gui/recording/TrajectoryControls.hpp"
#include "gui/recording/TrajectoryDialog.hpp"
#include "gui/replay/ReplayController.hpp"
#include "gui/replay/TimelineBar.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/window/MainWindow.hpp"

using namespace clumplab;
using namespace clumplab::gui;
using namespace clumplab::sim;
using namespace clumplab::gui::test;

namespace {
// Rods and balls dropped onto a floor, spinning, with a 0.1 ms step: contacts within 0.1 s.
const char* kPile = R"({
  "format": "clumplab-scene/1", "time_step": 1e-4, "integrator": "leapfrog", "gravity": [0, 0, -9.81],
  "contact": { "model": "linear", "stiffness": 1e4, "restitution": 0.5, "friction": 0.3 },
  "walls": [ { "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1] } ],
  "templates": { "rod": { "density": 1000, "pebbles": [[-0.015, 0, 0, 0.01], [0, 0, 0, 0.01], [0.015, 0, 0, 0.01]] },
                 "ball": { "density": 1000, "pebbles": [[0, 0, 0, 0.012]] } },
  "bodies": [ { "template": "rod", "position": [0, 0, 0.02], "angular_velocity": [0, 0, 3] },
              { "template": "rod", "position": [0.01, 0.005, 0.05], "orientation": [0.92, 0.2, 0.3, 0.1],
                "angular_velocity": [2, -1, 0.5] },
              { "template": "ball", "position": [-0.03, 0, 0.04], "velocity": [0.3, 0, 0] },
              { "template": "rod", "position": [0.03, -0.01, 0.08], "angular_velocity": [0, 4, 0] },
              { "template": "ball", "position": [0.0, 0.03, 0.1] },
              { "template": "rod", "position": [-0.01, -0.02, 0.12], "orientation": [0.7, 0.7, 0, 0] } ] })";
constexpr std::size_t kPileBodies = 6;
constexpr double kPileStep = 1e-4;  // [s]

// "" if the two sets of bodies hold the same bits, else the first difference.
QString sameBits(const SnapshotBodies& a, const SnapshotBodies& b) {
  if (a.size() != b.size()) return QStringLiteral("%1 bodies against %2").arg(a.size()).arg(b.size());
  const auto differ = [](double x, double y) {
    return std::bit_cast<std::uint64_t>(x) != std::bit_cast<std::uint64_t>(y);
  };
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a.templateIndex[i] != b.templateIndex[i]) return QStringLiteral("body %1: template").arg(i);
    for (int c = 0; c < 3; ++c) {
      if (differ(a.position[i][c], b.position[i][c]) || differ(a.velocity[i][c], b.velocity[i][c]) ||
          differ(a.angularVelocity[i][c], b.angularVelocity[i][c])) {
        return QStringLiteral("body %1, component %2: x %3 / %4, v %5 / %6, w %7 / %8")
            .arg(i)
            .arg(c)
            .arg(a.position[i][c], 0, 'g', 17)
            .arg(b.position[i][c], 0, 'g', 17)
            .arg(a.velocity[i][c], 0, 'g', 17)
            .arg(b.velocity[i][c], 0, 'g', 17)
            .arg(a.angularVelocity[i][c], 0, 'g', 17)
            .arg(b.angularVelocity[i][c], 0, 'g', 17);
      }
    }
    for (int c = 0; c < 4; ++c) {
      if (differ(a.orientation[i].coeffs()[c], b.orientation[i].coeffs()[c]))
        return QStringLiteral("body %1: orientation component %2").arg(i).arg(c);
    }
  }
  return QString();
}

// Runs the window's simulation until `time` [s] (paused there) and returns the frame shown then.
const SimulationFrame* runUntil(MainWindow& w, double time) {
  w.simulation().runUntil(time);
  const std::uint64_t ticket = w.simulation().commandsPosted();
  const bool reached = waitForFrame(w, [&](const SimulationFrame& f) {
    return f.commandsApplied >= ticket && f.stats.paused && f.snapshot.time + 0.5 * kPileStep >= time;
  });
  return reached ? w.currentFrame() : nullptr;
}

// Steps back once and returns the frame shown after it.
const SimulationFrame* stepBack(MainWindow& w) {
  w.simulation().stepBack();
  const std::uint64_t ticket = w.simulation().commandsPosted();
  return waitForFrame(w, [&](const SimulationFrame& f) { return f.commandsApplied >= ticket; })
             ? w.currentFrame()
             : nullptr;
}

// A trajectory of the pile written by core (as clumplab-cli run --trajectory does): `frames`
// frames, `every` steps apart.
void writePileTrajectory(const QString& path, int frames, int every) {
  const Scene scene = parseScene(kPile, "pile.json");
  auto world = buildWorld(scene);
  TrajectoryWriter writer(path.toStdString(), sceneToJson(sceneFromWorld(*world, scene), "."),
                          templateKeys(world->model().templates));
  for (int k = 0; k < frames; ++k) {
    if (k > 0) {
      for (int s = 0; s < every; ++s) clumplab::test::mustStep(*world);
    }
    writer.append(world->time(), world->stepCount(), world->bodies());
  }
  writer.close();
}
}  // namespace

class TestReplay : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QSurfaceFormat::setDefaultFormat(viewportSurfaceFormat()); }

  void init() { useTestSettings(QStringLiteral("tst_replay")); }

  void recordedTrajectoryReplaysExactly() {
    QTemporaryDir dir;
    MainWindow w;
    w.setRunning(false);
    w.viewport()->setFixedSize(480, 300);
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QCOMPARE(openScene(w, dir, QStringLiteral("pile.json"), kPile, kPileBodies), QString());

    // Record every 5 ms of simulated time (50 steps) while the run stops now and then.
    const QString path = dir.filePath(QStringLiteral("pile.cltraj"));
    QSignalSpy finished(w.trajectoryControls(), &TrajectoryControls::finished);
    TrajectoryPlan plan;
    plan.path = path.toStdString();
    plan.everySeconds = 0.005;
    w.trajectoryControls()->start(plan);
    std::map<std::uint64_t, SnapshotBodies> live;  // by step
    for (double t : {0.02, 0.0512, 0.1, 0.15, 0.2}) {
      const SimulationFrame* f = runUntil(w, t);
      QVERIFY2(f != nullptr, qPrintable(QStringLiteral("the run did not reach t = %1 s").arg(t)));
      QVERIFY(f->trajectory.recording);
      live[f->snapshot.steps] = f->snapshot.bodies;
    }
    QVERIFY(w.trajectoryControls()->recording());
    QVERIFY2(!QFile::exists(path), "a trajectory being recorded is not at its final path");
    QVERIFY(QFile::exists(path + QStringLiteral(".partial")));
    w.trajectoryControls()->stop();
    QTRY_COMPARE_WITH_TIMEOUT((w.tick(), finished.count()), 1, clumplab::test::wallClockMs(5000));
    QCOMPARE(finished.front().at(0).toString(), path);
    QCOMPARE(finished.front().at(1).toString(), QString());
    QVERIFY(QFile::exists(path));
    QVERIFY(!QFile::exists(path + QStringLiteral(".partial")));

    // The file: a frame every 50 steps from step 0 to 2000, the live states among them to the bit.
    const Trajectory t = readTrajectory(path.toStdString());
    QCOMPARE(t.frames.size(), std::size_t{41});
    for (std::size_t k = 0; k < t.frames.size(); ++k) QCOMPARE(t.frames[k].step, std::uint64_t{50 * k});
    int matched = 0;
    for (const auto& [step, bodies] : live) {
      if (step % 50 != 0) continue;
      const QString d = sameBits(t.frames[step / 50].bodies, bodies);
      QVERIFY2(d.isEmpty(), qPrintable(QStringLiteral("step %1: %2").arg(step).arg(d)));
      ++matched;
    }
    QCOMPARE(matched, 4);  // t = 0.0512 s stopped at step 512, between frames

    // Replay: the view shows exactly the file's frames.
    const SimulationFrame* before = w.currentFrame();
    QVERIFY(before != nullptr);
    const double liveTime = before->snapshot.time;
    const SnapshotBodies liveBodies = before->snapshot.bodies;
    QCOMPARE(w.openDocument(path, true), QString());
    ReplayController* replay = w.replay();
    QVERIFY(replay->active());
    QVERIFY(replay->timeline()->isVisible());
    QVERIFY(!w.parametersDock()->isEnabled());
    QCOMPARE(replay->currentFrame(), 0);
    for (int k : {0, 7, 21, 40}) {
      replay->showFrame(k);
      QCOMPARE(w.viewport()->shownFrame(), &replay->frame());
      const Snapshot& shown = w.viewport()->shownFrame()->snapshot;
      const QString d = sameBits(shown.bodies, t.frames[static_cast<std::size_t>(k)].bodies);
      QVERIFY2(d.isEmpty(), qPrintable(QStringLiteral("frame %1: %2").arg(k).arg(d)));
      QCOMPARE(shown.time, t.frames[static_cast<std::size_t>(k)].time);
      QCOMPARE(shown.templates.size(), std::size_t{2});
    }
    // Seeking with the slider, and the keys.
    replay->timeline()->slider()->setValue(13);
    QCOMPARE(replay->currentFrame(), 13);
    QVERIFY(sameBits(replay->frame().snapshot.bodies, t.frames[13].bodies).isEmpty());
    w.activateWindow();  // window shortcuts need the window active
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(w.viewport(), Qt::Key_Right);
    QCOMPARE(replay->currentFrame(), 14);
    QCOMPARE(replay->timeline()->slider()->value(), 14);
    QTest::keyClick(w.viewport(), Qt::Key_Left);
    QTest::keyClick(w.viewport(), Qt::Key_Left, Qt::ShiftModifier);
    QCOMPARE(replay->currentFrame(), 12);
    QTest::keyClick(w.viewport(), Qt::Key_End);
    QCOMPARE(replay->currentFrame(), 40);
    QTest::keyClick(w.viewport(), Qt::Key_Home);
    QCOMPARE(replay->currentFrame(), 0);
    // Playback at 10x reaches the end (0.2 s recorded) and stops there.
    replay->setSpeed(10.0);
    QTest::keyClick(w.viewport(), Qt::Key_Space);
    QVERIFY(replay->playing());
    QTRY_COMPARE_WITH_TIMEOUT(replay->currentFrame(), 40, clumplab::test::wallClockMs(5000));
    QTRY_VERIFY_WITH_TIMEOUT(!replay->playing(), clumplab::test::wallClockMs(5000));
    QVERIFY(sameBits(replay->frame().snapshot.bodies, t.frames[40].bodies).isEmpty());
    // The live scene did not move meanwhile.
    QCOMPARE(w.currentFrame()->snapshot.time, liveTime);

    // A movie of the replay: one frame per trajectory frame, from the file.
    RecordingPlan movie;
    movie.movie.path = dir.filePath(QStringLiteral("frames"));
    movie.movie.format = MovieFormat::PngSequence;
    MovieRecorder recorder(w, movie);
    QSignalSpy recorded(&recorder, &MovieRecorder::finished);
    QCOMPARE(recorder.start(), QString());
    QVERIFY(recorded.wait(30000));
    QCOMPARE(recorded.front().front().toString(), QString());
    QCOMPARE(recorder.framesWritten(), 41);
    QCOMPARE(QDir(movie.movie.path).entryList({QStringLiteral("*.png")}).size(), 41);
    QCOMPARE(replay->currentFrame(), 40);

    // Esc: back to the live scene as it was. (Window shortcuts need the window active: a loaded
    // machine may not have activated it yet.)
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(w.viewport(), Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(!replay->active(), clumplab::test::wallClockMs(5000));
    QVERIFY(!replay->active());
    QVERIFY(!replay->timeline()->isVisible());
    QVERIFY(w.parametersDock()->isEnabled());
    QCOMPARE(w.viewport()->shownFrame(), w.currentFrame());
    QCOMPARE(w.currentFrame()->snapshot.time, liveTime);
    QVERIFY(sameBits(w.currentFrame()->snapshot.bodies, liveBodies).isEmpty());
    // and it runs on from there.
    QVERIFY(runUntil(w, liveTime + 0.01) != nullptr);
    QCOMPARE(w.currentFrame()->snapshot.bodies.size(), kPileBodies);
  }

  void recordingEndsCleanlyOnLoadCloseAndErrors() {
    QTemporaryDir dir;
    QString first;
    {
      MainWindow w;
      w.setRunning(false);
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      QCOMPARE(openScene(w, dir, QStringLiteral("pile.json"), kPile, kPileBodies), QString());
      QSignalSpy finished(w.trajectoryControls(), &TrajectoryControls::finished);
      // A folder that does not exist: the message names the file, nothing is recorded.
      const QString bad = dir.filePath(QStringLiteral("no/such/folder/run.cltraj"));
      TrajectoryPlan plan;
      plan.path = bad.toStdString();
      w.trajectoryControls()->start(plan);
      QTRY_COMPARE_WITH_TIMEOUT((w.tick(), finished.count()), 1, clumplab::test::wallClockMs(5000));
      QVERIFY2(finished.front().at(1).toString().contains(bad),
               qPrintable(finished.front().at(1).toString()));
      QVERIFY(!w.trajectoryControls()->recording());
      auto* box = w.findChild<QMessageBox*>(QStringLiteral("trajectoryProblem"));
      QVERIFY(box != nullptr);
      QVERIFY(box->text().contains(bad));
      box->close();

      // Opening another scene finishes the file.
      first = dir.filePath(QStringLiteral("first.cltraj"));
      plan.path = first.toStdString();
      plan.everySeconds = 0;
      plan.everySteps = 10;
      w.trajectoryControls()->start(plan);
      QVERIFY(runUntil(w, 0.01) != nullptr);
      QCOMPARE(openScene(w, dir, QStringLiteral("other.json"), kPile, kPileBodies), QString());
      QTRY_COMPARE_WITH_TIMEOUT((w.tick(), finished.count()), 2, clumplab::test::wallClockMs(5000));
      QCOMPARE(finished.back().at(1).toString(), QString());
      const Trajectory t = readTrajectory(first.toStdString());
      QCOMPARE(t.frames.size(), std::size_t{11});  // steps 0, 10, ..., 100
      QCOMPARE(t.frames.back().step, std::uint64_t{100});

      // Closing the window finishes the file too.
      plan.path = dir.filePath(QStringLiteral("closed.cltraj")).toStdString();
      w.trajectoryControls()->start(plan);
      QVERIFY(runUntil(w, 0.005) != nullptr);
      w.close();
    }
    const Trajectory closed = readTrajectory(dir.filePath(QStringLiteral("closed.cltraj")).toStdString());
    QCOMPARE(closed.frames.size(), std::size_t{6});
  }

  void stepBackThenRunningRepeatsTheRunBitForBit() {
    QTemporaryDir dir;
    MainWindow w;
    w.setRunning(false);
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QCOMPARE(openScene(w, dir, QStringLiteral("pile.json"), kPile, kPileBodies), QString());
    // States are kept every 1/30 s of simulated time: every 334 steps at this time step.
    const std::uint64_t every = StateHistory().intervalSteps(kPileStep);
    QCOMPARE(every, std::uint64_t{334});
    std::map<std::uint64_t, SnapshotBodies> live;  // by step, captured while running
    for (std::uint64_t k = 1; k * every < 2000; ++k) {
      const SimulationFrame* f = runUntil(w, static_cast<double>(k * every) * kPileStep);
      QVERIFY(f != nullptr);
      QCOMPARE(f->snapshot.steps, k * every);
      live[f->snapshot.steps] = f->snapshot.bodies;
    }
    const SimulationFrame* end = runUntil(w, 0.2);
    QVERIFY(end != nullptr);
    QCOMPARE(end->snapshot.steps, std::uint64_t{2000});
    live[2000] = end->snapshot.bodies;
    QCOMPARE(end->history.states, std::size_t{6});  // steps 0, 334, ..., 1670
    QVERIFY(end->history.canStepBack);
    CLUMPLAB_COMPARE_REL(end->history.seconds, 1670 * kPileStep, 1e-9);

    // Back three states: 1670, 1336 (by the key), 1002; each exactly as it was.
    const SimulationFrame* f = stepBack(w);
    QVERIFY(f != nullptr);
    QCOMPARE(f->snapshot.steps, std::uint64_t{1670});
    QVERIFY2(sameBits(f->snapshot.bodies, live[1670]).isEmpty(), "step back to 1670");
    w.activateWindow();  // window shortcuts need the window active
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(w.viewport(), Qt::Key_Left, Qt::ShiftModifier);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& g) { return g.snapshot.steps == 1336; }));
    QVERIFY2(sameBits(w.currentFrame()->snapshot.bodies, live[1336]).isEmpty(), "step back to 1336");
    f = stepBack(w);
    QVERIFY(f != nullptr);
    QCOMPARE(f->snapshot.steps, std::uint64_t{1002});
    QVERIFY2(sameBits(f->snapshot.bodies, live[1002]).isEmpty(), "step back to 1002");
    QVERIFY(f->stats.paused);
    QCOMPARE(f->history.states, std::size_t{4});

    // Forward again: the same states, bit for bit.
    f = runUntil(w, 1336 * kPileStep);
    QCOMPARE(f->snapshot.steps, std::uint64_t{1336});
    QVERIFY2(sameBits(f->snapshot.bodies, live[1336]).isEmpty(), "run on to 1336");
    f = runUntil(w, 0.2);
    QCOMPARE(f->snapshot.steps, std::uint64_t{2000});
    QVERIFY2(sameBits(f->snapshot.bodies, live[2000]).isEmpty(), "run on to 2000");

    // A spawned body goes when stepping back to a state from before it.
    BodyInit body;
    body.templateIndex = 1;
    body.position = Vec3(0.0, 0.0, 0.3);
    w.simulation().spawn(body);
    QVERIFY(waitForFrame(
        w, [](const SimulationFrame& g) { return g.snapshot.bodies.size() == kPileBodies + 1; }));
    f = stepBack(w);
    QCOMPARE(f->snapshot.steps, std::uint64_t{1670});
    QVERIFY2(sameBits(f->snapshot.bodies, live[1670]).isEmpty(), "step back over a spawn");
    // Nothing older than the first state: stepping back at step 0 stays there.
    w.simulation().reset();
    QVERIFY(waitForFrame(
        w, [](const SimulationFrame& g) { return g.snapshot.steps == 0 && g.history.states == 1; }));
    f = stepBack(w);
    QCOMPARE(f->snapshot.steps, std::uint64_t{0});
    QVERIFY(!f->history.canStepBack);
  }

  void historyStaysWithinItsMemoryBound() {
    QTemporaryDir dir;
    MainWindow w;
    w.setRunning(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(openScene(w, dir, QStringLiteral("pile.json"), kPile, kPileBodies), QString());
    // The first state, as the app holds it: the states grow as contacts form (their lists).
    const std::size_t one = w.currentFrame()->history.bytes;
    QCOMPARE(w.currentFrame()->history.states, std::size_t{1});
    QVERIFY(one > 1000);
    const std::size_t cap = one * 13 / 2;  // six and a half first states
    w.simulation().setHistoryLimits(cap, 1000);
    const std::uint64_t ticket = w.simulation().commandsPosted();
    w.setSpeed(1.0, true);
    w.setRunning(true);
    std::size_t most = 0;
    QString violation;
    QVERIFY(waitForFrame(
        w,
        [&](const SimulationFrame& f) {
          if (f.commandsApplied < ticket) return false;
          most = std::max(most, f.history.states);
          if (f.history.bytes > cap || f.history.capBytes != cap)
            violation = QStringLiteral("%1 bytes held, cap %2").arg(f.history.bytes).arg(cap);
          return f.snapshot.time >= 1.0 || !violation.isEmpty();
        },
        60000));
    QVERIFY2(violation.isEmpty(), qPrintable(violation));
    QVERIFY2(most >= 3 && most <= 6, qPrintable(QStringLiteral("at most %1 states").arg(most)));
    // The count bound.
    w.simulation().setHistoryLimits(cap, 2);
    const std::uint64_t counted = w.simulation().commandsPosted();
    const SimulationFrame* now = w.currentFrame();
    QVERIFY(now != nullptr);
    const double from = now->snapshot.time;
    QVERIFY(waitForFrame(
        w,
        [&](const SimulationFrame& f) {
          return f.commandsApplied >= counted && f.snapshot.time >= from + 0.5;
        },
        60000));
    QCOMPARE(w.currentFrame()->history.states, std::size_t{2});
    w.setRunning(false);
  }

  // The main states for review: CLUMPLAB_SHOTS_DIR=DIR tst_replay windowStatesRender.
  void windowStatesRender() {
#if CLUMPLAB_UNDER_TSAN
    // Runs 0.6 s of a pile before its screenshots: ~10x slower under TSan than its minute allows.
    QSKIP("screenshots after a run too slow under ThreadSanitizer (runs in the release suite)");
#endif
    QTemporaryDir dir;
    const QString shots = qEnvironmentVariable("CLUMPLAB_SHOTS_DIR");
    auto save = [&](QWidget& widget, const QString& name) {
      QPixmap image = widget.grab();
      QVERIFY(!image.isNull());
      if (auto* w = qobject_cast<MainWindow*>(&widget)) {  // the 3D view with its overlays, as on screen
        QPainter painter(&image);
        const QImage view = w->viewport()->grabFramebuffer();
        painter.drawImage(QRect(w->viewport()->mapTo(w, QPoint(0, 0)), w->viewport()->size()), view);
      }
      if (!shots.isEmpty()) QVERIFY(image.save(QDir(shots).filePath(name)));
    };
    MainWindow w;
    w.resize(1500, 920);
    w.setSpeed(1.0, true);
    w.setRunning(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openDefaultScene();
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() > 50; }));
    {
      TrajectoryDialog dialog(w.currentFrame()->snapshot.bodies.size(), w.currentFrame()->snapshot.timeStep,
                              &w);
      dialog.show();
      QVERIFY(QTest::qWaitForWindowExposed(&dialog));
      save(dialog, QStringLiteral("trajectory-dialog.png"));
    }
    const QString path = dir.filePath(QStringLiteral("default.cltraj"));
    TrajectoryPlan plan;
    plan.path = path.toStdString();
    w.trajectoryControls()->start(plan);
    w.setRunning(true);
    QVERIFY(waitForFrame(
        w, [](const SimulationFrame& f) { return f.snapshot.time > 0.6; }, 60000));
    w.setRunning(false);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.stats.paused; }));
    QTest::qWait(50);
    w.tick();
    save(w, QStringLiteral("window-recording-history.png"));
    QSignalSpy finished(w.trajectoryControls(), &TrajectoryControls::finished);
    w.trajectoryControls()->stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, clumplab::test::wallClockMs(5000));
    QCOMPARE(w.openDocument(path, true), QString());
    ReplayController* replay = w.replay();
    replay->showFrame(static_cast<int>(replay->document()->frameCount() * 2 / 3));
    w.viewport()->setSelectedBody(7);
    replay->setSpeed(0.25);
    replay->setPlaying(true);
    QTest::qWait(150);
    save(w, QStringLiteral("window-replay.png"));
    replay->setPlaying(false);
    // Another viewpoint than the run's: the camera is free in a replay.
    w.viewport()->camera().orbit(260, -90);
    w.viewport()->camera().zoom(4);
    w.viewport()->options().wireframe = true;
    w.viewport()->options().coloring = render::Coloring::BySpeed;
    replay->step(-6);
    QTest::qWait(50);
    save(w, QStringLiteral("window-replay-free-camera.png"));
  }

  // A replay whose first frame has no bodies yet (a box that inlets fill, imported from LIGGGHTS or
  // recorded) is framed by its walls: the camera sees the 4 cm box, not a 1 m default around 0.
  void anEmptyFirstFrameIsFramedByTheWalls() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("filling.cltraj"));
    {
      const Scene scene = parseScene(kPile, "pile.json");
      auto world = buildWorld(scene);
      Scene boxed = scene;
      boxed.model.walls = Wall::box(Vec3(-0.02, -0.02, 0.0), Vec3(0.02, 0.02, 0.08));
      boxed.bodies.clear();  // the scene as it starts: bodies come later (from inlets)
      boxed.bodyPoints.clear();
      TrajectoryWriter writer(path.toStdString(), sceneToJson(boxed, "."),
                              templateKeys(world->model().templates));
      writer.append(TrajectoryFrame{});  // time 0, no bodies
      writer.append(world->time(), world->stepCount(), world->bodies());
      writer.close();
    }
    MainWindow w;
    w.setRunning(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(w.openDocument(path, true), QString());
    QVERIFY(w.replay()->active());
    QCOMPARE(w.replay()->currentFrame(), 0);
    const render::Camera& camera = w.viewport()->camera();
    const Vec3 target = camera.target();
    QVERIFY2(camera.distance() < 0.5 && target.cwiseAbs().head<2>().maxCoeff() <= 0.02 && target.z() >= 0.0 &&
                 target.z() <= 0.08,
             qPrintable(QStringLiteral("distance %1 m, target %2 %3 %4")
                            .arg(camera.distance())
                            .arg(target.x())
                            .arg(target.y())
                            .arg(target.z())));
  }

  void replayRerendersHeadless() {
#if CLUMPLAB_UNDER_TSAN
    QSKIP("starts processes (fork), which ThreadSanitizer does not support in a multithreaded process");
#endif
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("pile.cltraj"));
    writePileTrajectory(path, 11, 40);
    const QString frames = dir.filePath(QStringLiteral("frames"));
    QProcess app;
    app.start(QString(CLUMPLAB_APP),
              {QStringLiteral("--replay"), path, QStringLiteral("--record"), frames, QStringLiteral("--size"),
               QStringLiteral("320x240"), QStringLiteral("--quit")});
    QVERIFY(app.waitForFinished(60000));
    QCOMPARE(app.exitCode(), 0);
    const QString out = QString::fromUtf8(app.readAllStandardOutput());
    QVERIFY2(out.contains(QStringLiteral("\"frames\": 11")), qPrintable(out));
    QCOMPARE(QDir(frames).entryList({QStringLiteral("*.png")}).size(), 11);
    const QImage first(QDir(frames).filePath(QDir(frames).entryList({QStringLiteral("*.png")}).front()));
    QCOMPARE(first.size(), QSize(320, 240));

    // A broken trajectory: exit 2 naming the file.
    const QString broken = dir.filePath(QStringLiteral("broken.cltraj"));
    writeFile(dir, QStringLiteral("broken.cltraj"), "CLTRAJ1\n\x05");
    app.start(QString(CLUMPLAB_APP), {QStringLiteral("--replay"), broken, QStringLiteral("--record"),
                                      dir.filePath(QStringLiteral("none")), QStringLiteral("--quit")});
    QVERIFY(app.waitForFinished(60000));
    QCOMPARE(app.exitCode(), 2);
    QVERIFY(QString::fromUtf8(app.readAllStandardError()).contains(broken));

    const QString ffprobe = QStandardPaths::findExecutable(QStringLiteral("ffprobe"));
    if (ffprobe.isEmpty() || QStandardPaths::findExecutable(QStringLiteral("ffmpeg")).isEmpty())
      QSKIP("ffmpeg/ffprobe not installed: the MP4 case is not checked");
    const QString mp4 = dir.filePath(QStringLiteral("pile.mp4"));
    app.start(QString(CLUMPLAB_APP),
              {QStringLiteral("--replay"), path, QStringLiteral("--record"), mp4, QStringLiteral("--fps"),
               QStringLiteral("30"), QStringLiteral("--size"), QStringLiteral("320x240"),
               QStringLiteral("--view"), QStringLiteral("wireframe,axes"), QStringLiteral("--coloring"),
               QStringLiteral("speed"), QStringLiteral("--quit")});
    QVERIFY(app.waitForFinished(60000));
    QCOMPARE(app.exitCode(), 0);
    QCOMPARE(videoStreamInfo(ffprobe, mp4), QStringLiteral("h264,320,240,yuv420p,11"));
  }
};

QTEST_MAIN(TestReplay)
#include "tst_replay.moc"
