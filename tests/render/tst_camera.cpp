// The orbit camera's geometry: rays through pixels project back onto those pixels, the matrices
// agree with project(), fit() frames a sphere, and orbit, pan, zoom and lookAlong do what a user
// expects (pan moves the point under the cursor with it).
#include <QtTest>
#include <cmath>
#include <numbers>

#include "render/Camera.hpp"

using namespace clumplab;
using render::Camera;

namespace {

Camera makeCamera(int w, int h) {
  Camera c;
  c.setViewport(w, h);
  c.setTarget(Vec3(0.3, -0.2, 0.1));
  c.setAngles(0.8, 0.4);
  c.setDistance(2.5);
  return c;
}

QString vec(const Eigen::Vector2d& p) {
  return QString("(%1, %2)").arg(p.x(), 0, 'g', 12).arg(p.y(), 0, 'g', 12);
}

}  // namespace

class CameraTest : public QObject {
  Q_OBJECT
 private slots:
  void frameIsOrthonormal() {
    const Camera c = makeCamera(800, 600);
    QVERIFY(std::abs(c.forward().norm() - 1.0) < 1e-12);
    QVERIFY(std::abs(c.up().norm() - 1.0) < 1e-12);
    QVERIFY(std::abs(c.forward().dot(c.up())) < 1e-12);
    QVERIFY(c.up().z() > 0.0);  // z is up
    QVERIFY(((c.eye() + c.distance() * c.forward()) - c.target()).norm() < 1e-12);
  }

  void rayThroughPixelProjectsBack_data() {
    QTest::addColumn<int>("w");
    QTest::addColumn<int>("h");
    QTest::newRow("landscape") << 800 << 600;
    QTest::newRow("portrait") << 300 << 700;
  }
  void rayThroughPixelProjectsBack() {
    QFETCH(int, w);
    QFETCH(int, h);
    const Camera c = makeCamera(w, h);
    for (const auto& [x, y] : {std::pair{0.0, 0.0}, {w * 0.5, h * 0.5}, {12.5, h - 3.0}, {w - 1.0, 40.0}}) {
      const render::Ray ray = c.rayThroughPixel(x, y);
      QVERIFY(std::abs(ray.direction.norm() - 1.0) < 1e-12);
      QVERIFY((ray.origin - c.eye()).norm() < 1e-12);
      for (double t : {0.1, 1.0, 7.0}) {
        const Eigen::Vector2d p = c.project(ray.origin + t * ray.direction);
        QVERIFY2((p - Eigen::Vector2d(x, y)).norm() < 1e-8,
                 qPrintable(QString("pixel (%1, %2) came back as %3").arg(x).arg(y).arg(vec(p))));
      }
    }
  }

  void matricesAgreeWithProject() {
    const Camera c = makeCamera(640, 480);
    const QMatrix4x4 m = c.projectionMatrix() * c.viewMatrix();
    for (const Vec3& x : {Vec3(0.3, -0.2, 0.1), Vec3(1.0, 0.5, -0.4), Vec3(-0.2, 0.1, 0.6)}) {
      const QVector4D clip = m * QVector4D(float(x.x()), float(x.y()), float(x.z()), 1.0f);
      const Eigen::Vector2d ndc(clip.x() / clip.w(), clip.y() / clip.w());
      const Eigen::Vector2d pixel(0.5 * (ndc.x() + 1.0) * 640, 0.5 * (1.0 - ndc.y()) * 480);
      QVERIFY2((pixel - c.project(x)).norm() < 1e-3, qPrintable(vec(pixel) + " vs " + vec(c.project(x))));
      QVERIFY(clip.z() / clip.w() > -1.0 && clip.z() / clip.w() < 1.0);  // between near and far
    }
  }

