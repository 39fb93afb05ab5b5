// The scene renderer against geometry computed on the CPU: a sphere's silhouette where the camera
// projects it and as large as perspective makes it, depth between pebbles as exact ray casting
// finds it, PaLa wireframe lines (Mutze, Polyspherical grains, §8) where they project and nothing elsewhere,
// uploads on layout changes only, and the embedded shaders being there at all.
#include <QFile>
#include <QGuiApplication>
#include <QOpenGLFunctions>
#include <QtTest>

#include "RenderTestSupport.hpp"
#include "render/Picking.hpp"
#include "resources/Resources.hpp"

using namespace clumplab;
using namespace clumplab::test;
using render::Camera;
using render::SceneRenderer;
using render::ViewOptions;

namespace {

constexpr int kW = 640, kH = 480;

Camera makeCamera(double yaw, double pitch, double distance, const Vec3& target = Vec3::Zero()) {
  Camera c;
  c.setViewport(kW, kH);
  c.setTarget(target);
  c.setAngles(yaw, pitch);
  c.setDistance(distance);
  return c;
}

ViewOptions plainOptions() {
  ViewOptions o;
  o.walls = false;
  return o;
}

Snapshot spheres(const std::vector<Vec3>& centers, double radius) {
  Snapshot s;
  s.layoutGeneration = 1;
  s.templates.push_back(bodyFrameTemplate({{Vec3::Zero(), radius}}, "sphere"));
  for (const Vec3& c : centers) addBody(s, 0, c);
  return s;
}

// Distance from point p to segment ab (2D).
double segmentDistance(const Eigen::Vector2d& p, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  const Eigen::Vector2d ab = b - a;
  const double t = ab.squaredNorm() > 0.0 ? std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0) : 0.0;
  return (p - (a + t * ab)).norm();
}

}  // namespace

class SceneRendererTest : public QObject {
  Q_OBJECT

  GlHarness gl_;
  SceneRenderer renderer_;
  QImage background_;

  QImage draw(const Snapshot& s, const Camera& c, const ViewOptions& o, int samples = 0) {
    return gl_.render(renderer_, s, c, o, kW, kH, samples);
  }

 private slots:
  void initTestCase() {
    QString why;
    QVERIFY2(gl_.create(&why), qPrintable("no OpenGL 3.3 core context: " + why));
    renderer_.initialize();
    QVERIFY(renderer_.isInitialized());
    background_ = draw(Snapshot{}, makeCamera(0.3, 0.2, 1.0), plainOptions());
  }

  void cleanupTestCase() {
    renderer_.release();
    gl_.context().doneCurrent();
  }

  void shadersAreEmbedded() {
    clumplab::initResources();
    for (const char* name : {"pebble.vert", "pebble.frag", "wireframe.vert", "lighting.glsl"})
      QVERIFY2(QFile::exists(QStringLiteral(":/shaders/") + name), name);
  }

  void backgroundIsAGradient() {
    const QRgb top = background_.pixel(kW / 2, 2), bottom = background_.pixel(kW / 2, kH - 3);
    QVERIFY2(qGray(top) > qGray(bottom) + 20,
             qPrintable(QString("top grey %1, bottom grey %2").arg(qGray(top)).arg(qGray(bottom))));
  }

