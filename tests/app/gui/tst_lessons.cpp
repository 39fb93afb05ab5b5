// The lessons shipped with the app: every one parses, names a scene the app carries (with its
// meshes), and that scene loads and runs, in the core and in the window (scene, view, plot, text);
// the equipartition lesson reaches its ratio and the time-step lesson shows the dt^2 scaling;
// broken lesson files are refused naming file and field.
#include <QListWidget>
#include <QSettings>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>
#include <cmath>
#include <limits>

#include "BuildSize.hpp"
#include "GuiTestSupport.hpp"
#include "core/world/World.hpp"
#include "gui/docks/EnergyPlotDock.hpp"
#include "gui/docks/InspectorDock.hpp"
#include "gui/document/DocumentLoader.hpp"
#include "gui/dzhanibekov/DzhanibekovDock.hpp"
#include "gui/dzhanibekov/EnergyEllipsoidInset.hpp"
#include "gui/lessons/LessonCatalog.hpp"
#include "gui/lessons/LessonDock.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/widgets/TimeSeriesChart.hpp"
#include "resources/Resources.hpp"

using namespace clumplab;
using namespace clumplab::gui;
using namespace clumplab::sim;
using namespace clumplab::gui::test;

namespace {
// Opens lesson `index` in `w` and waits for its scene's first frames (`bodies` bodies, running).
bool openAndRun(MainWindow& w, int index, std::size_t bodies) {
  if (!w.openLesson(index).isEmpty()) return false;
  return waitForFrame(
      w,
      [&](const SimulationFrame& f) { return f.snapshot.bodies.size() == bodies && f.snapshot.steps > 20; },
      clumplab::test::wallClockMs(20000));
}
}  // namespace

class LessonsTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QSurfaceFormat::setDefaultFormat(viewportSurfaceFormat());
    initResources();
    QCoreApplication::setOrganizationName(QStringLiteral("ClumpLabTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_lessons"));
    QStandardPaths::setTestModeEnabled(true);
  }

  void everyLessonOpensInTheWindow() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    LessonDock* dock = w.lessonDock();
    QVERIFY(dock->lessons().size() >= 8);
    QCOMPARE(dock->list()->count(), static_cast<int>(dock->lessons().size()));
    const QString shots = qEnvironmentVariable("CLUMPLAB_SHOTS_DIR");
    for (int i = 0; i < static_cast<int>(dock->lessons().size()); ++i) {
      const Lesson& l = dock->lessons()[static_cast<std::size_t>(i)];
      QTemporaryDir cache;
      QString error;
      const auto scene = loadDocument(extractLessonScene(l, cache.path(), &error).toStdString());
      QVERIFY2(openAndRun(w, i, scene->bodies.size()), qPrintable(l.title));
      const SimulationFrame* f = w.currentFrame();
      QVERIFY(f != nullptr);
      QVERIFY2(!f->diverged, f->problem.c_str());
      QCOMPARE(dock->currentLesson(), i);
      QVERIFY(dock->text()->toPlainText().contains(l.paragraphs.front().left(40)));
      // The Dzhanibekov panel adds the body axes, omega and L to what the lesson shows.
      QCOMPARE(w.viewport()->options().angularMomentumArrows,
               l.show.contains(QStringLiteral("L")) || l.dzhanibekovBody >= 0);
      QCOMPARE(w.viewport()->options().pebbles,
               l.show.isEmpty() || l.show.contains(QStringLiteral("pebbles")));
      const auto expectedView = l.plot == QLatin1String("equipartition") ? EnergyPlotDock::View::Equipartition
                                : l.plot == QLatin1String("time-step-comparison")
                                    ? EnergyPlotDock::View::TimeSteps
                                : l.plot == QLatin1String("drift") ? EnergyPlotDock::View::Drift
                                                                   : EnergyPlotDock::View::Energies;
      QCOMPARE(w.energyDock()->view(), expectedView);
      if (l.dzhanibekovBody >= 0) QCOMPARE(w.viewport()->selectedBody(), l.dzhanibekovBody);
      QCOMPARE(w.dzhanibekovDock()->isVisible(), l.dzhanibekovBody >= 0);
      if (!shots.isEmpty()) {
        QTest::qWait(300);
        w.tick();
        QVERIFY(w.grab().save(QDir(shots).filePath(QStringLiteral("lesson-%1.png").arg(i))));
      }
    }
    // Another document ends the lesson; the list comes back.
    QTemporaryDir dir;
    QCOMPARE(w.openDocument(writeFile(dir, QStringLiteral("x.json"), R"({
      "format": "clumplab-scene/1", "time_step": 1e-3, "gravity": [0, 0, -9.81],
      "contact": { "model": "linear", "stiffness": 1e4, "restitution": 0.5 },
      "templates": { "ball": { "density": 1000, "pebbles": [[0, 0, 0, 0.05]] } },
      "bodies": [ { "template": "ball", "position": [0, 0, 1] } ] })"),
                            true),
             QString());
    QCOMPARE(dock->currentLesson(), -1);
  }

  void equipartitionLessonReachesItsRatio() {
    // MercuryDPM rigid clumps, §4.1 in the window: the lesson's ratio plot of running time averages ends
    // within 10% of 1 (all six degrees of freedom share the energy).
#if CLUMPLAB_UNDER_TSAN
    // 78 s of simulated time within two minutes: passed in 101 s under TSan on a quiet machine, not
    // on a loaded one. A physics check; it runs in the release suite.
    QSKIP("a physics check too slow under ThreadSanitizer (runs in the release suite)");
#endif
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    int index = -1;
    for (std::size_t i = 0; i < w.lessonDock()->lessons().size(); ++i)
      if (w.lessonDock()->lessons()[i].plot == QLatin1String("equipartition")) index = static_cast<int>(i);
    QVERIFY(index >= 0);
    QVERIFY(openAndRun(w, index, 1));
    w.setSpeed(1.0, true);
    QVERIFY(waitForFrame(
        w, [](const SimulationFrame& f) { return f.snapshot.time > 78.0; }, 120000));
    const TimeSeriesChart* ratio = w.energyDock()->ratioChart();
    QVERIFY(ratio->pointCount() > 100);
    const double last = ratio->column(0).back();
    qInfo("<E_rot>/<E_trans> = %.3f at t = %.1f s", last, ratio->times().back());
    QVERIFY2(std::abs(last - 1.0) < 0.10, qPrintable(QString::number(last)));
  }

  void timeStepLessonShowsSecondOrder() {
    // Mutze, Polyspherical grains, §8 in the window: the background runs at dt and dt/2 end with energy
    // deviations whose largest values differ by about 4 (dt^2).
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    int index = -1;
    for (std::size_t i = 0; i < w.lessonDock()->lessons().size(); ++i)
      if (w.lessonDock()->lessons()[i].plot == QLatin1String("time-step-comparison"))
        index = static_cast<int>(i);
    QVERIFY(index >= 0);
    const Lesson& l = w.lessonDock()->lessons()[static_cast<std::size_t>(index)];
    QVERIFY(openAndRun(w, index, 10));
    QTRY_VERIFY_WITH_TIMEOUT(!w.energyDock()->comparison().running(), clumplab::test::wallClockMs(120000));
    QCOMPARE(QString::fromStdString(w.energyDock()->comparison().problem()), QString());
    w.tick();
    const TimeSeriesChart* chart = w.energyDock()->comparisonChart();
    QVERIFY(chart->pointCount() > 100);
    std::vector<double> worst(l.timeSteps.size(), 0.0);
    for (std::size_t v = 0; v < worst.size(); ++v)
      for (double d : chart->column(static_cast<int>(v))) worst[v] = std::max(worst[v], d);
    for (std::size_t v = 1; v < worst.size(); ++v) {
      const double ratio = worst[v - 1] / worst[v];
      const double expected = std::pow(l.timeSteps[v - 1] / l.timeSteps[v], 2);
      qInfo("max |dE|: %.3g J at dt %.2g s, %.3g J at dt %.2g s: ratio %.2f (dt^2: %.2f)", worst[v - 1],
            l.timeSteps[v - 1], worst[v], l.timeSteps[v], ratio, expected);
      QVERIFY(ratio > 0.6 * expected && ratio < 1.5 * expected);
    }
  }

  void lessonsAreFoundByNumberNameOrTitle() {
    MainWindow w;
    const std::vector<Lesson>& lessons = w.lessonDock()->lessons();
    QCOMPARE(w.findLesson(QStringLiteral("1")), 0);
    QCOMPARE(w.findLesson(QString::number(lessons.size())), static_cast<int>(lessons.size()) - 1);
    QCOMPARE(w.findLesson(QStringLiteral("0")), -1);
    QCOMPARE(w.findLesson(QString::number(lessons.size() + 1)), -1);
    for (std::size_t i = 0; i < lessons.size(); ++i) {
      const QString stem = QFileInfo(lessons[i].file).completeBaseName();  // "20-dzhanibekov-wingnut"
      QCOMPARE(w.findLesson(stem), static_cast<int>(i));
      QCOMPARE(w.findLesson(stem + QStringLiteral(".json")), static_cast<int>(i));
      QCOMPARE(w.findLesson(stem.section(QLatin1Char('-'), 1).toUpper()), static_cast<int>(i));
      QCOMPARE(w.findLesson(lessons[i].title), static_cast<int>(i));
    }
    QCOMPARE(w.findLesson(QStringLiteral("no-such-lesson")), -1);
  }

  void leavingALessonRestoresWhatItChanged() {
    // The teacher's session: their own speed and view, then lessons (one that runs at 0.01x with
    // the time-step comparison, one with the Dzhanibekov panel), then their own scene again.
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openDefaultScene();
    w.setSpeed(0.5, false);
    w.viewport()->options().wireframe = true;
    w.energyDock()->showView(EnergyPlotDock::View::Drift);
    w.inspectorDock()->hide();
    const render::ViewOptions before = w.viewport()->options();
    int comparison = -1, dzhanibekov = -1;
    for (std::size_t i = 0; i < w.lessonDock()->lessons().size(); ++i) {
      const Lesson& l = w.lessonDock()->lessons()[i];
      if (l.plot == QLatin1String("time-step-comparison")) comparison = static_cast<int>(i);
      if (l.dzhanibekovBody >= 0 && dzhanibekov < 0) dzhanibekov = static_cast<int>(i);
    }
    QVERIFY(comparison >= 0 && dzhanibekov >= 0);
    const Lesson& slow = w.lessonDock()->lessons()[static_cast<std::size_t>(comparison)];
    QVERIFY(slow.speed < 0.5);
    QCOMPARE(w.openLesson(comparison), QString());
    QCOMPARE(w.speed(), slow.speed);
    QCOMPARE(w.energyDock()->view(), EnergyPlotDock::View::TimeSteps);
    QCOMPARE(w.openLesson(dzhanibekov), QString());
    QVERIFY(w.inspectorDock()->isVisible());
    // Another document ends the lesson: everything it changed is back.
    w.openDefaultScene();
    QCOMPARE(w.lessonDock()->currentLesson(), -1);
    QCOMPARE(w.speed(), 0.5);
    QVERIFY(!w.asFastAsPossible());
    QCOMPARE(w.energyDock()->view(), EnergyPlotDock::View::Drift);
    QVERIFY(!w.energyDock()->comparison().running());
    QVERIFY(!w.inspectorDock()->isVisible());
    QVERIFY(!w.dzhanibekovDock()->isVisible());
    const render::ViewOptions& after = w.viewport()->options();
    QCOMPARE(after.wireframe, before.wireframe);
    QCOMPARE(after.pebbles, before.pebbles);
    QCOMPARE(after.coloring, before.coloring);
    QCOMPARE(after.bodyAxes, before.bodyAxes);
    QCOMPARE(after.angularMomentumArrows, before.angularMomentumArrows);
    // The toolbar shows it too.
    const auto action = [&](const QString& text) {
      for (QAction* a : w.findChildren<QAction*>())
        if (a->text() == text) return a;
      return static_cast<QAction*>(nullptr);
    };
    QVERIFY(action(QStringLiteral("Wireframe")) != nullptr);
    QVERIFY(action(QStringLiteral("Wireframe"))->isChecked());
    // Closed during a lesson: the settings keep the user's own speed and view, not the lesson's.
    QCOMPARE(w.openLesson(comparison), QString());
    w.close();
    QSettings settings;
    QCOMPARE(settings.value(QStringLiteral("simulation/speed")).toDouble(), 0.5);
    QCOMPARE(settings.value(QStringLiteral("view/wireframe")).toBool(), true);
  }

  void dzhanibekovPanelShowsTheBodysSpin() {
    // The spin fields show what the body does (they said 10 rad/s whatever the lesson spun).
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const std::vector<std::pair<QString, double>> spins = {{QStringLiteral("dzhanibekov-wingnut"), 20.0},
                                                           {QStringLiteral("tennis-racket"), 6.0},
                                                           {QStringLiteral("dzhanibekov-t-handle"), 10.0}};
    for (const auto& [name, rate] : spins) {
      const int index = w.findLesson(name);
      QVERIFY2(index >= 0, qPrintable(name));
      QCOMPARE(w.openLesson(index, false), QString());
      QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return !f.snapshot.bodies.position.empty(); }));
      QTest::qWait(50);
      w.tick();
      const DzhanibekovDock* dock = w.dzhanibekovDock();
      qInfo("%s: omega0 %.4f rad/s about axis %d, epsilon %.3g", qPrintable(name), dock->omega0(),
            dock->axis() + 1, dock->epsilon());
      QVERIFY2(std::abs(dock->omega0() - rate) < 0.01 * rate, qPrintable(name));
      QCOMPARE(dock->axis(), 1);  // each spins about its intermediate axis
      QVERIFY(dock->epsilon() < 0.05);
    }
  }

  void lSpaceInsetKeepsClearOfTheBodies() {
    // Three T-bars side by side: the inset used to cover the left one.
#if CLUMPLAB_UNDER_TSAN
    // 10 s under TSan: where the inset lies on screen, a layout check. The lesson's threads (its
    // scene opened and run in the window) run under TSan in everyLessonOpensInTheWindow.
    QSKIP("a layout check (runs in the release suite); the lesson's threads run under TSan above");
#endif
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(w.openLesson(w.findLesson(QStringLiteral("stable-unstable-axes"))), QString());
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 3; }));
    QTest::qWait(800);  // the lesson's camera settles
    for (int k = 0; k < 5; ++k) {
      w.tick();
      QTest::qWait(20);
    }
    const QWidget* inset = w.dzhanibekovDock()->inset();
    QVERIFY(inset->isVisible());
    const QRectF place = inset->geometry();
    const SimulationFrame* frame = w.currentFrame();
    QVERIFY(frame != nullptr);
    const Snapshot& s = frame->snapshot;
    const render::Camera& camera = w.viewport()->camera();
    for (std::size_t b = 0; b < s.bodies.size(); ++b) {
      const Vec3& x = s.bodies.position[b];
      const double r = s.templates[s.bodies.templateIndex[b]]->boundingRadius * camera.pixelsPerMeterAt(x);
      const Eigen::Vector2d c = camera.project(x);
      QVERIFY2(!QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r).intersects(place),
               qPrintable(QStringLiteral("body %1 at (%2, %3) r %4 under the inset %5,%6 %7x%8")
                              .arg(b)
                              .arg(c.x())
                              .arg(c.y())
                              .arg(r)
                              .arg(place.x())
                              .arg(place.y())
                              .arg(place.width())
                              .arg(place.height())));
    }
  }

  void alongLPolhodeStaysAboutTheBody() {
    // Issue 37, item 7: in the T-handle lesson's view along L the polhode on the body (drawn on a
    // sphere twice the body's size) passed the line of sight and long yellow lines crossed the frame.
    // Through two flips, every segment of the drawn polhode lies in front of the near plane, on
    // screen, short (a tenth of the view's height at most) and about the body: within 1.5 times the
    // body's bounding disc on screen.
#if CLUMPLAB_UNDER_TSAN
    // 34 s under TSan: what is drawn where through two flips, a drawing check. The paused window
    // stepped to a time (runUntil) runs under TSan in tst_dzhanibekov, tst_gui_cim and the journeys.
    QSKIP("a drawing check (runs in the release suite); runUntil's threads run under TSan elsewhere");
#endif
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(w.openLesson(w.findLesson(QStringLiteral("dzhanibekov-t-handle")), false), QString());
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 1; }));
    Viewport& view = *w.viewport();
    const auto lookingAlongL = [&](const SimulationFrame& f) {
      const Vec3 l = f.snapshot.energy.angularMomentum.normalized();
      return view.camera().forward().dot(-l) > std::cos(0.5 * M_PI / 180.0);
    };
    QVERIFY(waitForFrame(w, lookingAlongL));
    QTest::qWait(800);  // the glide's last steps (the distance)
    const SimulationFrame* first = w.currentFrame();
    QVERIFY(first != nullptr);
    const double t0 = first->snapshot.time;
    const double flipInterval = w.dzhanibekovDock()->readout().predictedInterval;  // [s] T/2
    QVERIFY2(flipInterval > 1.0 && flipInterval < 5.0, qPrintable(QString::number(flipInterval)));
    // Every 50 ms of the run (100 ms under the sanitizers, where a frame costs ten times as much).
    const double every = clumplab::test::sizedForBuild(0.05, 0.1);  // [s]
    int checkedSegments = 0, samples = 0;
    double longestPx = 0.0, farthestRadii = 0.0, nearestDepth = std::numeric_limits<double>::infinity();
    for (double t = t0 + every; t < t0 + 2.0 * flipInterval; t += every, ++samples) {
      w.simulation().runUntil(t);
      QVERIFY(waitForFrame(w, [&](const SimulationFrame& f) {
        return f.stats.paused && f.snapshot.time >= t - f.snapshot.timeStep;
      }));
      const SimulationFrame* frame = w.currentFrame();
      QVERIFY(frame != nullptr);
      const Snapshot& s = frame->snapshot;
      const render::Camera& camera = view.camera();
      QVERIFY(lookingAlongL(*frame));
      const std::vector<render::BodyCurve>& curves = view.options().bodyCurves;
      // The polhode's loop and its trail, once L has moved in the body.
      QVERIFY(curves.empty() || curves.size() == 2);
      for (const render::BodyCurve& curve : curves) {
        const auto b = static_cast<std::size_t>(curve.body);
        const double radius = s.templates[s.bodies.templateIndex[b]]->boundingRadius;
        const Eigen::Vector2d bodyPx = camera.project(s.bodies.position[b]);
        const double bodyRadiusPx = radius * camera.pixelsPerMeterAt(s.bodies.position[b]);
        std::vector<Vec3> world;
        for (const Vec3& p : curve.points)
          world.push_back(s.bodies.position[b] + radius * (s.bodies.orientation[b] * p));
        if (curve.closed && !world.empty()) world.push_back(world.front());
        for (std::size_t i = 0; i + 1 < world.size(); ++i) {
          const Vec3 &a = world[i], &c = world[i + 1];
          nearestDepth = std::min({nearestDepth, camera.depthOf(a), camera.depthOf(c)});
          QVERIFY2(camera.depthOf(a) > camera.nearPlane() && camera.depthOf(c) > camera.nearPlane(),
                   qPrintable(QStringLiteral("t %1: segment %2 at depth %3 m, near plane %4 m")
                                  .arg(t)
                                  .arg(i)
                                  .arg(std::min(camera.depthOf(a), camera.depthOf(c)))
                                  .arg(camera.nearPlane())));
          const Eigen::Vector2d pa = camera.project(a), pc = camera.project(c);
          const QRectF screen(0, 0, camera.width(), camera.height());
          for (const Eigen::Vector2d& v : {pa, pc}) {
            farthestRadii = std::max(farthestRadii, (v - bodyPx).norm() / bodyRadiusPx);
            QVERIFY2(screen.contains(v.x(), v.y()),
                     qPrintable(QStringLiteral("t %1: segment %2 ends off screen at (%3, %4) in %5x%6")
                                    .arg(t)
                                    .arg(i)
                                    .arg(v.x())
                                    .arg(v.y())
                                    .arg(camera.width())
                                    .arg(camera.height())));
          }
          longestPx = std::max(longestPx, (pc - pa).norm());
          ++checkedSegments;
        }
      }
    }
    const double heightPx = view.camera().height();
    qInfo(
        "%d segments, the longest %.1f px of a %.0f px high view, the farthest %.2f body radii from its "
        "centre, the nearest %.3g m deep",
        checkedSegments, longestPx, heightPx, farthestRadii, nearestDepth);
    QVERIFY(checkedSegments > 100 * samples);  // about 180 samples in an optimised build
    QVERIFY2(longestPx < 0.1 * heightPx, qPrintable(QString::number(longestPx)));
    QVERIFY2(farthestRadii < 1.5, qPrintable(QString::number(farthestRadii)));
    const QString shots = qEnvironmentVariable("CLUMPLAB_SHOTS_DIR");
    if (!shots.isEmpty()) {
      w.tick();
      QTest::qWait(100);
      QVERIFY(w.grab().save(QDir(shots).filePath(QStringLiteral("along-l-polhode.png"))));
    }
  }

  void everyShippedLessonLoadsAndRuns() {
    QStringList errors;
    const std::vector<Lesson> lessons = builtinLessons(&errors);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    QVERIFY(lessons.size() >= 8);
    QTemporaryDir cache;
    for (const Lesson& l : lessons) {
      QString error;
      const QString path = extractLessonScene(l, cache.path(), &error);
      QVERIFY2(!path.isEmpty(), qPrintable(error));
      const std::shared_ptr<const Scene> scene = loadDocument(path.toStdString());
      auto world = buildWorld(*scene);
      for (int n = 0; n < 10; ++n) QVERIFY2(world->step(), qPrintable(l.file));
      if (l.dzhanibekovBody >= 0)
        QVERIFY(static_cast<std::size_t>(l.dzhanibekovBody) < world->bodies().size());
    }
  }

  void lessonsNeedingAMissingFeatureAreHidden() {
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("90-later.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "clumplab-lesson/1", "title": "t", "summary": "s", "scene": "x.json",
               "text": ["p"], "requires": ["mesh-walls"]})");
    f.close();
    QStringList errors;
    QCOMPARE(loadLessons(dir.path(), {}, &errors).size(), std::size_t(0));
    QCOMPARE(loadLessons(dir.path(), {QStringLiteral("mesh-walls")}, &errors).size(), std::size_t(1));
    QVERIFY(errors.isEmpty());
  }

  void badLessonsNameFileAndField_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");
    const QByteArray good =
        R"({"format": "clumplab-lesson/1", "title": "t", "summary": "s", "scene": "x.json", "text": ["p"])";
    QTest::newRow("syntax") << QByteArray("{\n\"format\": }") << "l.json: line 2: ";
    QTest::newRow("format") << QByteArray(R"({"format": "other"})") << "l.json: format: expected";
    QTest::newRow("missing title") << QByteArray(good).replace(R"("title": "t", )", "")
                                   << "l.json: title: missing required field";
    QTest::newRow("unknown key") << QByteArray(good + R"(, "plots": "energy"})")
                                 << "l.json: plots: unknown key";
    QTest::newRow("bad view item") << QByteArray(good + R"(, "view": {"show": ["pebles"]}})")
                                   << "l.json: view.show[0]: expected one of";
    QTest::newRow("bad plot") << QByteArray(good + R"(, "plot": "nrg"})") << "l.json: plot: expected one of";
    QTest::newRow("comparison without steps") << QByteArray(good + R"(, "plot": "time-step-comparison"})")
                                              << "l.json: time_steps: a time-step comparison needs";
    QTest::newRow("negative step") << QByteArray(good + R"(, "time_steps": [1e-6, -1]})")
                                   << "l.json: time_steps: every time step must lie in [1e-15, 100] s";
    QTest::newRow("speed") << QByteArray(good + R"(, "speed": 5})") << "l.json: speed: expected 0.001 to 1";
    QTest::newRow("body") << QByteArray(good + R"(, "dzhanibekov": {"body": 1.5}})")
                          << "l.json: dzhanibekov.body: expected a body index";
    QTest::newRow("scene path") << QByteArray(good).replace("x.json", "../x.json")
                                << "l.json: scene: expected the file name";
    QTest::newRow("no text") << QByteArray(good).replace(R"(["p"])", "[]") << "l.json: text: a lesson needs";
  }
  void badLessonsNameFileAndField() {
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    QByteArray text = json;
    if (!text.endsWith('}')) text += '}';
    try {
      parseLesson(text, QStringLiteral("l.json"));
      QFAIL("accepted");
    } catch (const LessonError& e) {
      QVERIFY2(QString(e.what()).startsWith(expected), e.what());
    }
  }
};

QTEST_MAIN(LessonsTest)
#include "tst_lessons.moc"
