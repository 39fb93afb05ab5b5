// The load-time overlap check (SceneOverlap.hpp) against the plain definition: every pebble of every
// body against every pebble of every other body (through the nearest periodic image of the other
// body where axes are periodic). The check itself searches a cell grid, so that a scene of a million
// pebbles loads in seconds; it must find exactly the worst overlap the definition does.
#include <QtTest>
#include <random>

#include "TestSupport.hpp"
#include "core/clump/PlacedPebble.hpp"
#include "core/clump/Spherocylinder.hpp"
#include "core/scene/Scene.hpp"
#include "core/scene/SceneOverlap.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

// The worst overlap by the definition, ties to the lowest pair of bodies.
InitialOverlap bruteForce(const Scene& scene) {
  InitialOverlap worst;
  const PeriodicBox& box = scene.model.settings.periodic;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const BodyInit& a = scene.bodies[i];
    const ClumpTemplate& ta = *scene.model.templates[a.templateIndex];
    for (std::size_t j = i + 1; j < scene.bodies.size(); ++j) {
      const BodyInit& b = scene.bodies[j];
      const ClumpTemplate& tb = *scene.model.templates[b.templateIndex];
      const Vec3 shift = box.imageShift(b.position - a.position);
      for (const Pebble& p : ta.pebbles) {
        const PlacedPebble pa = placePebble(p, a.position, a.orientation.toRotationMatrix());
        for (const Pebble& q : tb.pebbles) {
          const PlacedPebble pb = placePebble(q, b.position, b.orientation.toRotationMatrix());
          const double overlap = pa.radius + pb.radius - std::sqrt(coreDistance2(pa, pb, shift));
          const double ratio = overlap > 0.0 ? overlap / std::min(pa.radius, pb.radius) : 0.0;
          if (ratio > worst.ratio) worst = {ratio, i, j, -1};
        }
      }
    }
  }
  return worst;
}

Quat randomOrientation(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  return Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
}

// `count` bodies of three kinds (T-bars, spheres of two sizes, spherocylinders) at random in
// [lower, upper], some of them overlapping.
Scene randomScene(std::size_t count, const Vec3& lower, const Vec3& upper, unsigned seed) {
  Scene scene;
  scene.model.templates = {
      templateFromPebbles(tbarPebbles(), 2500.0, "tbar"),
      templateFromPebbles({Pebble{Vec3::Zero(), 1.5e-3}}, 2500.0, "ball"),
      templateFromPebbles({Pebble{Vec3::Zero(), 0.4e-3}}, 2500.0, "grain"),
      std::make_shared<const ClumpTemplate>(makeSpherocylinderTemplate("rod", 0.8e-3, 4e-3, 2500.0))};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (std::size_t i = 0; i < count; ++i) {
    BodyInit b;
    b.templateIndex = static_cast<std::uint32_t>(i % scene.model.templates.size());
    b.position = lower + (upper - lower).cwiseProduct(Vec3(u(rng), u(rng), u(rng)));
    b.orientation = randomOrientation(rng);
    scene.bodies.push_back(b);
  }
  return scene;
}

void compareWithDefinition(const Scene& scene) {
  const InitialOverlap expected = bruteForce(scene);
  const InitialOverlap found = worstInitialOverlapOf(scene);
  QVERIFY2(found.ratio == expected.ratio, qPrintable(QString("worst ratio %1, by definition %2")
                                                         .arg(found.ratio, 0, 'g', 17)
                                                         .arg(expected.ratio, 0, 'g', 17)));
  QCOMPARE(found.wall, -1);
  QCOMPARE(found.body, expected.body);
  QCOMPARE(found.other, expected.other);
}

}  // namespace

class SceneOverlapTest : public QObject {
  Q_OBJECT
 private slots:
  void openScenesFindTheWorstPair() {
    // Sparse to crowded: from a few touching pairs to most bodies overlapping something.
    for (const double side : {0.2, 0.08, 0.04}) {
      for (unsigned seed = 1; seed <= 3; ++seed) {
        const Scene scene = randomScene(400, Vec3(-0.01, 0.0, 0.0), Vec3(side, side, 0.5 * side), seed);
        QVERIFY(worstInitialOverlap(scene) > 0.0);  // something overlaps: the comparison means something
        compareWithDefinition(scene);
      }
    }
  }