  // On the axis the silhouette is a circle of radius f r / sqrt(d^2 - r^2) about the projection.
  void sphereSilhouetteOnAxis_data() {
    QTest::addColumn<double>("distance");
    QTest::addColumn<double>("radius");
    QTest::newRow("far") << 1.0 << 0.05;
    QTest::newRow("mid") << 0.5 << 0.1;
    QTest::newRow("near") << 0.3 << 0.06;
  }
  void sphereSilhouetteOnAxis() {
    QFETCH(double, distance);
    QFETCH(double, radius);
    const Vec3 center(0.01, -0.02, 0.03);
    const Camera camera = makeCamera(0.7, 0.35, distance, center);
    const QImage image = draw(spheres({center}, radius), camera, plainOptions());
    const Blob blob = measure(foreground(image, background_), kW);
    const Eigen::Vector2d p = camera.project(center);
    const double expected = camera.focalPixels() * radius / std::sqrt(distance * distance - radius * radius);
    QVERIFY2(
        std::abs(blob.cx - p.x()) <= 2.0 && std::abs(blob.cy - p.y()) <= 2.0,
        qPrintable(
            QString("centre (%1, %2), projected (%3, %4)").arg(blob.cx).arg(blob.cy).arg(p.x()).arg(p.y())));
    QVERIFY2(std::abs(blob.radius() - expected) <= 2.0,
             qPrintable(QString("radius %1 px, expected %2 px").arg(blob.radius()).arg(expected)));
    // No stray pixels: the foreground lies within the expected circle (+1.5 px).
    const std::vector<bool> mask = foreground(image, background_);
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x)
        if (mask[static_cast<std::size_t>(y * kW + x)])
          QVERIFY2(std::hypot(x + 0.5 - p.x(), y + 0.5 - p.y()) <= expected + 1.5,
                   qPrintable(QString("stray pixel (%1, %2)").arg(x).arg(y)));
  }

  // Off the axis: the silhouette matches exact ray casting through every pixel centre.
  void sphereSilhouetteOffAxis() {
    const Camera camera = makeCamera(-0.4, 0.5, 0.8);
    const Vec3 center = camera.target() + 0.18 * camera.right() - 0.1 * camera.up();
    const double radius = 0.06;
    const Snapshot s = spheres({center}, radius);
    const QImage image = draw(s, camera, plainOptions());
    if (qEnvironmentVariableIsSet("CLUMPLAB_RENDER_DEBUG")) image.save("/tmp/render-debug-offaxis.png");
    const std::vector<bool> mask = foreground(image, background_);
    int expected = 0, mismatched = 0;
    std::vector<bool> reference(mask.size());
    for (int y = 0; y < kH; ++y) {
      for (int x = 0; x < kW; ++x) {
        const bool hit = render::pickBody(s, camera.rayThroughPixel(x + 0.5, y + 0.5)).has_value();
        reference[static_cast<std::size_t>(y * kW + x)] = hit;
        expected += hit;
        mismatched += hit != mask[static_cast<std::size_t>(y * kW + x)];
      }
    }
    const Blob a = measure(mask, kW), b = measure(reference, kW);
    QVERIFY2(std::hypot(a.cx - b.cx, a.cy - b.cy) <= 1.0 && std::abs(a.radius() - b.radius()) <= 1.0,
             qPrintable(QString("centre (%1, %2) radius %3; ray casting (%4, %5) radius %6")
                            .arg(a.cx)
                            .arg(a.cy)
                            .arg(a.radius())
                            .arg(b.cx)
                            .arg(b.cy)
                            .arg(b.radius())));
    // Only pixels on the rim may disagree (their centres within round-off of the silhouette).
    const double perimeter = 2.0 * std::numbers::pi * b.radius();
    QVERIFY2(mismatched <= perimeter * 0.1 + 4,
             qPrintable(QString("%1 of %2 pixels disagree with ray casting").arg(mismatched).arg(expected)));
  }

  // A sphere behind another is hidden where they overlap, whichever is drawn first.
  void nearerSphereHidesFarther_data() {
    QTest::addColumn<bool>("frontFirst");
    QTest::newRow("front drawn first") << true;
    QTest::newRow("front drawn last") << false;
  }
  void nearerSphereHidesFarther() {
    QFETCH(bool, frontFirst);
    const Camera camera = makeCamera(1.1, 0.3, 1.0);
    const Vec3 front = camera.target() - 0.1 * camera.forward();
    const Vec3 back = camera.target() + 0.2 * camera.forward() + 0.06 * camera.right();
    const Vec3 far = Vec3(1e3, 1e3, 1e3);  // out of view: the same layout without the back sphere
    const auto scene = [&](const Vec3& b) {
      return frontFirst ? spheres({front, b}, 0.07) : spheres({b, front}, 0.07);
    };
    const QImage both = draw(scene(back), camera, plainOptions());
    const QImage alone = draw(scene(far), camera, plainOptions());
    const std::vector<bool> frontMask = foreground(alone, background_);
    const std::vector<bool> bothMask = foreground(both, background_);
    int covered = 0, differing = 0, backVisible = 0;
    for (int y = 0; y < kH; ++y) {
      for (int x = 0; x < kW; ++x) {
        const std::size_t i = static_cast<std::size_t>(y * kW + x);
        if (frontMask[i]) {
          // Inside the front sphere (away from its anti-aliased rim) nothing of the back one shows.
          const bool interior = x > 0 && y > 0 && x < kW - 1 && y < kH - 1 && frontMask[i - 1] &&
                                frontMask[i + 1] && frontMask[i - kW] && frontMask[i + kW];
          if (!interior) continue;
          ++covered;
          differing += channelDifference(both.pixel(x, y), alone.pixel(x, y)) > 3;
        } else {
          backVisible += bothMask[i];
        }
      }
    }
    QVERIFY2(covered > 1000, qPrintable(QString("front sphere covers %1 px").arg(covered)));
    QVERIFY2(backVisible > 500, qPrintable(QString("back sphere shows on %1 px").arg(backVisible)));
    QVERIFY2(
        differing == 0,
        qPrintable(QString("%1 of %2 front pixels changed by the back sphere").arg(differing).arg(covered)));
  }

  // Two interpenetrating spheres: every pixel shows the body exact ray casting hits first (the
  // impostors write true depth), except along the curve where they cross and the rims.
  void intersectingSpheresMatchRayCasting() {
    const Camera camera = makeCamera(0.2, 0.6, 0.9);
    const Vec3 a = camera.target() + 0.03 * camera.right(),
               b = camera.target() - 0.05 * camera.right() + 0.04 * camera.forward();
    const Snapshot s = spheres({a, b}, 0.08);
    const Vec3 far(1e3, 1e3, 1e3);
    const QImage both = draw(s, camera, plainOptions());
    if (qEnvironmentVariableIsSet("CLUMPLAB_RENDER_DEBUG")) both.save("/tmp/render-debug-intersecting.png");
    const QImage onlyA = draw(spheres({a, far}, 0.08), camera, plainOptions());
    const QImage onlyB = draw(spheres({far, b}, 0.08), camera, plainOptions());
    int compared = 0, wrong = 0;
    for (int y = 1; y < kH - 1; ++y) {
      for (int x = 1; x < kW - 1; ++x) {
        const auto hit = render::pickBody(s, camera.rayThroughPixel(x + 0.5, y + 0.5));
        if (!hit) continue;
        // Skip pixels whose neighbours see something else (rims and the crossing curve).
        bool uniform = true;
        for (int dy = -1; dy <= 1 && uniform; ++dy)
          for (int dx = -1; dx <= 1 && uniform; ++dx) {
            const auto h = render::pickBody(s, camera.rayThroughPixel(x + dx + 0.5, y + dy + 0.5));
            uniform = h && h->body == hit->body;
          }
        if (!uniform) continue;
        ++compared;
        const QRgb p = both.pixel(x, y);
        const int da = channelDifference(p, onlyA.pixel(x, y)), db = channelDifference(p, onlyB.pixel(x, y));
        wrong += (hit->body == 0 ? da : db) > 3;
      }
    }
    QVERIFY2(compared > 5000, qPrintable(QString("%1 pixels compared").arg(compared)));
    QVERIFY2(wrong == 0,
             qPrintable(QString("%1 of %2 pixels show the wrong sphere").arg(wrong).arg(compared)));
  }

  // A spherocylinder (Meland et al., Cluster integration method) crossing a sphere: every pixel whose
  // neighbourhood the CPU's exact ray casting (Picking) sees as one thing shows it: background, the capsule
  // or the sphere. Seen from the side, slanted, and nearly end-on (the caps in front).
  void spherocylinderMatchesRayCasting_data() {
    QTest::addColumn<double>("yaw");
    QTest::addColumn<double>("pitch");
    QTest::newRow("side") << 0.2 << 0.3;
    QTest::newRow("slanted") << 0.9 << 0.7;
    QTest::newRow("end-on") << 1.45 << 0.15;
  }
  void spherocylinderMatchesRayCasting() {
    QFETCH(double, yaw);
    QFETCH(double, pitch);
    const Camera camera = makeCamera(yaw, pitch, 0.8);
    Pebble capsule;
    capsule.radius = 0.04;
    capsule.axis = Vec3(0.3, 1.0, 0.2).normalized();
    capsule.halfLength = 0.12;
    const auto scene = [&](const Vec3& capsuleAt, const Vec3& sphereAt) {
      Snapshot s;
      s.layoutGeneration = 1;
      s.templates.push_back(bodyFrameTemplate({capsule}, "capsule"));
      s.templates.push_back(bodyFrameTemplate({{Vec3::Zero(), 0.05}}, "sphere"));
      addBody(s, 0, capsuleAt, Quat(Eigen::AngleAxisd(0.4, Vec3::UnitZ())));
      addBody(s, 1, sphereAt);
      return s;
    };
    const Vec3 a = camera.target(), b = camera.target() + Vec3(0.03, 0.05, 0.02), far(1e3, 1e3, 1e3);
    const Snapshot s = scene(a, b);
    const QImage both = draw(s, camera, plainOptions());
    if (qEnvironmentVariableIsSet("CLUMPLAB_RENDER_DEBUG")) both.save("/tmp/render-debug-capsule.png");
    const QImage onlyA = draw(scene(a, far), camera, plainOptions());
    const QImage onlyB = draw(scene(far, b), camera, plainOptions());
    int compared = 0, wrong = 0, capsulePixels = 0;
    for (int y = 1; y < kH - 1; ++y) {
      for (int x = 1; x < kW - 1; ++x) {
        const auto hit = render::pickBody(s, camera.rayThroughPixel(x + 0.5, y + 0.5));
        bool uniform = true;
        for (int dy = -1; dy <= 1 && uniform; ++dy)
          for (int dx = -1; dx <= 1 && uniform; ++dx) {
            const auto h = render::pickBody(s, camera.rayThroughPixel(x + dx + 0.5, y + dy + 0.5));
            uniform = h.has_value() == hit.has_value() && (!h || h->body == hit->body);
          }
        if (!uniform) continue;
        ++compared;
        const QRgb p = both.pixel(x, y);
        if (!hit) {
          wrong += channelDifference(p, background_.pixel(x, y)) > 3;
          continue;
        }
        capsulePixels += hit->body == 0;
        const int da = channelDifference(p, onlyA.pixel(x, y)), db = channelDifference(p, onlyB.pixel(x, y));
        wrong += (hit->body == 0 ? da : db) > 3;
      }
    }
    QVERIFY2(capsulePixels > 3000, qPrintable(QString("%1 capsule pixels").arg(capsulePixels)));
    QVERIFY2(wrong == 0, qPrintable(QString("%1 of %2 pixels wrong").arg(wrong).arg(compared)));
  }

  // PaLa wireframe (Mutze, Polyspherical grains, §8) of a two-pebble body: the lines from the centre of mass
  // through each pebble centre to its surface (the first radius continues the spoke) are lit, the other two
  // radii stay inside each pebble's projected disc, and everything else is background.
  void wireframeDrawsPalaLines() {
    const double r = 0.05;
    Snapshot s;
    s.layoutGeneration = 7;
    s.templates.push_back(
        bodyFrameTemplate({{Vec3(0.09, 0.0, 0.0), r}, {Vec3(-0.06, 0.03, 0.0), r}}, "pair"));
    const Quat q(Eigen::AngleAxisd(0.4, Vec3(0.3, 1.0, 0.2).normalized()));
    const Vec3 x(0.01, 0.02, -0.01);
    addBody(s, 0, x, q);
    const Camera camera = makeCamera(0.9, 0.5, 0.5, x);
    ViewOptions o = plainOptions();
    o.pebbles = false;
    o.wireframe = true;
    const std::vector<bool> mask = foreground(draw(s, camera, o), background_, 20);

    struct Spoke {
      Eigen::Vector2d from, to, center;
      double radiusPx;
    };
    std::vector<Spoke> spokes;
    for (const Pebble& p : s.templates[0]->pebbles) {
      const Vec3 c = x + q * p.center;
      const Vec3 tip = x + q * (p.center + r * p.center.normalized());
      spokes.push_back(
          {camera.project(x), camera.project(tip), camera.project(c), camera.pixelsPerMeterAt(c) * r});
    }
    const auto lit = [&](double px, double py) {  // any pixel within 1 px of the point
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int ix = static_cast<int>(std::floor(px)) + dx, iy = static_cast<int>(std::floor(py)) + dy;
          if (ix >= 0 && iy >= 0 && ix < kW && iy < kH && mask[static_cast<std::size_t>(iy * kW + ix)])
            return true;
        }
      return false;
    };
    for (const Spoke& sp : spokes) {
      const double length = (sp.to - sp.from).norm();
      QVERIFY2(length > 40.0, qPrintable(QString("spoke only %1 px long").arg(length)));
      for (double t = 0.04; t <= 0.96; t += 0.02) {
        const Eigen::Vector2d p = sp.from + t * (sp.to - sp.from);
        QVERIFY2(lit(p.x(), p.y()),
                 qPrintable(QString("spoke pixel (%1, %2) at t = %3 is dark").arg(p.x()).arg(p.y()).arg(t)));
      }
    }
    int stray = 0, radii = 0;
    for (int y = 0; y < kH; ++y) {
      for (int x2 = 0; x2 < kW; ++x2) {
        if (!mask[static_cast<std::size_t>(y * kW + x2)]) continue;
        const Eigen::Vector2d p(x2 + 0.5, y + 0.5);
        bool nearSpoke = false, inDisc = false;
        for (const Spoke& sp : spokes) {
          nearSpoke = nearSpoke || segmentDistance(p, sp.from, sp.to) <= 3.0;
          inDisc = inDisc || (p - sp.center).norm() <= sp.radiusPx + 3.0;
        }
        if (!nearSpoke && !inDisc) ++stray;
        if (!nearSpoke && inDisc) ++radii;
      }
    }
    QVERIFY2(stray == 0, qPrintable(QString("%1 lit pixels off the wireframe").arg(stray)));
    // The two other radii of each pebble: at least a radius' length of lit pixels off the spokes.
    const double minRadii = 0.5 * (spokes[0].radiusPx + spokes[1].radiusPx);
    QVERIFY2(radii >= minRadii,
             qPrintable(QString("%1 px of the perpendicular radii, expected %2+").arg(radii).arg(minRadii)));
  }

  // Poses alone upload nothing but move what is drawn; a new layout (a body added) is uploaded.
  void anaglyphStereo() {
    // A sphere nearer than the target: the left eye (red channel) sees it further right than the
    // right eye (green channel): crossed parallax, it stands out of the screen; a sphere at the
    // target is seen at the same place by both; each eye's image matches its stereo camera.
    const Vec3 target(0.0, 0.0, 0.0);
    const Camera camera = makeCamera(0.3, 0.2, 0.5, target);
    const Vec3 nearer = target - 0.2 * camera.forward();
    ViewOptions o = plainOptions();
    o.stereo = true;
    o.eyeSeparation = 0.05;
    const double half = 0.5 * o.eyeSeparation * camera.distance();
    const auto centroid = [&](const QImage& image, int channel, const QImage& background) {
      double sx = 0.0, sy = 0.0, n = 0.0;
      for (int y = 0; y < kH; ++y) {
        for (int x = 0; x < kW; ++x) {
          const QRgb a = image.pixel(x, y), b = background.pixel(x, y);
          const int va = channel == 0 ? qRed(a) : qGreen(a), vb = channel == 0 ? qRed(b) : qGreen(b);
          if (std::abs(va - vb) > 12) {
            sx += x + 0.5;
            sy += y + 0.5;
            n += 1.0;
          }
        }
      }
      return n > 0 ? Eigen::Vector2d(sx / n, sy / n) : Eigen::Vector2d(NAN, NAN);
    };
    const QImage empty = draw(Snapshot{}, camera, o);
    const QImage nearImage = draw(spheres({nearer}, 0.01), camera, o);
    const Eigen::Vector2d red = centroid(nearImage, 0, empty), green = centroid(nearImage, 1, empty);
    const Eigen::Vector2d leftExpected = camera.stereoEye(-half).project(nearer);
    const Eigen::Vector2d rightExpected = camera.stereoEye(half).project(nearer);
    qInfo("near sphere: red at x = %.1f (left eye %.1f), green at %.1f (right eye %.1f)", red.x(),
          leftExpected.x(), green.x(), rightExpected.x());
    QVERIFY(leftExpected.x() > rightExpected.x() + 10.0);
    QVERIFY(std::abs(red.x() - leftExpected.x()) < 2.0 && std::abs(green.x() - rightExpected.x()) < 2.0);
    QVERIFY(std::abs(red.y() - green.y()) < 1.0);
    const QImage atTarget = draw(spheres({target}, 0.01), camera, o);
    QVERIFY((centroid(atTarget, 0, empty) - centroid(atTarget, 1, empty)).norm() < 1.0);
    // Without stereo the channels agree everywhere the sphere is.
    o.stereo = false;
    const QImage plain = draw(spheres({nearer}, 0.01), camera, o);
    const QImage plainEmpty = draw(Snapshot{}, camera, o);
    QVERIFY((centroid(plain, 0, plainEmpty) - centroid(plain, 1, plainEmpty)).norm() < 1.0);
  }

  void layoutChangesReupload() {
    const Camera camera = makeCamera(0.5, 0.4, 2.0);
    Snapshot s;
    s.layoutGeneration = 100;
    s.templates.push_back(
        bodyFrameTemplate({{Vec3(-0.02, 0, 0), 0.03}, {Vec3(0.02, 0, 0), 0.03}}, "dumbbell"));
    for (int i = 0; i < 200; ++i)
      addBody(s, 0, Vec3(0.1 * (i % 10) - 0.45, 0.1 * (i / 10 % 10) - 0.45, 0.1 * (i / 100)));
    const QImage first = draw(s, camera, plainOptions());
    const std::size_t uploads = renderer_.stats().layoutUploads;
    QCOMPARE(renderer_.stats().pebbles, std::size_t{400});

    Snapshot moved = s;
    moved.bodies.position[0] += Vec3(0.0, 0.0, 0.3);
    const QImage second = draw(moved, camera, plainOptions());
    QCOMPARE(renderer_.stats().layoutUploads, uploads);
    QVERIFY(second != first);

    Snapshot added = s;
    added.layoutGeneration = 101;
    const Vec3 extra(0.0, 0.0, 0.5);
    addBody(added, 0, extra);
    const QImage third = draw(added, camera, plainOptions());
    QCOMPARE(renderer_.stats().layoutUploads, uploads + 1);
    QCOMPARE(renderer_.stats().pebbles, std::size_t{402});
    const Eigen::Vector2d p = camera.project(extra);
    const int px = static_cast<int>(p.x()), py = static_cast<int>(p.y());
    QVERIFY2(channelDifference(third.pixel(px, py), first.pixel(px, py)) > 20,
             "the added body does not show where it projects");
  }

  // A periodic box (Meland et al., Cluster integration method): its twelve edges dashed in amber, the faces
  // across its periodic axes tinted and the others not; nothing at all without periodic axes.
  void periodicBoxIsDashedAndItsWrappingFacesTinted() {
    Snapshot s;
    s.layoutGeneration = 7;
    s.periodic.lower = Vec3(-0.2, -0.15, -0.1);
    s.periodic.length = Vec3(0.4, 0.3, 0.2);
    const Camera camera = makeCamera(0.6, 0.35, 1.2);
    ViewOptions o;  // walls (and boundaries) on
    const auto amber = [](QRgb c) { return qRed(c) > qBlue(c) + 60 && qGreen(c) > qBlue(c) + 20; };
    const auto amberPixels = [&](const QImage& image) {
      int n = 0;
      for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) n += amber(image.pixel(x, y)) ? 1 : 0;
      return n;
    };
    QCOMPARE(amberPixels(draw(s, camera, o)), 0);  // no periodic axis: no box
    s.periodic.periodic = {true, false, false};
    const QImage xOnly = draw(s, camera, o);
    QVERIFY2(amberPixels(xOnly) > 300, qPrintable(QString("%1 amber pixels").arg(amberPixels(xOnly))));
    // Dashes: along the middle 80% of the edge from (lo, lo, hi) to (hi, lo, hi), amber and gaps alternate.
    const Vec3 a(-0.2, -0.15, 0.1), b(0.2, -0.15, 0.1);
    int runs = 0;
    bool inDash = false;
    const Eigen::Vector2d along = (camera.project(b) - camera.project(a)).normalized();
    const Eigen::Vector2d across(-along.y(), along.x());
    for (int k = 0; k <= 400; ++k) {
      const Eigen::Vector2d p = camera.project(a + (0.1 + 0.8 * k / 400.0) * (b - a));
      bool hit = false;  // across the line's width only
      for (int d = -1; d <= 1; ++d) {
        const Eigen::Vector2d q = p + d * across;
        const QRgb c = xOnly.pixel(static_cast<int>(q.x()), static_cast<int>(q.y()));
        hit = hit || (qRed(c) > 190 && qRed(c) > qBlue(c) + 110);  // a dash's core, not its fringe
      }
      runs += hit && !inDash ? 1 : 0;
      inDash = hit;
    }
    QVERIFY2(runs >= 12, qPrintable(QString("%1 dashes along the edge").arg(runs)));
    // Tinted pixels (warmer than the background, dashes aside) cover the projected faces across the
    // periodic axis and lie nowhere else; so x-only and y-only tint different pixels.
    const auto tintedOutside = [&](const QImage& image, int axis, int& tinted) {
      const Vec3 lo = s.periodic.lower, hi = lo + s.periodic.length;
      std::vector<std::array<Eigen::Vector2d, 4>> quads;
      const int i = (axis + 1) % 3, j = (axis + 2) % 3;
      for (const double at : {lo[axis], hi[axis]}) {
        std::array<Eigen::Vector2d, 4> q;
        for (int k = 0; k < 4; ++k) {
          Vec3 c;
          c[axis] = at;
          c[i] = (k == 1 || k == 2) ? hi[i] : lo[i];
          c[j] = k >= 2 ? hi[j] : lo[j];
          q[static_cast<std::size_t>(k)] = camera.project(c);
        }
        quads.push_back(q);
      }
      // Signed distance inside a convex quad (either winding), > 0 inside.
      const auto inside = [](const std::array<Eigen::Vector2d, 4>& q, const Eigen::Vector2d& p) {
        double area = 0.0, d = std::numeric_limits<double>::infinity();
        for (int k = 0; k < 4; ++k) {
          const Eigen::Vector2d u = q[static_cast<std::size_t>(k)],
                                v = q[static_cast<std::size_t>((k + 1) % 4)];
          area += u.x() * v.y() - v.x() * u.y();
        }
        for (int k = 0; k < 4; ++k) {
          const Eigen::Vector2d u = q[static_cast<std::size_t>(k)],
                                v = q[static_cast<std::size_t>((k + 1) % 4)];
          const Eigen::Vector2d e = v - u;
          const double side = (e.x() * (p.y() - u.y()) - e.y() * (p.x() - u.x())) / e.norm();
          d = std::min(d, area > 0.0 ? side : -side);
        }
        return d;
      };
      // The twelve projected edges: their dashes' fringes are warm too.
      std::vector<std::pair<Eigen::Vector2d, Eigen::Vector2d>> edges;
      for (int k = 0; k < 8; ++k) {
        for (int bit : {1, 2, 4}) {
          if (k & bit) continue;
          const auto corner = [&](int m) {
            return Vec3(m & 1 ? hi.x() : lo.x(), m & 2 ? hi.y() : lo.y(), m & 4 ? hi.z() : lo.z());
          };
          edges.emplace_back(camera.project(corner(k)), camera.project(corner(k | bit)));
        }
      }
      int outside = 0;
      tinted = 0;
      for (int y = 0; y < kH; ++y) {
        for (int x = 0; x < kW; ++x) {
          const QRgb c = image.pixel(x, y), bg = background_.pixel(x, y);
          const int warmth = (qRed(c) - qRed(bg)) - (qBlue(c) - qBlue(bg));
          if (warmth < 4) continue;
          const Eigen::Vector2d p(x + 0.5, y + 0.5);
          double nearEdge = 1e9;
          for (const auto& [from, to] : edges) nearEdge = std::min(nearEdge, segmentDistance(p, from, to));
          if (nearEdge < 3.0) continue;
          ++tinted;
          double best = -1e9;
          for (const auto& q : quads) best = std::max(best, inside(q, p));
          outside += best < -2.0 ? 1 : 0;
        }
      }
      return outside;
    };
    int tinted = 0;
    QCOMPARE(tintedOutside(xOnly, 0, tinted), 0);
    QVERIFY2(tinted > 2000, qPrintable(QString("%1 tinted pixels").arg(tinted)));
    s.periodic.periodic = {false, true, false};
    const QImage yOnly = draw(s, camera, o);
    QCOMPARE(tintedOutside(yOnly, 1, tinted), 0);
    QVERIFY(tinted > 2000);
    QVERIFY(tintedOutside(yOnly, 0, tinted) > 1000);  // the y faces are not where the x faces are
  }

  // Every option at once draws without GL errors and leaves the image opaque.
  void everyOptionRenders() {
    Snapshot s;
    s.layoutGeneration = 3;
    auto t = std::make_shared<ClumpTemplate>(
        *bodyFrameTemplate({{Vec3(0.02, 0, 0), 0.02}, {Vec3(-0.02, 0, 0), 0.02}}));
    auto mesh = std::make_shared<TriangleMesh>();
    mesh->vertices = {Vec3(-0.05, -0.03, -0.03), Vec3(0.05, -0.03, -0.03), Vec3(0, 0.04, -0.03),
                      Vec3(0, 0, 0.05)};
    mesh->triangles = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {2, 0, 3}};
    t->mesh = mesh;
    s.templates.push_back(t);
    addBody(s, 0, Vec3(0, 0, 0.05), Quat::Identity(), Vec3(0.1, 0, 0), Vec3(0, 0, 3));
    addBody(s, 0, Vec3(0.1, 0, 0.05), Quat(Eigen::AngleAxisd(1.0, Vec3::UnitZ())), Vec3(0, 0.2, 0),
            Vec3(1, 0, 0));
    s.walls = Wall::box(Vec3(-0.2, -0.2, 0), Vec3(0.2, 0.2, 0.3));
    s.walls.push_back(Wall::plane(Vec3(0.3, 0, 0), Vec3(-1, 0, 1)));
    s.walls.push_back(Wall::cavity(Vec3(0, 0, 0.1), 0.4));
    s.contactPoints = {Vec3(0.05, 0, 0.05)};
    ViewOptions o;
    o.wireframe = o.sourceMesh = o.bodyAxes = o.velocityArrows = o.angularVelocityArrows = true;
    o.angularMomentumArrows = o.trails = o.contactPoints = o.dragLine = true;
    o.coloring = render::Coloring::BySpeed;
    o.selectedBody = 1;
    o.dragFrom = Vec3(0.1, 0, 0.05);
    o.dragTo = Vec3(0.2, 0.1, 0.2);
    Camera camera = makeCamera(0.5, 0.5, 1.0);
    camera.fit(Vec3(0, 0, 0.1), 0.4);
    for (int frame = 0; frame < 3; ++frame) {
      s.bodies.position[0].x() += 0.01;
      const QImage image = draw(s, camera, o, 4);
      QVERIFY(!image.isNull());
    }
    QOpenGLFunctions* f = gl_.context().functions();
    const GLenum error = f->glGetError();
    QVERIFY2(error == GL_NO_ERROR, qPrintable(QString("GL error 0x%1").arg(error, 0, 16)));
  }
};

int main(int argc, char** argv) {
  QGuiApplication app(argc, argv);
  SceneRendererTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "tst_scene_renderer.moc"
