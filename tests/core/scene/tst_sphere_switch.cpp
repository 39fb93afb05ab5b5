// PaLa's polyspheres / spheres switch (Mutze, Polyspherical grains, §1 (ii)): every clump becomes its
// bounding or its volume-equivalent sphere with the same mass, at the same place and speed.
#include <QtTest>
#include <numbers>

#include "SceneBuilders.hpp"
#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/scene/Scene.hpp"
#include "core/scene/SceneOverlap.hpp"
#include "core/scene/SphereSwitch.hpp"

using namespace clumplab;

namespace {
std::string scenePath(const char* name) {
  return std::string(CLUMPLAB_SCENES_DIR) + "/" + name;
}

std::string readFile(const std::string& path) {
  QFile f(QString::fromStdString(path));
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", path.c_str());
  return f.readAll().toStdString();
}
}  // namespace

class SphereSwitchTest : public QObject {
  Q_OBJECT
 private slots:
  void sphereTemplatesKeepTheMass() {
    const Scene clumps = loadScene(scenePath("bulk-tbars.json"));
    const ClumpTemplate& tbar = *clumps.model.templates[0];
    for (SphereKind kind : {SphereKind::Bounding, SphereKind::VolumeEquivalent}) {
      const ClumpTemplate ball = sphereTemplate(tbar, kind);
      QCOMPARE(ball.pebbles.size(), std::size_t(1));
      const double r = kind == SphereKind::Bounding ? tbar.boundingRadius
                                                    : std::cbrt(3.0 * tbar.volume / (4.0 * std::numbers::pi));
      CLUMPLAB_COMPARE_REL(ball.pebbles[0].radius, r, 1e-12);
      QCOMPARE(ball.pebbles[0].center, Vec3::Zero());
      CLUMPLAB_COMPARE_REL(ball.mass, tbar.mass, 1e-15);
      CLUMPLAB_COMPARE_REL(ball.boundingRadius, r, 1e-15);
      for (int k = 0; k < 3; ++k)
        CLUMPLAB_COMPARE_REL(ball.principalMoments[k], 0.4 * tbar.mass * r * r, 1e-12);
    }
    // The volume-equivalent sphere of a T-bar is much smaller than its bounding sphere.
    QVERIFY(std::cbrt(3.0 * tbar.volume / (4.0 * std::numbers::pi)) < 0.6 * tbar.boundingRadius);
  }

  void generatedScenesPlaceTheSpheres() {
    // Switched before placement: generated bodies as spheres, none overlapping; they fall and
    // settle as spheres do. Bulk T-bars with their random velocities as volume-equivalent spheres
    // (their bounding spheres would fill 60% of the region: more than random placement can reach,
    // which is refused with the generator's message); forty of them as bounding spheres.
    const struct {
      const char* scene;
      SphereKind kind;
      std::size_t bodies;
    } cases[] = {{"bulk-tbars.json", SphereKind::VolumeEquivalent, 100},
                 {"bulk-tbars.json", SphereKind::Bounding, 40}};
    for (const auto& c : cases) {
      SceneLoadOptions options;
      options.spheres = c.kind;
      std::string text = readFile(scenePath(c.scene));
      text.replace(text.find("\"count\": 100"), 12, "\"count\": " + std::to_string(c.bodies));
      const Scene spheres = parseScene(text, c.scene, options);
      QCOMPARE(spheres.bodies.size(), c.bodies);
      for (const TemplatePtr& t : spheres.model.templates) QCOMPARE(t->pebbles.size(), std::size_t(1));
      QCOMPARE(worstInitialOverlap(spheres), 0.0);
      auto world = buildWorld(spheres);
      while (world->time() < 0.3) QVERIFY2(world->step(), world->state().divergence.message.c_str());
      qInfo("%s as %s spheres: radius %.3g mm", c.scene, sphereKindName(c.kind).data(),
            1e3 * spheres.model.templates[0]->boundingRadius);
    }
    SceneLoadOptions bounding;
    bounding.spheres = SphereKind::Bounding;
    QVERIFY_THROWS_EXCEPTION(InputError, loadScene(scenePath("bulk-tbars.json"), bounding));
  }

  void overlapsAreReported() {
    // Two T-bars side by side 5 mm apart: their pebbles are clear, their bounding spheres (radius
    // 4.5 mm) overlap; their volume-equivalent spheres do not.
    const std::string text = test::withTbar(R"({
      "format": "clumplab-scene/1", "time_step": 1e-5, "gravity": [0, 0, 0],
      "contact": { "model": "linear", "stiffness": 1e3, "restitution": 0.5 },
      "templates": { TBAR },
      "bodies": [ { "template": "tbar", "position": [0, 0, 0] }, { "template": "tbar", "position": [0.0065, 0, 0] } ] })");
    const Scene clumps = parseScene(text, "two.json");
    const double r = clumps.model.templates[0]->boundingRadius;
    QVERIFY(2.0 * r > 0.0065);                   // their bounding spheres overlap,
    QCOMPARE(worstInitialOverlap(clumps), 0.0);  // their pebbles do not
    SceneLoadOptions options;
    options.spheres = SphereKind::Bounding;
    CLUMPLAB_COMPARE_REL(worstInitialOverlap(parseScene(text, "two.json", options)), (2.0 * r - 0.0065) / r,
                         1e-9);
    options.spheres = SphereKind::VolumeEquivalent;
    QCOMPARE(worstInitialOverlap(parseScene(text, "two.json", options)), 0.0);
  }

  void sceneKey() {
    const Scene s = loadScene(scenePath("stable-unstable-axes.json"));
    QCOMPARE(s.model.templates[0]->pebbles.size(), std::size_t(10));
    std::string text = R"({ "format": "clumplab-scene/1", "spheres": "volume", "time_step": 1e-4,
      "contact": { "model": "linear", "stiffness": 1e3, "restitution": 0.5 },
      "templates": { "pair": { "density": 1000, "pebbles": [[0, 0, 0, 0.01], [0.01, 0, 0, 0.01]] } },
      "bodies": [ { "template": "pair", "position": [0, 0, 0] } ] })";
    const Scene sphere = parseScene(text, "s.json");
    QCOMPARE(sphere.model.templates[0]->pebbles.size(), std::size_t(1));
    QVERIFY(sphere.description.find("volume-equivalent") != std::string::npos);
    text.replace(text.find("\"volume\""), 8, "\"cubes\"");
    try {
      parseScene(text, "s.json");
      QFAIL("accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("s.json: spheres: expected \"bounding\", \"volume\" or \"none\""),
               e.what());
    }
  }
};

QTEST_GUILESS_MAIN(SphereSwitchTest)
#include "tst_sphere_switch.moc"