  void periodicScenesSeeThroughTheFaces() {
    // Periodic in x only, in x and y, in all three; bodies given outside the primary box too (the
    // check sees them where the box wraps them); a box hardly larger than a T-bar, where a search
    // wraps around the whole axis.
    struct Case {
      std::array<bool, 3> periodic;
      Vec3 length;
      Vec3 spread;  // bodies lie in [lower - spread / 4, lower + spread)
    };
    const Case cases[] = {{{true, false, false}, Vec3(0.05, 1, 1), Vec3(0.05, 0.05, 0.03)},
                          {{true, true, false}, Vec3(0.04, 0.03, 1), Vec3(0.06, 0.05, 0.03)},
                          {{true, true, true}, Vec3(0.03, 0.03, 0.03), Vec3(0.03, 0.03, 0.03)},
                          {{true, true, true}, Vec3(0.009, 0.012, 0.02), Vec3(0.009, 0.012, 0.02)}};
    unsigned seed = 10;
    for (const Case& c : cases) {
      Scene scene = randomScene(c.length.x() < 0.01 ? 12 : 300, -0.25 * c.spread, c.spread, ++seed);
      scene.model.settings.periodic.lower = Vec3::Zero();
      scene.model.settings.periodic.length = c.length;
      scene.model.settings.periodic.periodic = c.periodic;
      QVERIFY(worstInitialOverlap(scene) > 0.0);
      compareWithDefinition(scene);
    }
  }

  void shallowPairsAmongMany() {
    // A jittered lattice of equal spheres, none touching, and one sphere moved next to another at a
    // random direction, a thousandth of a radius into it: the search must reach every neighbour a
    // pebble can touch, not only the near ones (open and periodic).
    const double r = 1e-3;
    for (unsigned seed = 1; seed <= 24; ++seed) {
      std::mt19937_64 rng(seed);
      std::uniform_real_distribution<double> u(-1.0, 1.0);
      Scene scene;
      scene.model.templates = {templateFromPebbles({Pebble{Vec3::Zero(), r}}, 2500.0, "ball")};
      const int side = 9;
      for (int k = 0; k < side; ++k) {
        for (int j = 0; j < side; ++j) {
          for (int i = 0; i < side; ++i)
            scene.bodies.push_back({0, 2.3 * r * Vec3(i, j, k) + 0.1 * r * Vec3(u(rng), u(rng), u(rng))});
        }
      }
      if (seed % 2 == 0)
        scene.model.settings.periodic = {Vec3::Zero(), Vec3::Constant(side * 2.3 * r), {true, true, true}};
      QCOMPARE(worstInitialOverlap(scene), 0.0);
      const std::size_t a = std::uniform_int_distribution<std::size_t>(0, scene.bodies.size() - 1)(rng);
      const std::size_t b = (a + 1 + seed * 37) % scene.bodies.size();
      const Vec3 direction = Vec3(u(rng), u(rng), u(rng)).normalized();
      scene.bodies[b].position = scene.bodies[a].position + 1.999 * r * direction;
      compareWithDefinition(scene);
    }
  }

  void touchingWithoutOverlapIsZero() {
    // Spheres in a cubic lattice at exactly twice their radius: touching, none overlapping, in the
    // open and across periodic faces of exactly the lattice's period.
    Scene scene;
    const double r = 1e-3;
    scene.model.templates = {templateFromPebbles({Pebble{Vec3::Zero(), r}}, 2500.0, "ball")};
    for (int k = 0; k < 6; ++k) {
      for (int j = 0; j < 6; ++j) {
        for (int i = 0; i < 6; ++i) scene.bodies.push_back({0, 2.0 * r * Vec3(i, j, k)});
      }
    }
    QCOMPARE(worstInitialOverlap(scene), 0.0);
    scene.model.settings.periodic = {Vec3::Constant(-r), Vec3::Constant(12.0 * r), {true, true, true}};
    QCOMPARE(worstInitialOverlap(scene), 0.0);
    // One sphere moved a micrometre towards its neighbour in x: that pair, 0.1% of a radius.
    scene.bodies[7].position.x() -= 1e-6;
    const InitialOverlap o = worstInitialOverlapOf(scene);
    QCOMPARE(o.body, std::size_t(6));
    QCOMPARE(o.other, std::size_t(7));
    CLUMPLAB_COMPARE_REL(o.ratio, 1e-3, 1e-9);
  }
};

QTEST_APPLESS_MAIN(SceneOverlapTest)
#include "tst_scene_overlap.moc"
