// Scene files read: a good scene loads, malformed input is rejected before any work with the file
// and JSON path named, orientations and spins are taken in the principal frame, template files round
// trip, and given or principal inertia is checked. Saving and loading back: tst_scene_save.
#include <QtTest>

#include "SceneFileTexts.hpp"
#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/io/TemplateFile.hpp"
#include "core/scene/Scene.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {
// A template in principal form, as saved scenes write it.
const char* kPrincipal =
    R"({ "inertia": "principal", "mass": 0.001, "principal_moments": [1e-8, 2e-8, 2.5e-8],
                 "pebbles": [[0, 0, -0.001, 0.001], [0, 0, 0.001, 0.001]] })";
}  // namespace

class SceneFileTest : public QObject {
  Q_OBJECT
 private slots:
  void goodSceneLoads() {
    const Scene s = parseScene(kGood, "good.json");
    QCOMPARE(s.bodies.size(), std::size_t(1));
    QCOMPARE(s.model.walls.size(), std::size_t(1));
    QCOMPARE(s.model.templates[0]->pebbles.size(), std::size_t(3));
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
    row("zero time step", replaced("\"time_step\": 1e-5", "\"time_step\": 0"),
        "time_step: must lie in [1e-15, 100] s (got 0)");
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
        "contact.restitution: must lie in [0, 1] (got");
    const std::string linearCard =
        "\"model\": \"linear\", \"stiffness\": 1e3, \"restitution\": 0.5, \"friction\": 0.5";
    const auto card = [&](const std::string& keys) {
      return replaced(linearCard, "\"model\": \"hertz-mindlin\", " + keys);
    };
    row("unknown contact model", replaced("\"model\": \"linear\"", "\"model\": \"hertz_mindlin\""),
        "unknown contact model \"hertz_mindlin\" (use \"linear\", \"hertz\" (Mutze's law) or "
        "\"hertz-mindlin\")");
    row("hertz-mindlin without a Young's modulus", card("\"poisson\": 0.3, \"restitution\": 0.5"),
        "contact.youngs_modulus: missing required field");
    row("hertz-mindlin without Poisson's ratio", card("\"youngs_modulus\": 7e9, \"restitution\": 0.5"),
        "contact.poisson: missing required field");
    row("hertz-mindlin without restitution", card("\"youngs_modulus\": 7e9, \"poisson\": 0.3"),
        "contact.restitution: missing required field");
    row("hertz-mindlin, Poisson's ratio 0.5",
        card("\"youngs_modulus\": 7e9, \"poisson\": 0.5, \"restitution\": 0.5"),
        "contact.poisson: must lie in [0, 0.5) (got");
    row("hertz-mindlin, restitution > 1",
        card("\"youngs_modulus\": 7e9, \"poisson\": 0.3, \"restitution\": 1.2"),
        "contact.restitution: must lie in [0, 1] (got");
    row("hertz-mindlin with Mutze's key",
        card("\"young\": 7e9, \"youngs_modulus\": 7e9, \"poisson\": 0.3, \"restitution\": 0.5"),
        "contact.young: unknown key");
    row("vector too short", replaced("\"gravity\": [0, 0, -9.81]", "\"gravity\": [0, -9.81]"),
        "gravity: expected 3 numbers");
    row("inertia mesh without a mesh", replaced("\"inertia\": \"pebbles\"", "\"inertia\": \"mesh\""),
        "templates.tbar.inertia: inertia \"mesh\" needs a \"mesh\" file");
    row("mesh without the shapes library",
        replaced("\"inertia\": \"pebbles\"", "\"inertia\": \"mesh\", \"mesh\": \"gear.stl\""),
        "templates.tbar.mesh: mesh templates need the shapes library");
    row("fill without a mesh", replaced("\"inertia\": \"pebbles\"", "\"fill\": {\"spacing\": 1e-3}"),
        "templates.tbar.fill: applies to mesh templates only");
    row("negative damping", replaced("\"time_step\"", "\"damping\": {\"linear\": -1}, \"time_step\""),
        "damping.linear: must not be negative (got -1)");
    row("damping of wrong type",
        replaced("\"time_step\"", "\"damping\": {\"angular\": \"strong\"}, \"time_step\""),
        "damping.angular: expected a number, got string");
    row("damping not an object", replaced("\"time_step\"", "\"damping\": 0.5, \"time_step\""),
        "damping: expected an object, got number");
    row("unknown damping key", replaced("\"time_step\"", "\"damping\": {\"lineer\": 1}, \"time_step\""),
        "damping.lineer: unknown key");
    row("negative time", replaced("\"time_step\"", "\"time\": -1, \"time_step\""),
        "time: must not be negative");
    row("time of wrong type", replaced("\"time_step\"", "\"time\": [0], \"time_step\""),
        "time: expected a number, got array");
    const std::string principal = replaced(
        "{ \"density\": 2500, \"inertia\": \"pebbles\",\n                 \"pebbles\": [[0, 0, 0, 0.001], "
        "[0, 0, 0.001, 0.001], [0.001, 0, 0.002, 0.001]] }",
        kPrincipal);
    row("principal moments descending", replaced("[1e-8, 2e-8, 2.5e-8]", "[3e-8, 2e-8, 2.5e-8]", principal),
        "templates.tbar.principal_moments: principal moments must be ascending");
    row("principal moments beyond the triangle",
        replaced("[1e-8, 2e-8, 2.5e-8]", "[1e-8, 1e-8, 2.5e-8]", principal),
        "templates.tbar.principal_moments: the principal moments violate the triangle inequality");
    row("principal without mass", replaced("\"mass\": 0.001, ", "", principal),
        "templates.tbar.mass: missing required field");
    row("principal with pebble densities",
        replaced("[0, 0, -0.001, 0.001]", "[0, 0, -0.001, 0.001, 2500]", principal),
        "templates.tbar.pebbles: a principal template has no per-pebble densities");
    row("principal with a stray key", replaced("\"mass\": 0.001", "\"mass\": 0.001, \"fill\": {}", principal),
        "templates.tbar.fill: unknown key");
    row("source scale without a source",
        replaced("\"mass\": 0.001", "\"mass\": 0.001, \"source_scale\": 2", principal),
        "templates.tbar.source_scale: applies with a \"source\" only");
    row("source that is no mesh",
        replaced("\"mass\": 0.001", "\"mass\": 0.001, \"source\": {\"density\": 1}", principal),
        "templates.tbar.source: a source is a mesh or built-in shape template");
    row("source with a typo",
        replaced("\"mass\": 0.001", "\"mass\": 0.001, \"source\": {\"mesh\": \"a.stl\", \"scael\": 1}",
                 principal),
        "templates.tbar.source.scael: unknown key");
    const std::string capsule = replaced(
        "{ \"density\": 2500, \"inertia\": \"pebbles\",\n                 \"pebbles\": [[0, 0, 0, 0.001], "
        "[0, 0, 0.001, 0.001], [0.001, 0, 0.002, 0.001]] }",
        R"({ "shape": "spherocylinder", "radius": 0.001, "length": 0.004, "density": 2700 })");
    row("spherocylinder, negative radius", replaced("\"radius\": 0.001", "\"radius\": -0.001", capsule),
        "templates.tbar.radius: must be positive");
    row("spherocylinder, zero radius", replaced("\"radius\": 0.001", "\"radius\": 0", capsule),
        "templates.tbar.radius: must be positive");
    row("spherocylinder, negative length", replaced("\"length\": 0.004", "\"length\": -0.004", capsule),
        "templates.tbar.length: must not be negative");
    row("spherocylinder, length as text", replaced("\"length\": 0.004", "\"length\": \"4 mm\"", capsule),
        "templates.tbar.length: expected a number, got string");
    row("spherocylinder, NaN length", replaced("\"length\": 0.004", "\"length\": NaN", capsule),
        "bad.json: line");
    row("spherocylinder, misspelt key", replaced("\"length\"", "\"lenght\"", capsule),
        "templates.tbar.lenght: unknown key");
    row("spherocylinder, no density", replaced(", \"density\": 2700", "", capsule),
        "templates.tbar.density: missing required field");
    row("spherocylinder, with an inertia method",
        replaced("\"density\": 2700", "\"density\": 2700, \"inertia\": \"voxel\"", capsule),
        "templates.tbar.inertia: unknown key");
    row("capsule pebbles summed", replaced("[0, 0, 0, 0.001]", "[0, 0, 0, 0.001, 1, 0, 0, 0.002]"),
        "templates.tbar.pebbles[0]: spherocylinder pebbles [x, y, z, r, ux, uy, uz, h] have no pebble-sum "
        "inertia");
    row("principal capsule, axis not unit",
        replaced("[0, 0, -0.001, 0.001]", "[0, 0, -0.001, 0.001, 1, 1, 0, 0.002]", principal),
        "templates.tbar.pebbles[0]: the shaft axis [ux, uy, uz] must be a unit vector");
    row("principal capsule, negative half length",
        replaced("[0, 0, -0.001, 0.001]", "[0, 0, -0.001, 0.001, 1, 0, 0, -0.002]", principal),
        "templates.tbar.pebbles[0][7]: must not be negative");
    row("no bodies at all",
        replaced("\"bodies\": [ { \"template\": \"tbar\", \"position\": [0, 0, 0.01], \"orientation\": [1, "
                 "0, 0, 0] } ]",
                 "\"duration\": 1"),
        "bad.json: the scene has no bodies");
    row("overfull region",
        replaced("\"bodies\": [",
                 "\"generate\": [ { \"template\": \"tbar\", \"count\": 500, \"region\": { \"min\": [0, 0, "
                 "0.01], \"max\": [0.001, 0.001, 0.011] } } ], \"bodies\": ["),
        "generate[0]: placed only");
    // Lengths in mm where m are meant: the region 1000 times too small for 7 mm T-bars.
    row("region in millimetres",
        replaced("\"bodies\": [",
                 "\"generate\": [ { \"template\": \"tbar\", \"count\": 5, \"region\": { \"min\": [0, 0, "
                 "0.01], \"max\": [2e-5, 2e-5, 0.01002] } } ], \"bodies\": ["),
        "times the region (2e-05 m across): are the pebbles or the region in millimetres where metres are "
        "meant?");
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
    const ClumpTemplate& t = *s.model.templates[0];
    const BodyInit& b = s.bodies[0];
    const Quat user(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitX()));
    for (std::size_t i = 0; i < t.pebbles.size(); ++i) {
      const Vec3 world = b.position + b.orientation * t.pebbles[i].center;
      const Vec3 input = t.rotationFromInput.conjugate() * t.pebbles[i].center + t.centerOfMassInInput;
      const Vec3 expected = b.position + user * (input - t.centerOfMassInInput);
      QVERIFY((world - expected).norm() < 1e-12);
    }
  }

  void principalSpinIsAboutThePrincipalAxis() {
    // "principal_spin" spins a body about its principal axis k (moments ascending) with a
    // perturbation towards the next axis, whatever orientation it was given.
    const std::string spin =
        R"("orientation": [0.7071067811865476, 0.7071067811865476, 0, 0],
           "principal_spin": { "axis": 2, "rate": 10, "perturbation": 0.01 })";
    const Scene s = parseScene(replaced("\"orientation\": [1, 0, 0, 0]", spin), "spin.json");
    const BodyInit& b = s.bodies[0];
    const Vec3 omegaBody = b.orientation.conjugate() * b.angularVelocity;
    QVERIFY((omegaBody - Vec3(0.0, 10.0, 0.1)).norm() < 1e-12);
    const auto fails = [&](const std::string& body, const char* expected) {
      try {
        parseScene(replaced("\"orientation\": [1, 0, 0, 0]", body), "spin.json");
        QFAIL("accepted");
      } catch (const InputError& e) {
        QVERIFY2(QString(e.what()).contains(expected), e.what());
      }
    };
    fails(R"("principal_spin": { "axis": 4, "rate": 1 })",
          "bodies[0].principal_spin.axis: the principal axis is 1, 2 or 3");
    fails(R"("principal_spin": { "axis": 1, "rate": 1 }, "angular_velocity": [0, 0, 1])",
          "either angular_velocity or principal_spin");
    fails(R"("principal_spin": { "axis": 1 })", "principal_spin.rate: missing required field");
  }

  void templateFileRoundTrip() {
    const Scene s = parseScene(kGood, "good.json");
    const ClumpTemplate back = parseTemplateFile(templateToJson(*s.model.templates[0]), "t.json");
    QCOMPARE(back.pebbles.size(), s.model.templates[0]->pebbles.size());
    CLUMPLAB_COMPARE_REL(back.mass, s.model.templates[0]->mass, 1e-15);
    QVERIFY((back.principalMoments - s.model.templates[0]->principalMoments).norm() <
            1e-15 * back.principalMoments.norm() * 10);
  }

  void timeDampingAndPrincipalTemplatesLoad() {
    const std::string text =
        replaced("\"time_step\": 1e-5",
                 "\"time_step\": 1e-5, \"time\": 2.5, \"damping\": {\"linear\": 0.3, \"angular\": 0.7}",
                 replaced("{ \"density\": 2500, \"inertia\": \"pebbles\",\n                 \"pebbles\": "
                          "[[0, 0, 0, 0.001], [0, 0, 0.001, 0.001], [0.001, 0, 0.002, 0.001]] }",
                          kPrincipal));
    const Scene s = parseScene(text, "p.json");
    QCOMPARE(s.startTime, 2.5);
    QCOMPARE(s.model.settings.linearDamping, 0.3);
    QCOMPARE(s.model.settings.angularDamping, 0.7);
    const ClumpTemplate& t = *s.model.templates[0];
    QCOMPARE(t.principalMoments, Vec3(1e-8, 2e-8, 2.5e-8));
    QCOMPARE(t.pebbles[0].center, Vec3(0, 0, -0.001));
    QCOMPARE(t.boundingRadius, 0.002);
    QCOMPARE(t.rotationFromInput.coeffs(), Quat::Identity().coeffs());
    QCOMPARE(s.bodies[0].orientation.coeffs(), Quat::Identity().coeffs());  // the principal frame
    auto world = buildWorld(s);
    QCOMPARE(world->time(), 2.5);
    QCOMPARE(world->model().settings.angularDamping, 0.7);
    // Damping is optional inside "damping"; the scene's clock defaults to 0.
    const Scene plain =
        parseScene(replaced("\"time_step\": 1e-5", "\"time_step\": 1e-5, \"damping\": {}"), "d.json");
    QCOMPARE(plain.model.settings.linearDamping, 0.0);
    QCOMPARE(plain.startTime, 0.0);
  }

  // One set of Hertz defaults: a scene that gives only the model and E gets the contact model's
  // own (Poisson's ratio 0.3, as the docs say; the model once defaulted to 0.5 where files read 0.3).
  void hertzKeysLeftOutTakeTheModelsDefaults() {
    const Scene scene = parseScene(R"({"format": "clumplab-scene/1", "time_step": 1e-5,
      "contact": {"model": "hertz", "young": 2e7},
      "templates": {"ball": {"density": 1000, "pebbles": [[0, 0, 0, 0.001]]}}, "bodies": []})",
                                   "hertz.json");
    const HertzContactParameters defaults;
    HertzContactParameters expected = defaults;
    expected.young = 2e7;
    QVERIFY(scene.model.contact.kind == ContactModel::Kind::Hertz);
    QVERIFY(scene.model.contact.hertz == expected);
    QCOMPARE(defaults.poisson, 0.3);
  }

  void anExplicitEmptyBodyListIsAnEmptyScene() {
    const std::string text =
        replaced("{ \"template\": \"tbar\", \"position\": [0, 0, 0.01], \"orientation\": [1, 0, 0, 0] }", "");
    const Scene s = parseScene(text, "empty.json");
    QVERIFY(s.bodies.empty());
    auto world = buildWorld(s);
    QVERIFY(world->step());
  }

  // A world with no templates and no bodies (a Python script's, before add_body) loads, steps, and
  // saves to a file that loads again; anywhere bodies are asked for, templates must be defined.
  void noTemplatesOnlyInAWorldEmptyOnPurpose() {
    const std::string empty = R"({"format": "clumplab-scene/1", "time_step": 1e-4,
      "contact": {"model": "linear", "stiffness": 1e3, "restitution": 0.5}, "templates": {}, "bodies": []})";
    const Scene s = parseScene(empty, "empty.json");
    QVERIFY(s.model.templates.empty());
    auto world = buildWorld(s);
    QVERIFY(world->step());
    const Scene again = parseScene(sceneToJson(sceneFromWorld(*world, s), "."), "saved.json");
    QVERIFY(again.model.templates.empty() && again.bodies.empty());
    QCOMPARE(again.startTime, world->time());
    const std::string generating = replaced(R"("bodies": [])", R"("bodies": [], "generate": [{"template": "a",
      "count": 1, "region": {"min": [0, 0, 0], "max": [1, 1, 1]}}])",
                                            empty);
    const std::string noBodyList = replaced(R"(, "bodies": [])", "", empty);
    for (const std::string& text : {generating, noBodyList}) {
      try {
        parseScene(text, "bad.json");
        QFAIL("a scene without templates was accepted");
      } catch (const InputError& e) {
        QVERIFY2(QString(e.what()).contains("templates: define at least one template"), e.what());
      }
    }
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