  void stereoEyesConvergeOnTheTarget() {
    // Off-axis stereo: the target lands on the same pixel for both eyes (zero parallax); a point
    // nearer the eyes is seen further right by the left eye than by the right one (crossed
    // parallax: out of the screen), a farther point the other way; heights agree; the eye's
    // matrices agree with its project().
    const Camera c = makeCamera(640, 480);
    const double separation = c.distance() / 30.0;
    const Camera left = c.stereoEye(-0.5 * separation), right = c.stereoEye(0.5 * separation);
    QVERIFY((left.eye() - right.eye()).norm() - separation < 1e-12);
    QVERIFY((left.forward() - c.forward()).norm() < 1e-12);  // parallel axes
    QVERIFY((left.project(c.target()) - right.project(c.target())).norm() < 1e-9);
    QVERIFY((left.project(c.target()) - c.project(c.target())).norm() < 1e-9);
    const Vec3 nearer = c.target() - 0.5 * c.distance() * c.forward();
    const Vec3 farther = c.target() + 1.0 * c.distance() * c.forward();
    QVERIFY(left.project(nearer).x() > right.project(nearer).x() + 1.0);
    QVERIFY(left.project(farther).x() < right.project(farther).x() - 1.0);
    QVERIFY(std::abs(left.project(nearer).y() - right.project(nearer).y()) < 1e-9);
    for (const Camera& eye : {left, right}) {
      const QMatrix4x4 m = eye.projectionMatrix() * eye.viewMatrix();
      for (const Vec3& x : {nearer, farther, c.target()}) {
        const QVector4D clip = m * QVector4D(float(x.x()), float(x.y()), float(x.z()), 1.0f);
        const Eigen::Vector2d pixel(0.5 * (clip.x() / clip.w() + 1.0) * 640,
                                    0.5 * (1.0 - clip.y() / clip.w()) * 480);
        QVERIFY2((pixel - eye.project(x)).norm() < 1e-3,
                 qPrintable(vec(pixel) + " vs " + vec(eye.project(x))));
      }
    }
  }

  void pixelsPerMeter() {
    const Camera c = makeCamera(640, 480);
    const Vec3 x = c.target() + 0.3 * c.right() + 0.7 * c.forward();
    const double ppm = c.pixelsPerMeterAt(x);
    const Eigen::Vector2d a = c.project(x), b = c.project(x + 1e-3 * c.up());
    QVERIFY2(std::abs((a - b).norm() - 1e-3 * ppm) < 1e-6, qPrintable(QString::number(ppm)));
  }

  void fitKeepsTheSphereInView_data() {
    QTest::addColumn<int>("w");
    QTest::addColumn<int>("h");
    QTest::addColumn<double>("yaw");
    QTest::addColumn<double>("pitch");
    QTest::newRow("wide") << 1280 << 500 << 0.3 << 0.2;
    QTest::newRow("tall") << 400 << 900 << -2.0 << 1.2;
    QTest::newRow("square from below") << 600 << 600 << 1.0 << -0.8;
  }
  void fitKeepsTheSphereInView() {
    QFETCH(int, w);
    QFETCH(int, h);
    QFETCH(double, yaw);
    QFETCH(double, pitch);
    Camera c;
    c.setViewport(w, h);
    c.setAngles(yaw, pitch);
    const Vec3 center(1.0, 2.0, -0.5);
    const double radius = 0.37;
    c.fit(center, radius);
    QVERIFY(std::abs(c.yaw() - yaw) < 1e-12 && std::abs(c.pitch() - pitch) < 1e-12);
    QVERIFY((c.target() - center).norm() < 1e-12);
    double lo = 1e9, hi = -1e9;  // extent along the narrower screen axis
    const bool wide = w >= h;
    for (int i = 0; i < 2000; ++i) {  // points spread over the sphere
      const double z = 1.0 - 2.0 * (i + 0.5) / 2000.0, phi = i * 2.399963229728653;
      const Vec3 p = center + radius * Vec3(std::sqrt(1 - z * z) * std::cos(phi),
                                            std::sqrt(1 - z * z) * std::sin(phi), z);
      const Eigen::Vector2d q = c.project(p);
      QVERIFY2(q.x() >= 0 && q.x() <= w && q.y() >= 0 && q.y() <= h,
               qPrintable("outside the view: " + vec(q)));
      lo = std::min(lo, wide ? q.y() : q.x());
      hi = std::max(hi, wide ? q.y() : q.x());
    }
    const double span = (hi - lo) / (wide ? h : w);
    QVERIFY2(span > 0.8, qPrintable(QString("the sphere spans only %1 of the view").arg(span)));
  }

