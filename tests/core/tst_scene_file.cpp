// Scene files: malformed input is rejected before any work, with the file and JSON path named.
#include <QtTest>

#include "TestSupport.hpp"
#include "core/Errors.hpp"
#include "core/Scene.hpp"
#include "core/TemplateFile.hpp"

using namespace clumplab;

namespace {
const char* kGood = R"({
  "format": "clumplab-scene/1", "time_step": 1e-5, "integrator": "leapfrog", "gravity": [0, 0, -9.81],
  "contact": { "model": "linear", "stiffness": 1e3, "restitution": 0.5, "friction": 0.5 },
  "walls": [ { "type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1] } ],
  "templates": { "tbar": { "density": 2500, "inertia": "pebbles",
                 "pebbles": [[0, 0, 0, 0.001], [0, 0, 0.001, 0.001], [0.001, 0, 0.002, 0.001]] } },
  "bodies": [ { "template": "tbar", "position": [0, 0, 0.01], "orientation": [1, 0, 0, 0] } ]
})";

std::string replaced(const std::string& from, const std::string& to) {
  std::string s = kGood;
  const auto at = s.find(from);
  if (at == std::string::npos) qFatal("test bug: %s not in the scene", from.c_str());
  return s.replace(at, from.size(), to);
}
}  // namespace

class SceneFileTest : public QObject {
  Q_OBJECT
 private slots:
  void goodSceneLoads() {
    const Scene s = parseScene(kGood, "good.json");
    QCOMPARE(s.bodies.size(), std::size_t(1));
    QCOMPARE(s.walls.size(), std::size_t(1));
    QCOMPARE(s.templates[0]->pebbles.size(), std::size_t(3));
  }

