// Picking: the body under a pixel is the one exact ray-sphere tests hit first; a miss is nothing.
#include <QtTest>

#include "RenderTestSupport.hpp"
#include "render/Picking.hpp"

using namespace clumplab;
using namespace clumplab::test;
using render::Camera;

class PickingTest : public QObject {
  Q_OBJECT

  static Snapshot scene() {
    Snapshot s;
    s.templates.push_back(bodyFrameTemplate({{Vec3(-0.02, 0, 0), 0.015}, {Vec3(0.02, 0, 0), 0.015}}));
    s.templates.push_back(bodyFrameTemplate({{Vec3::Zero(), 0.03}}));
    addBody(s, 0, Vec3(0, 0, 0), Quat(Eigen::AngleAxisd(0.5, Vec3::UnitZ())));
    addBody(s, 1, Vec3(0.2, 0.1, 0));
    addBody(s, 0, Vec3(0, 0, -0.3));  // behind body 0 as seen from above
    return s;
  }

 private slots:
  void bodyUnderPixel() {
    const Snapshot s = scene();
    Camera c;
    c.setViewport(640, 480);
    c.setAngles(0.3, 1.2);
    c.fit(Vec3(0.1, 0.05, -0.1), 0.35);
    for (std::uint32_t b = 0; b < 3; ++b) {
      // The centre of the body's first pebble.
      const ClumpTemplate& t = *s.templates[s.bodies.templateIndex[b]];
      const Vec3 p = s.bodies.position[b] + s.bodies.orientation[b] * t.pebbles[0].center;
      const Eigen::Vector2d px = c.project(p);
      const auto hit = render::pickBody(s, c.rayThroughPixel(px.x(), px.y()));
      if (b == 2) {  // hidden under body 0? then body 0 is what the user clicks
        QVERIFY(hit.has_value());
        continue;
      }
      QVERIFY2(hit && hit->body == b,
               qPrintable(QString("body %1: got %2").arg(b).arg(hit ? int(hit->body) : -1)));
      const double expected = (p - c.eye()).norm() - t.pebbles[0].radius;
      QVERIFY2(
          std::abs(hit->distance - expected) < 1e-9 && (hit->point - p).norm() - t.pebbles[0].radius < 1e-9,
          qPrintable(QString("distance %1, expected %2").arg(hit->distance).arg(expected)));
    }
    QVERIFY(!render::pickBody(s, c.rayThroughPixel(2.0, 2.0)).has_value());
  }

  void nearestOfStackedBodies() {
    const Snapshot s = scene();
    const render::Ray down{Vec3(-0.02 * std::cos(0.5), -0.02 * std::sin(0.5), 1.0), -Vec3::UnitZ()};
    const auto hit = render::pickBody(s, down);
    QVERIFY(hit && hit->body == 0);
    QVERIFY(std::abs(hit->distance - (1.0 - 0.015)) < 1e-9);
    const render::Ray up{Vec3(-0.02, 0.0, -1.0), Vec3::UnitZ()};
    const auto fromBelow = render::pickBody(s, up);
    QVERIFY(fromBelow && fromBelow->body == 2);
  }

  void missesAndRaysPointingAway() {
    const Snapshot s = scene();
    QVERIFY(!render::pickBody(s, render::Ray{Vec3(0, 0, 1.0), Vec3::UnitZ()}).has_value());  // away
    QVERIFY(!render::pickBody(s, render::Ray{Vec3(0.5, 0.5, 1.0), -Vec3::UnitZ()}).has_value());
    QVERIFY(!render::pickBody(Snapshot{}, render::Ray{Vec3::Zero(), Vec3::UnitX()}).has_value());
    // From inside a pebble the ray leaves it ahead: that body.
    const auto inside = render::pickBody(s, render::Ray{Vec3(0.2, 0.1, 0), Vec3::UnitY()});
    QVERIFY(inside && inside->body == 1 && std::abs(inside->distance - 0.03) < 1e-12);
  }

  void spherocylinders() {
    // A capsule of radius 0.01 with its shaft (half length 0.03) along x, centred at the origin.
    Snapshot s;
    Pebble p;
    p.radius = 0.01;
    p.axis = Vec3::UnitX();
    p.halfLength = 0.03;
    s.templates.push_back(bodyFrameTemplate({p}));
    addBody(s, 0, Vec3::Zero(), Quat(Eigen::AngleAxisd(0.0, Vec3::UnitZ())));
    const auto distance = [&](const Vec3& from, const Vec3& direction) {
      const auto hit = render::pickBody(s, render::Ray{from, direction.normalized()});
      return hit ? hit->distance : -1.0;
    };
    // Onto the cylinder's side, onto a cap along the shaft, onto a cap's rim obliquely, and past
    // the end where a sphere about the centre would still be hit.
    QVERIFY(std::abs(distance(Vec3(0.02, 0, 1), -Vec3::UnitZ()) - 0.99) < 1e-12);
    QVERIFY(std::abs(distance(Vec3(1, 0.005, 0), -Vec3::UnitX()) - (1.0 - 0.03 - std::sqrt(1e-4 - 0.25e-4))) <
            1e-12);
    QVERIFY(std::abs(distance(Vec3(-1, 0, 0), Vec3::UnitX()) - (1.0 - 0.04)) < 1e-12);
    QVERIFY(distance(Vec3(0.039, 0.0, 1), -Vec3::UnitZ()) > 0.99);
    QVERIFY(distance(Vec3(0.041, 0.0, 1), -Vec3::UnitZ()) < 0.0);
    QVERIFY(distance(Vec3(0.0, 0.011, 1), -Vec3::UnitZ()) < 0.0);
    // From inside: where the ray leaves it.
    QVERIFY(std::abs(distance(Vec3(0.01, 0, 0), Vec3::UnitX()) - 0.03) < 1e-12);
    QVERIFY(std::abs(distance(Vec3(0.01, 0, 0), Vec3::UnitY()) - 0.01) < 1e-12);
    // Turned: the shaft along z.
    s.bodies.orientation[0] = Quat(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitY()));
    QVERIFY(std::abs(distance(Vec3(0, 0, 1), -Vec3::UnitZ()) - 0.96) < 1e-12);
  }
};

QTEST_GUILESS_MAIN(PickingTest)
#include "tst_picking.moc"
