// Scene files saved: scenes saved from a running world load back to the same bodies, templates,
// settings and clock (spherocylinders and mesh sources included), and saving is atomic and fails
// clearly. Reading scene files and their errors: tst_scene_file.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>

#include "SceneBuilders.hpp"
#include "SceneFileTexts.hpp"
#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/scene/Scene.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {
// Every setting a scene holds, walls of each kind, a given-inertia template turned by its principal
// rotation, and scaled copies from "generate". CONTACT is replaced per test row.
const std::string kRich = withTbar(R"({
  "format": "clumplab-scene/1", "description": "round trip \u00e9", "duration": 0.5,
  "time_step": 1e-5, "integrator": "midpoint", "euler_iterations": 3, "rotor_substeps": 2, "skin": 3e-4,
  "gravity": [0.1, 0, -9.81], "damping": { "linear": 0.25, "angular": 0.5 },
  "contact": CONTACT,
  "walls": [ { "type": "box", "min": [-0.02, -0.02, 0], "max": [0.02, 0.02, 0.06] },
             { "type": "plane", "point": [0, 0, 0.001], "normal": [0.1, 0.2, 1] },
             { "type": "sphere", "center": [0, 0, 0.03], "radius": 0.08 } ],
  "templates": {
    TBAR,
    "given": { "inertia": "given", "mass": 5e-5, "center_of_mass": [0.001, 0, 0],
               "inertia_tensor": [[2e-11, 1e-12, 0], [1e-12, 3e-11, 2e-12], [0, 2e-12, 4e-11]],
               "pebbles": [[0, 0, 0, 0.002], [0.002, 0, 0, 0.0015]] } },
  "bodies": [ { "template": "given", "position": [0.01, 0.01, 0.045], "orientation": [0.9, 0.1, -0.3, 0.2],
                "velocity": [0.1, -0.2, 0.05], "angular_velocity": [3, -1, 7] } ],
  "generate": [ { "template": "tbar", "count": 20, "region": { "min": [-0.012, -0.012, 0.015], "max": [0.012, 0.012, 0.05] },
                  "random_orientation": true, "scale": [0.8, 1.2], "seed": 5, "velocity": [0, 0, -0.2] } ]
})");

std::string richScene(const std::string& contact) {
  return replaced("CONTACT", contact, kRich);
}

void compareTemplates(const ClumpTemplate& a, const ClumpTemplate& b) {
  QCOMPARE(a.pebbles.size(), b.pebbles.size());
  for (std::size_t i = 0; i < a.pebbles.size(); ++i) {
    QCOMPARE(a.pebbles[i].center, b.pebbles[i].center);
    QCOMPARE(a.pebbles[i].radius, b.pebbles[i].radius);
    QCOMPARE(a.pebbles[i].halfLength, b.pebbles[i].halfLength);
    if (!a.pebbles[i].isSphere()) QCOMPARE(a.pebbles[i].axis, b.pebbles[i].axis);
  }
  QCOMPARE(a.mass, b.mass);
  QCOMPARE(a.principalMoments, b.principalMoments);
}