  void orbitTurnsAboutTheTarget() {
    Camera c = makeCamera(800, 600);
    const Vec3 target = c.target();
    const double d = c.distance(), yaw = c.yaw(), pitch = c.pitch();
    c.orbit(50.0, 0.0);
    QVERIFY(c.yaw() < yaw);  // dragging right turns the scene right: the eye goes left
    QCOMPARE(c.pitch(), pitch);
    c.orbit(0.0, 30.0);
    QVERIFY(c.pitch() > pitch);  // dragging down looks from higher up
    QVERIFY((c.target() - target).norm() < 1e-12);
    QVERIFY(std::abs((c.eye() - target).norm() - d) < 1e-12);
    c.orbit(0.0, 1e6);
    QVERIFY(c.pitch() < std::numbers::pi / 2 && c.pitch() > 1.5);  // clamped short of the pole
    QVERIFY(c.up().allFinite() && std::abs(c.up().norm() - 1.0) < 1e-9);
    c.orbit(0.0, -1e6);
    QVERIFY(c.pitch() > -std::numbers::pi / 2 && c.pitch() < -1.5);
  }

  void panMovesThePointUnderTheCursor() {
    Camera c = makeCamera(800, 600);
    // A point in the target's depth plane, at some pixel.
    const Vec3 p = c.target() + 0.2 * c.right() - 0.15 * c.up();
    const Eigen::Vector2d before = c.project(p);
    const Vec3 target = c.target();
    c.pan(37.0, -21.0);
    const Eigen::Vector2d after = c.project(p);
    QVERIFY2((after - before - Eigen::Vector2d(37.0, -21.0)).norm() < 1e-8,
             qPrintable(vec(before) + " -> " + vec(after)));
    // The target moved by the world size of those pixels at its depth.
    const double metresPerPixel = c.distance() / c.focalPixels();
    QVERIFY(std::abs((c.target() - target).norm() - metresPerPixel * std::hypot(37.0, 21.0)) < 1e-12);
  }

  void zoomIsMultiplicative() {
    Camera c = makeCamera(800, 600);
    const double d = c.distance();
    c.zoom(1.0);
    QVERIFY(c.distance() < d);
    QVERIFY(std::abs(c.distance() / d - 1.0 / 1.1) < 1e-12);
    c.zoom(-3.0);
    c.zoom(2.0);
    QVERIFY(std::abs(c.distance() - d) < 1e-12);
    const Vec3 target = c.target();
    c.zoom(0.5);
    QVERIFY((c.target() - target).norm() < 1e-15);
  }

  void lookAlongSetsTheViewDirection() {
    Camera c = makeCamera(800, 600);
    const double d = c.distance();
    for (const Vec3& dir : {Vec3(1, 0, 0), Vec3(-0.3, 0.5, -0.8), Vec3(0.2, -1.0, 0.4)}) {
      c.lookAlong(dir);
      QVERIFY2((c.forward() - dir.normalized()).norm() < 1e-9, "forward is not the direction");
      QCOMPARE(c.distance(), d);
    }
    c.lookAlong(Vec3(0, 0, -1));  // straight down: as close as the pitch clamp allows
    QVERIFY(c.forward().z() < -0.999);
  }

  void keepInViewBacksOffUntilTheSphereIsShown() {
    // A body's overlays (its L arrow, the polhode) about a point off the target: after keepInView
    // every point of the sphere is on screen and far in front of the near plane; never closer.
    Camera c = makeCamera(800, 600);
    c.setDistance(0.5);
    const Vec3 center = c.target() + 0.1 * c.right() - 0.05 * c.up();
    const double radius = 0.4;  // [m] reaching nearly up to the eye
    const Vec3 target = c.target(), forward = c.forward();
    c.keepInView(center, radius);
    QVERIFY((c.target() - target).norm() < 1e-15 && (c.forward() - forward).norm() < 1e-15);
    const std::vector<Vec3> directions = {
        Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), Vec3(1, -1, 1),
        c.right(),     c.up(),        -c.forward(),  Vec3(-c.right() - c.up())};
    for (const Vec3& dir : directions) {
      const Vec3 p = center + radius * dir.normalized();
      QVERIFY(c.depthOf(p) > 10.0 * c.nearPlane());
      const Eigen::Vector2d px = c.project(p);
      QVERIFY2(px.x() >= 0.0 && px.x() <= 800.0 && px.y() >= 0.0 && px.y() <= 600.0, qPrintable(vec(px)));
    }
    const double d = c.distance();
    c.keepInView(center, 0.01);  // already in view: stays
    QCOMPARE(c.distance(), d);
    c.keepInView(Vec3(NAN, 0, 0), 1.0);
    QCOMPARE(c.distance(), d);
  }
};

QTEST_GUILESS_MAIN(CameraTest)
#include "tst_camera.moc"
