// Journeys through the real main window as users take them (issue 37): the default scene poured and
// piling, then S and G with the cursor over the pile, until things come to rest. Each test asserts
// what a user sees: no divergence, the new body on the pile (not in it), the run going on.
#include <QCursor>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "BuildSize.hpp"
#include "GuiTestSupport.hpp"
#include "TestSupport.hpp"
#include "gui/view/GlFormat.hpp"
#include "gui/view/Viewport.hpp"
#include "gui/window/MainWindow.hpp"

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
  Viewport& view = *w.viewport();
  QCursor::setPos(view.mapToGlobal(pixel));
  QTest::mouseMove(&view, pixel);
  QTest::keyClick(&view, key);
}

}  // namespace

class TestJourneys : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QSurfaceFormat::setDefaultFormat(viewportSurfaceFormat()); }
  void init() { useTestSettings(QStringLiteral("tst_journeys")); }

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
    QVERIFY(runUntil(w, 2.5, clumplab::test::wallClockMs(120000)));
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
    QVERIFY(runUntil(w, f->snapshot.time + 2.0, clumplab::test::wallClockMs(120000)));
    f = w.currentFrame();
    QVERIFY(f != nullptr);
    const SimulationFrame& after = *f;
    QVERIFY2(!after.diverged, after.problem.c_str());
    QCOMPARE(after.snapshot.bodies.size(), poured + 3);
    // Each new body inside the box (the default scene's: 0.72 m square, 1.6 m high), and every body
    // at rest two seconds later: on the pile, not shot out of it.
    for (std::size_t i = poured; i < after.snapshot.bodies.size(); ++i) {
      const Vec3 x = after.snapshot.bodies.position[i];
      CLUMPLAB_VERIFY_LESS(std::max(std::abs(x.x()), std::abs(x.y())), 0.36);
      CLUMPLAB_VERIFY_LESS(0.0, x.z());
      CLUMPLAB_VERIFY_LESS(x.z(), topBefore + 0.3);
    }
    for (std::size_t i = 0; i < after.snapshot.bodies.size(); ++i)
      CLUMPLAB_VERIFY_LESS(after.snapshot.bodies.velocity[i].norm(), 0.05);
  }
};

QTEST_MAIN(TestJourneys)
#include "tst_journeys.moc"