// Same bodies (pose and velocities to the bit), templates, settings, walls and clock.
void compareWorlds(const World& a, const World& b) {
  const BodyState &x = a.bodies(), &y = b.bodies();
  QCOMPARE(y.size(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    QCOMPARE(y.position[i], x.position[i]);
    QCOMPARE(y.orientation[i].coeffs(), x.orientation[i].coeffs());
    QCOMPARE(y.velocity[i], x.velocity[i]);
    QCOMPARE(y.angularVelocity[i], x.angularVelocity[i]);
    compareTemplates(*a.model().templates[x.templateIndex[i]], *b.model().templates[y.templateIndex[i]]);
    QCOMPARE(y.mass[i], x.mass[i]);
    QCOMPARE(y.moments[i], x.moments[i]);
  }
  QCOMPARE(b.time(), a.time());
  const WorldSettings &s = a.model().settings, &t = b.model().settings;
  QCOMPARE(t.timeStep, s.timeStep);
  QVERIFY(t.integrator == s.integrator);
  QCOMPARE(t.eulerIterations, s.eulerIterations);
  QCOMPARE(t.rotorSubsteps, s.rotorSubsteps);
  QCOMPARE(t.gyroscopic, s.gyroscopic);
  QCOMPARE(t.skin, s.skin);
  QCOMPARE(t.gravity, s.gravity);
  QCOMPARE(t.linearDamping, s.linearDamping);
  QCOMPARE(t.angularDamping, s.angularDamping);
  const ContactModel &c = a.model().contact, &d = b.model().contact;
  QVERIFY(c.kind == d.kind);
  if (c.kind == ContactModel::Kind::Linear) {
    QCOMPARE(d.linear.stiffness, c.linear.stiffness);
    QCOMPARE(d.linear.dampingFromRestitution, c.linear.dampingFromRestitution);
    QCOMPARE(c.linear.dampingFromRestitution ? d.linear.restitution : d.linear.damping,
             c.linear.dampingFromRestitution ? c.linear.restitution : c.linear.damping);
    QCOMPARE(d.linear.friction, c.linear.friction);
    QCOMPARE(d.linear.tangentialStiffnessRatio, c.linear.tangentialStiffnessRatio);
    QCOMPARE(d.linear.tangentialDamping, c.linear.tangentialDamping);
    QCOMPARE(d.linear.limitDamping, c.linear.limitDamping);
  } else if (c.kind == ContactModel::Kind::HertzMindlin) {
    QCOMPARE(d.hertzMindlin.youngsModulus, c.hertzMindlin.youngsModulus);
    QCOMPARE(d.hertzMindlin.poisson, c.hertzMindlin.poisson);
    QCOMPARE(d.hertzMindlin.restitution, c.hertzMindlin.restitution);
    QCOMPARE(d.hertzMindlin.friction, c.hertzMindlin.friction);
  } else {
    QCOMPARE(d.hertz.young, c.hertz.young);
    QCOMPARE(d.hertz.poisson, c.hertz.poisson);
    QCOMPARE(d.hertz.restitutionSquared, c.hertz.restitutionSquared);
    QCOMPARE(d.hertz.friction, c.hertz.friction);
    QCOMPARE(d.hertz.regularizingVelocity, c.hertz.regularizingVelocity);
  }
  QCOMPARE(b.model().walls.size(), a.model().walls.size());
  for (std::size_t w = 0; w < a.model().walls.size(); ++w) {
    QVERIFY(a.model().walls[w].kind == b.model().walls[w].kind);
    QCOMPARE(b.model().walls[w].point, a.model().walls[w].point);
    QCOMPARE(b.model().walls[w].normal, a.model().walls[w].normal);
    QCOMPARE(b.model().walls[w].radius, a.model().walls[w].radius);
  }
}

// Stands in for the shapes library: a "mesh" is three pebbles and a tetrahedron in the mesh's
// frame (scaled by "scale"), a built-in shape two pebbles; records the mesh files asked for.
struct FakeMeshes {
  std::vector<std::string> requested;
  double shift = 0.0;  // moves the pebbles (a mesh file that changed)

  MeshTemplateBuilder builder() {
    return [this](const MeshTemplateRequest& r) {
      requested.push_back(r.meshFile);
      std::vector<Pebble> pebbles = {
          {Vec3(0, 0, 0), 1.0}, {Vec3(2 + shift, 0, 0), 0.8}, {Vec3(0, 1.5, 0.5), 0.6}};
      if (!r.shape.empty()) {
        const double unit = r.shapeSize > 0.0 ? r.shapeSize / 4.0 : 1e-3;
        pebbles = {{Vec3(0, 0, 0), unit}, {Vec3(0, 0, 1.7 * unit), 0.9 * unit}};
      }
      auto mesh = std::make_shared<TriangleMesh>();
      mesh->vertices = {Vec3(-1, -1, -1), Vec3(3, 0, 0), Vec3(0, 3, 0), Vec3(0, 0, 3)};
      mesh->triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
      for (Pebble& p : pebbles) {
        p.center *= r.scale;
        p.radius *= r.scale;
      }
      for (Vec3& v : mesh->vertices) v *= r.scale;
      const MassProperties m = massFromPebbles(pebbles, std::vector<double>(pebbles.size(), r.density));
      ClumpTemplate t = makeTemplate(r.name, pebbles, m, r.inertia, r.density);
      t.sourceMesh =
          r.shape.empty() ? std::filesystem::path(r.meshFile).filename().string() : "built-in:" + r.shape;
      const Mat3 rot = t.rotationFromInput.toRotationMatrix();
      for (Vec3& v : mesh->vertices) v = rot * (v - t.centerOfMassInInput);
      t.mesh = std::move(mesh);
      return t;
    };
  }
};

const char* kMeshes = R"({
  "format": "clumplab-scene/1", "time_step": 1e-5,
  "contact": { "model": "linear", "stiffness": 1e3, "restitution": 0.5 },
  "templates": { "gear": { "mesh": "meshes/gear.stl", "scale": 0.001, "density": 2500, "fill": { "spacing": 0.001 } },
                 "nut": { "shape": "wingnut", "size": 0.004, "density": 2500, "inertia": "pebbles" } },
  "bodies": [ { "template": "nut", "position": [0, 0, 0.05] } ],
  "generate": [ { "template": "gear", "count": 6, "region": { "min": [-0.05, -0.05, 0], "max": [0.05, 0.05, 0.04] },
                  "scale": [0.8, 1.2], "seed": 2 } ]
})";