  void badInput_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");  // must appear in the message
    const auto row = [](const char* name, const std::string& text, const char* expected) {
      QTest::newRow(name) << QString::fromStdString(text) << QString(expected);
    };
    row("syntax error", replaced("\"bodies\"", "\"bodies\" :"), "bad.json: line 7");
    row("unknown key", replaced("\"time_step\"", "\"time_stepp\": 1, \"time_step\""),
        "time_stepp: unknown key");
    row("unknown nested key", replaced("\"friction\": 0.5", "\"friction\": 0.5, \"frcition\": 1"),
        "contact.frcition: unknown key");
    row("missing field", replaced("\"density\": 2500, ", ""),
        "templates.tbar.density: missing required field");
    row("wrong type", replaced("\"time_step\": 1e-5", "\"time_step\": \"small\""),
        "time_step: expected a number, got string");
    row("negative radius", replaced("[0, 0, 0, 0.001]", "[0, 0, 0, -0.001]"),
        "templates.tbar.pebbles[0][3]: must be positive");
    row("zero radius", replaced("[0, 0, 0, 0.001]", "[0, 0, 0, 0]"),
        "templates.tbar.pebbles[0][3]: must be positive");
    row("negative density", replaced("\"density\": 2500", "\"density\": -2500"),
        "templates.tbar.density: must be positive");
    row("zero time step", replaced("\"time_step\": 1e-5", "\"time_step\": 0"), "time_step: must be positive");
    row("zero quaternion", replaced("\"orientation\": [1, 0, 0, 0]", "\"orientation\": [0, 0, 0, 0]"),
        "bodies[0].orientation: a zero quaternion");
    row("short quaternion", replaced("\"orientation\": [1, 0, 0, 0]", "\"orientation\": [1, 0, 0]"),
        "bodies[0].orientation: expected a quaternion");
    row("unknown template", replaced("\"template\": \"tbar\"", "\"template\": \"tbra\""),
        "bodies[0].template: unknown template \"tbra\"");
    row("unknown integrator", replaced("\"leapfrog\"", "\"verlet\""),
        "integrator: unknown integrator \"verlet\"");
    row("unknown wall", replaced("\"type\": \"plane\"", "\"type\": \"cone\""),
        "walls[0].type: unknown wall type");
    row("zero normal", replaced("\"normal\": [0, 0, 1]", "\"normal\": [0, 0, 0]"),
        "walls[0].normal: the normal must not be zero");
    row("wrong format", replaced("clumplab-scene/1", "clumplab-scene/9"),
        "format: expected \"clumplab-scene/1\"");
    row("both damping and e", replaced("\"restitution\": 0.5", "\"restitution\": 0.5, \"damping\": 0.1"),
        "contact: give exactly one");
    row("restitution > 1", replaced("\"restitution\": 0.5", "\"restitution\": 1.5"),
        "contact.restitution: restitution must lie in [0, 1]");
    row("vector too short", replaced("\"gravity\": [0, 0, -9.81]", "\"gravity\": [0, -9.81]"),
        "gravity: expected 3 numbers");
    row("inertia mesh without a mesh", replaced("\"inertia\": \"pebbles\"", "\"inertia\": \"mesh\""),
        "templates.tbar.inertia: inertia \"mesh\" needs a \"mesh\" file");
    row("mesh without the shapes library",
        replaced("\"inertia\": \"pebbles\"", "\"inertia\": \"mesh\", \"mesh\": \"gear.stl\""),
        "templates.tbar.mesh: mesh templates need the shapes library");
    row("fill without a mesh", replaced("\"inertia\": \"pebbles\"", "\"fill\": {\"spacing\": 1e-3}"),
        "templates.tbar.fill: applies to mesh templates only");
    row("overfull region",
        replaced("\"bodies\": [",
                 "\"generate\": [ { \"template\": \"tbar\", \"count\": 500, \"region\": { \"min\": [0, 0, "
                 "0.01], \"max\": [0.001, 0.001, 0.011] } } ], \"bodies\": ["),
        "generate[0]: placed only");
  }
  void badInput() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    try {
      parseScene(text.toStdString(), "bad.json");
      QFAIL("the bad scene was accepted");
    } catch (const InputError& e) {
      const QString message = e.what();
      QVERIFY2(message.startsWith("bad.json: "), qPrintable(message));
      QVERIFY2(message.contains(expected), qPrintable(message + "  (expected: " + expected + ")"));
    }
  }

  void orientationComposesWithThePrincipalRotation() {
    // A pebble of the template as written lands where the user's orientation puts it.
    const Scene s = parseScene(replaced("\"orientation\": [1, 0, 0, 0]",
                                        "\"orientation\": [0.7071067811865476, 0.7071067811865476, 0, 0]"),
                               "q.json");
    const ClumpTemplate& t = *s.templates[0];
    const BodyInit& b = s.bodies[0];
    const Quat user(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitX()));
    for (std::size_t i = 0; i < t.pebbles.size(); ++i) {
      const Vec3 world = b.position + b.orientation * t.pebbles[i].center;
      const Vec3 input = t.rotationFromInput.conjugate() * t.pebbles[i].center + t.centerOfMassInInput;
      const Vec3 expected = b.position + user * (input - t.centerOfMassInInput);
      QVERIFY((world - expected).norm() < 1e-12);
    }
  }

  void templateFileRoundTrip() {
    const Scene s = parseScene(kGood, "good.json");
    const ClumpTemplate back = parseTemplateFile(templateToJson(*s.templates[0]), "t.json");
    QCOMPARE(back.pebbles.size(), s.templates[0]->pebbles.size());
    CLUMPLAB_COMPARE_REL(back.mass, s.templates[0]->mass, 1e-15);
    QVERIFY((back.principalMoments - s.templates[0]->principalMoments).norm() <
            1e-15 * back.principalMoments.norm() * 10);
  }

  void givenInertiaIsChecked() {
    const std::string given = replaced("\"density\": 2500, \"inertia\": \"pebbles\"",
                                       "\"inertia\": \"given\", \"mass\": 1, \"center_of_mass\": [0, 0, "
                                       "0.001], \"inertia_tensor\": [[1, 0, 0], [0, 1, 0], [0, 0, 3]]");
    try {
      parseScene(given, "given.json");
      QFAIL("moments violating the triangle inequality were accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("templates.tbar.inertia_tensor: the principal moments violate"),
               e.what());
    }
  }
};

QTEST_GUILESS_MAIN(SceneFileTest)
#include "tst_scene_file.moc"
