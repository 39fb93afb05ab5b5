// Bodies in the real main window's 3D view (under Xvfb in CI): picking, dragging (running and
// paused), spawning at the cursor, deleting, commands named by a stale body index, and the
// template library (its files listed, dropped templates spawned).
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QMimeData>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "BuildSize.hpp"
#include "CutOffText.hpp"
#include "GuiScenes.hpp"
#include "GuiTestSupport.hpp"
#include "TestSupport.hpp"
#include "core/clump/MassProperties.hpp"
#include "core/io/TemplateFile.hpp"
#include "gui/docks/InspectorDock.hpp"
#include "gui/docks/TemplateLibraryDock.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/window/MainWindow.hpp"

using namespace clumplab;
using namespace clumplab::gui;
using namespace clumplab::sim;
using namespace clumplab::gui::test;

namespace {
// Position of body i in the frame shown (NaN if there is none).
Vec3 shownPosition(const MainWindow& w, std::size_t i) {
  const SimulationFrame* f = w.currentFrame();
  if (f == nullptr || i >= f->snapshot.bodies.size()) return Vec3::Constant(NAN);
  return f->snapshot.bodies.position[i];
}
}  // namespace

class TestGuiBodies : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QSurfaceFormat::setDefaultFormat(viewportSurfaceFormat()); }

  void init() { useTestSettings(QStringLiteral("tst_gui_bodies")); }

  void pickingSelectsAndDraggingPullsTheBody() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1200, 800);
    w.setRunning(true);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(openScene(w, dir, QStringLiteral("two.json"), kTwoBalls, 2), QString());
    Viewport* view = w.viewport();
    // Body 1 at the projected centre of its pebble.
    const SimulationFrame* first = w.currentFrame();
    QVERIFY(first != nullptr);
    const Vec3 c1 = first->snapshot.bodies.position[1];
    const Eigen::Vector2d p1 = view->camera().project(c1);
    const QPoint pixel(static_cast<int>(std::lround(p1.x())), static_cast<int>(std::lround(p1.y())));
    const auto hit = view->pick(pixel);
    QVERIFY2(hit.has_value(), "a click on a body's centre picks it");
    QCOMPARE(hit->body, 1u);
    QVERIFY(!view->pick(QPoint(2, 2)).has_value());

    // Drag it 120 px to the right (towards +x on screen) and hold: the spring pulls it along.
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, pixel);
    QCOMPARE(view->selectedBody(), 1);
    // Along the floor, away from body 0 (at the origin): the screen direction of world +x.
    const Eigen::Vector2d unit = (view->camera().project(c1 + Vec3(0.1, 0.0, 0.0)) - p1).normalized();
    auto along = [&](double pixels) {
      return pixel + QPoint(static_cast<int>(std::lround(unit.x() * pixels)),
                            static_cast<int>(std::lround(unit.y() * pixels)));
    };
    const QPoint to = along(120.0);
    for (int k = 1; k <= 12; ++k) {
      QTest::mouseMove(view, along(10.0 * k));
      QTest::qWait(5);
    }
    QVERIFY(waitForFrame(
        w,
        [&](const SimulationFrame& f) {
          const Eigen::Vector2d p = view->camera().project(f.snapshot.bodies.position[1]);
          return (p - p1).dot(unit) > 60.0;
        },
        15000));
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, to);
    const SimulationFrame* last = w.currentFrame();
    QVERIFY(last != nullptr && last->snapshot.bodies.size() == 2);
    QVERIFY2((last->snapshot.bodies.position[1] - c1).norm() > 0.01, "the dragged body moved");
    // The other body was not dragged.
    CLUMPLAB_VERIFY_LESS(last->snapshot.bodies.position[0].head<2>().norm(), 1e-3);
  }

  void draggingWhilePausedMovesTheBody() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1200, 800);
    w.setRunning(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(openScene(w, dir, QStringLiteral("two.json"), kTwoBalls, 2), QString());
    Viewport* view = w.viewport();
    const Vec3 c1 = shownPosition(w, 1);
    const Eigen::Vector2d p1 = view->camera().project(c1);
    const QPoint pixel(static_cast<int>(std::lround(p1.x())), static_cast<int>(std::lround(p1.y())));
    const auto hit = view->pick(pixel);
    QVERIFY(hit.has_value() && hit->body == 1u);
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, pixel);
    const QPoint to = pixel + QPoint(0, -80);  // up the screen: lifts the ball
    for (int k = 1; k <= 8; ++k) QTest::mouseMove(view, pixel + QPoint(0, -10 * k));
    // Paused, the grabbed point goes exactly to the point under the cursor on the plane through it
    // that faces the camera, and the body moves with it.
    const render::Camera& camera = view->camera();
    const render::Ray ray = camera.rayThroughPixel(to.x(), to.y());
    const double depth = (hit->point - camera.eye()).dot(camera.forward());
    const Vec3 target = ray.origin + depth / ray.direction.dot(camera.forward()) * ray.direction;
    const Vec3 expected = c1 + (target - hit->point);
    QVERIFY(waitForFrame(w, [&](const SimulationFrame& f) {
      return (f.snapshot.bodies.position[1] - expected).norm() < 1e-9;
    }));
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, to);
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr && f->stats.paused);
    QCOMPARE(f->snapshot.steps, std::uint64_t{0});  // moved, not simulated
    QVERIFY(f->snapshot.bodies.position[1].z() > c1.z() + 0.01);
    QCOMPARE(f->snapshot.bodies.velocity[1], Vec3::Zero().eval());
  }

  void spawnAtTheCursorAndDelete() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1200, 800);
    w.setRunning(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(openScene(w, dir, QStringLiteral("two.json"), kTwoBalls, 2), QString());
    Viewport* view = w.viewport();
    // A floor point away from both balls: the spawned ball lands above it.
    const Vec3 spot(-0.3, 0.2, 0.0);
    const Eigen::Vector2d p = view->camera().project(spot);
    const QPoint pixel(static_cast<int>(std::lround(p.x())), static_cast<int>(std::lround(p.y())));
    w.spawnAt(pixel, false);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 3; }));
    const Vec3 spawned = shownPosition(w, 2);
    const double pixelSize = 1.0 / view->camera().pixelsPerMeterAt(spot);
    CLUMPLAB_VERIFY_LESS((spawned.head<2>() - spot.head<2>()).norm(), 2.0 * pixelSize);
    CLUMPLAB_VERIFY_LESS(0.05, spawned.z());  // above the floor, not in it

    // Shooting starts it moving towards the point, at the chosen speed (2 m/s by default).
    w.spawnAt(pixel, true);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 4; }));
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr && f->snapshot.bodies.size() == 4);
    CLUMPLAB_COMPARE_REL(f->snapshot.bodies.velocity[3].norm(), 2.0, 1e-12);
    CLUMPLAB_VERIFY_LESS(
        0.99, f->snapshot.bodies.velocity[3].normalized().dot((spot - view->camera().eye()).normalized()));

    view->setSelectedBody(0);
    w.deleteSelected();
    QVERIFY(waitForFrame(w, [](const SimulationFrame& g) { return g.snapshot.bodies.size() == 3; }));
    QCOMPARE(view->selectedBody(), -1);
    // The ball that was at x = 0.3 is now body 0.
    CLUMPLAB_COMPARE_REL(shownPosition(w, 0).x(), 0.3, 1e-9);
  }

  // A command names a body by its index and the frame's index generation: issued before a deletion
  // reaches the thread, it is refused instead of hitting the body that took the index.
  void staleBodyCommandsAreRefused() {
    QTemporaryDir dir;
    MainWindow w;
    w.setRunning(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(openScene(w, dir, QStringLiteral("two.json"), kTwoBalls, 2), QString());
    const SimulationFrame* f = w.currentFrame();
    QVERIFY(f != nullptr);
    const BodyRef first{0, f->bodyIndexGeneration};
    const Vec3 other = f->snapshot.bodies.position[1];
    w.simulation().removeBody(first);
    w.simulation().removeBody(first);                       // chosen before the first deletion: stale
    w.simulation().setBodySpin(first, Vec3(0, 0, 5.0), 2);  // as stale
    const std::uint64_t ticket = w.simulation().commandsPosted();
    QVERIFY(waitForFrame(w, [&](const SimulationFrame& g) { return g.commandsApplied >= ticket; }));
    const SimulationFrame& g = *w.currentFrame();
    QCOMPARE(g.snapshot.bodies.size(), std::size_t(1));
    QCOMPARE(g.snapshot.bodies.position[0], other);  // the other ball, untouched
    QCOMPARE(g.snapshot.bodies.angularVelocity[0], Vec3::Zero());
    QVERIFY(g.bodyIndexGeneration != first.generation);
    // Named under the new generation, the same commands apply.
    w.simulation().setBodySpin({0, g.bodyIndexGeneration}, Vec3(0, 0, 5.0), 2);
    const std::uint64_t spun = w.simulation().commandsPosted();
    QVERIFY(waitForFrame(w, [&](const SimulationFrame& h) { return h.commandsApplied >= spun; }));
    QVERIFY(w.currentFrame()->snapshot.bodies.angularVelocity[0].norm() > 4.9);
  }

  // The library's folder does not exist until the first template is saved (a fresh profile): that
  // template shows by itself, without a Refresh.
  void templateLibraryShowsTheFirstTemplateSaved() {
    QTemporaryDir home;
    const QString folder = QDir(home.path()).filePath(QStringLiteral("data/ClumpLab/templates"));
    TemplateLibraryDock dock;
    dock.setFolder(folder);
    QCOMPARE(dock.list()->count(), 0);
    QTest::qWait(50);
    QVERIFY(QDir().mkpath(folder));
    const std::vector<Pebble> pebbles = {{Vec3(0, 0, 0), 0.02}, {Vec3(0, 0, 0.025), 0.02}};
    const ClumpTemplate t =
        makeTemplate("first", pebbles, massFromVoxels(pebbles, 1000.0, 32), "pebbles", 1000.0);
    QFile out(QDir(folder).filePath(QStringLiteral("first.json")));
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(templateToJson(t)));
    out.close();
    QTRY_COMPARE_WITH_TIMEOUT(dock.list()->count(), 1, 10000);
  }

  // The library lists the template files of its folder (a broken one with the reason), with
  // thumbnails; dropping one on the view spawns it there, once as a template of the world however
  // often it is dropped; a file saved into the folder appears by itself.
  void templateLibraryListsAndSpawnsDroppedTemplates() {
    QTemporaryDir dir, library;
    auto writeTemplate = [&](const QString& file, const std::string& name,
                             const std::vector<Pebble>& pebbles) {
      const ClumpTemplate t =
          makeTemplate(name, pebbles, massFromVoxels(pebbles, 1000.0, 48), "pebbles", 1000.0);
      QFile out(library.filePath(file));
      QVERIFY(out.open(QIODevice::WriteOnly));
      out.write(QByteArray::fromStdString(templateToJson(t)));
    };
    writeTemplate(QStringLiteral("dumbbell.json"), "dumbbell",
                  {{Vec3(-0.03, 0, 0), 0.02}, {Vec3(0, 0, 0), 0.01}, {Vec3(0.03, 0, 0), 0.02}});
    writeTemplate(QStringLiteral("pair.json"), "pair", {{Vec3(0, 0, 0), 0.02}, {Vec3(0, 0, 0.025), 0.02}});
    QFile broken(library.filePath(QStringLiteral("broken.json")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("{ \"format\": \"clumplab-template/1\", \"pebbles\": [[0, 0] }");
    broken.close();

    MainWindow w;
    w.setRunning(false);
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(openScene(w, dir, QStringLiteral("balls.json"), kTwoBalls, 2), QString());
    TemplateLibraryDock* dock = w.templateLibrary();
    dock->setFolder(library.path());
    QCOMPARE(dock->list()->count(), 3);
    const std::vector<LibraryEntry>& entries = dock->library().entries();
    QVERIFY(!entries[0].clump);  // broken.json, first by name
    QVERIFY2(entries[0].error.contains(QStringLiteral("broken.json")), qPrintable(entries[0].error));
    QVERIFY(entries[1].clump && entries[2].clump);
    QCOMPARE(entries[1].clump->pebbles.size(), std::size_t(3));
    QVERIFY(dock->list()->item(1)->text().contains(QStringLiteral("3 pebbles")));
    // The thumbnail draws the clump: opaque shaded pixels, several shades.
    QSet<QRgb> shades;
    const QImage& thumb = entries[1].thumbnail;
    for (int y = 0; y < thumb.height(); ++y)
      for (int x = 0; x < thumb.width(); ++x)
        if (qAlpha(thumb.pixel(x, y)) == 255) shades.insert(thumb.pixel(x, y));
    QVERIFY2(shades.size() > 50, qPrintable(QString::number(shades.size())));

    const SimulationFrame* before = w.currentFrame();
    const std::size_t templates = before->snapshot.templates.size();
    const QPoint target = w.viewport()->rect().center() + QPoint(40, 30);
    const Vec3 under = w.viewport()->worldPointUnder(target);
    auto drop = [&](const QString& path, QPoint inViewport) {
      QMimeData data;
      data.setData(QString::fromLatin1(kTemplateMimeType), path.toUtf8());
      const QPointF at = w.viewport()->mapTo(&w, QPointF(inViewport));
      // As a drag does it: the drop goes to the widget that accepted the drag's entry.
      QDragEnterEvent enter(at.toPoint(), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
      QCoreApplication::sendEvent(&w, &enter);
      QDropEvent event(at, Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
      QCoreApplication::sendEvent(&w, &event);
    };
    drop(entries[1].path, target);
    QVERIFY(waitForFrame(w, [&](const SimulationFrame& f) { return f.snapshot.bodies.size() == 3; }));
    const SimulationFrame* f = w.currentFrame();
    QCOMPARE(f->snapshot.templates.size(), templates + 1);
    QCOMPARE(f->snapshot.templates.back()->name, std::string("dumbbell"));
    const Vec3 placed = f->snapshot.bodies.position[2];
    QVERIFY(std::abs(placed.x() - under.x()) < 1e-9);  // lifted straight up, clear of the others
    QVERIFY(std::abs(placed.y() - under.y()) < 1e-9);
    QVERIFY(placed.z() > under.z());
    drop(entries[1].path, target);
    QVERIFY(waitForFrame(w, [&](const SimulationFrame& g) { return g.snapshot.bodies.size() == 4; }));
    QCOMPARE(w.currentFrame()->snapshot.templates.size(), templates + 1);  // the same template
    // The second copy landed on the first, not inside it.
    QVERIFY(w.currentFrame()->snapshot.bodies.position[3].z() > placed.z());
    drop(entries[1].path, QPoint(-50, -50));  // outside the view: nothing happens
    QTest::qWait(100);
    w.tick();
    QCOMPARE(w.currentFrame()->snapshot.bodies.size(), std::size_t(4));

    writeTemplate(QStringLiteral("later.json"), "later", {{Vec3(0, 0, 0), 0.01}});
    QTRY_COMPARE_WITH_TIMEOUT(dock->list()->count(), 4, clumplab::test::wallClockMs(5000));
  }

  // The Inspector and the Templates panel at the window's first size on a 1600 x 1000 screen
  // (1500 x 920): every column of the Inspector readable, units too (they were cut off at its
  // right edge), and the empty library's text wrapped whole, its folder's path included.
  void nothingInTheInspectorOrTemplatesIsCutOff() {
    QTemporaryDir dir;
    const QString library =
        dir.filePath(QStringLiteral("a/rather/long/path/to/the/user/profile/ClumpLab/templates"));
    MainWindow w;
    w.resize(1500, 920);
    w.templateLibrary()->setFolder(library);
    // A grain of a millimetre drifting and spinning slowly: numbers as long as the Inspector writes
    // them (four digits, a sign, an exponent of two) in every column.
    const char* grain = R"({
      "format": "clumplab-scene/1", "time_step": 1e-4, "integrator": "leapfrog", "gravity": [0, 0, 0],
      "contact": { "model": "linear", "stiffness": 1e4, "restitution": 0.5, "friction": 0.3 },
      "templates": { "grain": { "density": 2500, "pebbles": [[0, 0, 0, 0.00123], [0.0011, 0, 0, 0.0009]] } },
      "bodies": [ { "template": "grain", "position": [-1.234e-05, -2.345e-05, -3.456e-05],
                    "velocity": [-1.234e-05, -2.345e-05, -3.456e-05],
                    "angular_velocity": [-1.234e-05, -2.345e-05, -3.456e-05] } ] })";
    QCOMPARE(showActiveScene(w, dir, QStringLiteral("grain.json"), grain, 1), QString());
    w.viewport()->setSelectedBody(0);
    w.inspectorDock()->setVisible(true);
    w.templateLibrary()->show();
    w.templateLibrary()->raise();
    w.simulation().singleStep(1);
    QVERIFY(waitForFrame(w, [](const SimulationFrame& f) { return f.snapshot.steps >= 1; }));
    w.tick();
    QApplication::processEvents();
    QVERIFY(w.inspectorDock()->isVisible() && w.templateLibrary()->isVisible());
    const QStringList inspector = cutOffText(*w.inspectorDock());
    QVERIFY2(inspector.isEmpty(), qPrintable(inspector.join(QStringLiteral("; "))));
    const QStringList templates = cutOffText(*w.templateLibrary());
    QVERIFY2(templates.isEmpty(), qPrintable(templates.join(QStringLiteral("; "))));
  }
};

QTEST_MAIN(TestGuiBodies)
#include "tst_gui_bodies.moc"