std::string writeFile(const QString& path, const std::string& text) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  f.write(text.data(), static_cast<qint64>(text.size()));
  return path.toStdString();
}

std::string readFile(const std::string& path) {
  QFile f(QString::fromStdString(path));
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll().toStdString();
}
}  // namespace

class SceneSaveTest : public QObject {
  Q_OBJECT
 private slots:
  void savedWorldLoadsBack_data() {
    QTest::addColumn<QString>("contact");
    QTest::newRow("linear, restitution")
        << R"({ "model": "linear", "stiffness": 2e3, "restitution": 0.4, "friction": 0.6,
        "tangential_stiffness_ratio": 0.3, "tangential_damping": 0.002, "limit_damping": true })";
    QTest::newRow("linear, dashpot")
        << R"({ "model": "linear", "stiffness": 1e3, "damping": 0.01, "friction": 0.5 })";
    QTest::newRow("hertz") << R"({ "model": "hertz", "young": 1e6, "poisson": 0.3, "restitution_squared": 0.8,
        "friction": 0.3, "regularizing_velocity": 2e-3 })";
    QTest::newRow("hertz-mindlin")
        << R"({ "model": "hertz-mindlin", "youngs_modulus": 2e6, "poisson": 0.25, "restitution": 0.6,
        "friction": 0.4 })";
  }
  void savedWorldLoadsBack() {
    // A world run and edited (gravity, damping, integrator, a removed body) is saved and loaded: the
    // bodies, templates (scaled copies included), settings, walls and clock come back.
    QFETCH(QString, contact);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string original = writeFile(dir.filePath("a/scene.json"), richScene(contact.toStdString()));
    const Scene scene = loadScene(original);
    QVERIFY(scene.model.templates.size() > 5);  // scaled copies
    auto world = buildWorld(scene);
    for (int n = 0; n < 500; ++n) QVERIFY2(world->step(), world->state().divergence.message.c_str());
    world->editModel([&](EditableModel& m) { m.gravity = Vec3(0, 0.5, -5); });
    world->editModel([&](EditableModel& m) {
      m.linearDamping = 0.125;
      m.angularDamping = 0.375;
    });
    world->editModel([&](EditableModel& m) {
      m.integrator = IntegratorKind::Splitting;
      m.eulerIterations = 5;
      m.rotorSubsteps = 3;
    });
    world->removeBody(2);
    for (int n = 0; n < 100; ++n) QVERIFY(world->step());

    const std::string saved = dir.filePath("b/saved.json").toStdString();
    QDir().mkpath(dir.filePath("b"));
    saveScene(sceneFromWorld(*world, scene), saved);
    const Scene back = loadScene(saved);
    QCOMPARE(back.description, scene.description);
    QCOMPARE(back.duration, scene.duration);
    QCOMPARE(back.model.walls.size(), scene.model.walls.size());
    const std::string text = readFile(saved);
    QVERIFY2(text.find("\"type\": \"box\"") != std::string::npos, "the box is written as a box");
    QVERIFY(text.find("\"generate\"") == std::string::npos);
    QVERIFY(text.find("\"tbar#2\"") != std::string::npos);
    auto reloaded = buildWorld(back);
    compareWorlds(*world, *reloaded);
    // Saving the reloaded scene again writes the same text.
    QCOMPARE(sceneToJson(sceneFromWorld(*reloaded, back), dir.filePath("b").toStdString()), text);
  }

  void spherocylindersSurviveSaving() {
    // Spherocylinders (explicit bodies and scaled generated copies) run, are saved in principal
    // form and load back to the bit; the reloaded world goes on with the same bits.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string text = R"({
      "format": "clumplab-scene/1", "time_step": 1e-5, "gravity": [0, 0, -9.81],
      "contact": { "model": "linear", "stiffness": 1e3, "restitution": 0.5, "friction": 0.4 },
      "walls": [ { "type": "box", "min": [-0.01, -0.01, 0], "max": [0.01, 0.01, 0.04] } ],
      "templates": { "rod": { "shape": "spherocylinder", "radius": 0.001, "length": 0.004, "density": 2700 },
                     "ball": { "density": 2500, "pebbles": [[0, 0, 0, 0.0015]] } },
      "bodies": [ { "template": "rod", "position": [0, 0, 0.003], "orientation": [0.9, 0.1, -0.3, 0.2] },
                  { "template": "ball", "position": [0.004, 0, 0.002] } ],
      "generate": [ { "template": "rod", "count": 12, "region": { "min": [-0.007, -0.007, 0.01], "max": [0.007, 0.007, 0.035] },
                      "random_orientation": true, "scale": [0.8, 1.2], "seed": 3 } ] })";
    const std::string original = writeFile(dir.filePath("scene.json"), text);
    const Scene scene = loadScene(original);
    QCOMPARE(scene.model.templates[1]->inertiaMethod, std::string("spherocylinder"));
    auto world = buildWorld(scene);
    for (int n = 0; n < 15000; ++n) QVERIFY2(world->step(), world->state().divergence.message.c_str());
    QVERIFY(world->contactCount() > 0);
    const std::string saved = dir.filePath("saved.json").toStdString();
    saveScene(sceneFromWorld(*world, scene), saved);
    const std::string savedText = readFile(saved);
    auto reloaded = buildWorld(loadScene(saved));
    compareWorlds(*world, *reloaded);
    QCOMPARE(sceneToJson(sceneFromWorld(*reloaded, loadScene(saved)), dir.path().toStdString()), savedText);
    // The identity orientation of the file puts the shaft along z; saved bodies keep their poses.
    const Scene upright =
        parseScene(replaced("\"orientation\": [0.9, 0.1, -0.3, 0.2]", "\"orientation\": [1, 0, 0, 0]", text),
                   "upright.json");
    const ClumpTemplate& rod = *upright.model.templates[upright.bodies[0].templateIndex];
    QVERIFY((upright.bodies[0].orientation * rod.pebbles.front().axis - Vec3::UnitZ()).norm() < 1e-15);
  }

  void meshSourcesSurviveSaving() {
    // Templates made from a mesh file or a built-in shape keep their source across saves: the file
    // path is rewritten against the new folder, scaled copies keep their factor, and a loader with
    // a mesh builder gets the meshes back for drawing; without one the scene still loads.
    QTemporaryDir dir;
    const std::string original = writeFile(dir.filePath("a/scene.json"), kMeshes);
    const std::string meshPath =
        std::filesystem::path(dir.filePath("a/meshes/gear.stl").toStdString()).lexically_normal().string();
    FakeMeshes meshes;
    SceneLoadOptions options;
    options.meshTemplates = meshes.builder();
    const Scene scene = loadScene(original, options);
    QVERIFY(scene.model.templates.size() > 3);
    auto world = buildWorld(scene);
    for (int n = 0; n < 50; ++n) QVERIFY(world->step());

    QDir().mkpath(dir.filePath("b/c"));
    const std::string saved = dir.filePath("b/c/saved.json").toStdString();
    saveScene(sceneFromWorld(*world, scene), saved);
    QVERIFY(readFile(saved).find("\"mesh\": \"../../a/meshes/gear.stl\"") != std::string::npos);

    const Scene plain = loadScene(saved);  // no mesh builder: physics only
    compareWorlds(*world, *buildWorld(plain));
    for (const TemplatePtr& t : plain.model.templates) {
      QCOMPARE(t->sourceMesh, std::string(t->name == "nut" ? "built-in:wingnut" : "gear.stl"));
      QVERIFY(t->mesh == nullptr);
    }

    meshes.requested.clear();
    const Scene drawn = loadScene(saved, options);
    QVERIFY(!meshes.requested.empty());
    for (const std::string& p : meshes.requested) {
      if (!p.empty()) QCOMPARE(std::filesystem::path(p).lexically_normal().string(), meshPath);
    }
    auto reloaded = buildWorld(drawn);
    compareWorlds(*world, *reloaded);
    const auto templateOf = [](const World& w, std::size_t body) -> const ClumpTemplate& {
      return *w.model().templates[w.bodies().templateIndex[body]];
    };
    for (std::size_t body = 0; body < world->bodies().size(); ++body) {
      const ClumpTemplate &a = templateOf(*world, body), &b = templateOf(*reloaded, body);
      QVERIFY(b.mesh != nullptr);
      QCOMPARE(b.sourceMesh, a.sourceMesh);
      QCOMPARE(b.mesh->vertices.size(), a.mesh->vertices.size());
      for (std::size_t v = 0; v < a.mesh->vertices.size(); ++v) {
        QVERIFY((b.mesh->vertices[v] - a.mesh->vertices[v]).norm() <= 1e-15 * a.mesh->vertices[v].norm() * 4);
      }
    }

    // Saved again from the reloaded world, in yet another folder: the sources still lead home.
    QDir().mkpath(dir.filePath("d"));
    const std::string again = dir.filePath("d/again.json").toStdString();
    saveScene(sceneFromWorld(*reloaded, drawn), again);
    QVERIFY(readFile(again).find("\"mesh\": \"../a/meshes/gear.stl\"") != std::string::npos);
    const Scene third = loadScene(again, options);
    QCOMPARE(third.model.templates.size(), drawn.model.templates.size());
    for (std::size_t i = 0; i < third.model.templates.size(); ++i) {
      QCOMPARE(third.model.templates[i]->name, drawn.model.templates[i]->name);
      QCOMPARE(third.model.templates[i]->mesh->vertices.back(),
               drawn.model.templates[i]->mesh->vertices.back());
    }

    // A mesh that no longer builds the saved clump is an error that says what to do.
    meshes.shift = 0.1;
    try {
      loadScene(saved, options);
      QFAIL("a changed mesh was accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("templates.gear.source: builds a different clump"), e.what());
    }
  }

  void savingIsAtomicAndFailsClearly() {
    QTemporaryDir dir;
    const Scene scene = parseScene(kGood, "good.json");
    const std::string path = dir.filePath("scene.json").toStdString();
    writeFile(dir.filePath("scene.json"), "old contents");
    saveScene(scene, path);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"scene.json"});  // no temporary left
    QVERIFY(readFile(path).rfind("{\n  \"format\": \"clumplab-scene/1\"", 0) == 0);
    const std::string missing = dir.filePath("no/such/folder/scene.json").toStdString();
    try {
      saveScene(scene, missing);
      QFAIL("saving into a missing folder succeeded");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(missing) + ": "), e.what());
    }
    try {
      saveScene(scene, dir.path().toStdString());
      QFAIL("saving over a folder succeeded");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("is a folder"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(SceneSaveTest)
#include "tst_scene_save.moc"
