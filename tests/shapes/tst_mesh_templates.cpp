// Scene templates built through the shapes library: MClump's four modes (MercuryDPM rigid clumps, §3) as
// scenes write them, built-in shapes, and their errors.
#include <QTemporaryDir>
#include <QtTest>

#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/io/TemplateFile.hpp"
#include "core/scene/Scene.hpp"
#include "shapes/ClumpQuality.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/MeshTemplateBuilder.hpp"
#include "shapes/Primitives.hpp"
#include "shapes/SceneLoading.hpp"
#include "shapes/StlWriter.hpp"

using namespace clumplab;
using namespace clumplab::shapes;

namespace {
QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
  QFile f(dir.filePath(name));
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write");
  f.write(text);
  return f.fileName();
}

Scene load(const QString& path) {
  return loadScene(path.toStdString(), sceneLoadOptions());
}

QByteArray sceneWith(const QByteArray& templateJson) {
  return R"({"format": "clumplab-scene/1", "time_step": 1e-5, "gravity": [0, 0, 0],
    "contact": {"model": "linear", "stiffness": 1e3, "restitution": 0.5},
    "templates": {"t": )" +
         templateJson + R"(},
    "bodies": [{"template": "t", "position": [0, 0, 0]}]})";
}
}  // namespace

class MeshTemplatesTest : public QObject {
  Q_OBJECT
 private slots:
  void theFourMClumpModes() {
    QTemporaryDir dir;
    // A 10 x 20 x 30 mm box, in mm.
    writeStl(boxMesh(Vec3::Zero(), Vec3(10, 20, 30)), dir.filePath("box.stl").toStdString(), "box",
             StlFormat::Binary);
    const double rho = 2000.0, mass = rho * 6e-6;
    // Mode 1: pebbles only, summed (MercuryDPM rigid clumps, eq. 1-5).
    const Scene one =
        load(write(dir, "1.json",
                   sceneWith(R"({"density": 2000, "pebbles": [[0, 0, 0, 0.001], [0.003, 0, 0, 0.001]]})")));
    QCOMPARE(one.model.templates[0]->inertiaMethod, std::string("pebbles"));
    // Mode 2: pebbles, voxels of their union.
    const Scene two = load(write(
        dir, "2.json",
        sceneWith(
            R"({"density": 2000, "inertia": "voxel", "pebbles": [[0, 0, 0, 0.001], [0.001, 0, 0, 0.001]]})")));
    QVERIFY(two.model.templates[0]->mass < one.model.templates[0]->mass);  // the overlap counted once
    // Mode 3: mesh + regular-grid pebbles, inertia from the mesh.
    const Scene three = load(write(
        dir, "3.json",
        sceneWith(R"({"mesh": "box.stl", "scale": 0.001, "density": 2000, "fill": {"spacing": 0.002}})")));
    const ClumpTemplate& t3 = *three.model.templates[0];
    QCOMPARE(t3.inertiaMethod, std::string("mesh"));
    QCOMPARE(t3.pebbles.size(), std::size_t(5 * 10 * 15));
    CLUMPLAB_COMPARE_REL(t3.mass, mass, 1e-12);
    CLUMPLAB_COMPARE_REL(t3.principalMoments[0], mass * (1e-4 + 4e-4) / 12.0, 1e-10);
    QVERIFY(t3.metrics.has_value() && t3.mesh != nullptr);
    QCOMPARE(t3.sourceMesh, std::string("box.stl"));
    // Mode 4: mesh + external pebbles (`x y z r` text in the mesh's units), inertia from the mesh.
    write(dir, "rod.xyzr", "5 10 5 5\n5 10 15 5\n5 10 25 5\n");
    const Scene four = load(
        write(dir, "4.json",
              sceneWith(R"({"mesh": "box.stl", "scale": 0.001, "density": 2000, "pebbles": "rod.xyzr"})")));
    const ClumpTemplate& t4 = *four.model.templates[0];
    QCOMPARE(t4.pebbles.size(), std::size_t(3));
    CLUMPLAB_COMPARE_REL(t4.pebbles[0].radius, 0.005, 1e-12);
    CLUMPLAB_COMPARE_REL(t4.mass, mass, 1e-12);
    QVERIFY(t4.metrics->volumeError < 0.0);  // three spheres fill less than the box
    // The template file written from mode 3 reads back with its metrics.
    const ClumpTemplate back = parseTemplateFile(templateToJson(t3), "t.json");
    QVERIFY(back.metrics.has_value());
    CLUMPLAB_COMPARE_REL(back.metrics->largestGap, t3.metrics->largestGap, 1e-12);
  }

  void aTemplateFileKeepsTheSourceThatRemakesIt() {
    QTemporaryDir dir;
    writeStl(boxMesh(Vec3::Zero(), Vec3(10, 20, 30)), dir.filePath("box.stl").toStdString(), "box",
             StlFormat::Binary);
    MeshTemplateRequest r;
    r.name = "brick";
    r.meshFile = dir.filePath("box.stl").toStdString();
    r.scale = 0.001;
    r.density = 2000.0;
    r.inertia = "voxel";
    r.hasFill = true;
    r.fill = makeFillSettings(0.0, 200, 0.0, "fitted", 0.0, 5e-4);
    r.samples = 20000;
    r.halton = false;
    r.repair = true;
    ClumpTemplate t = buildMeshTemplate(r).clump;
    t.source = std::make_shared<const MeshTemplateRequest>(r);
    const std::string path = dir.filePath("brick.json").toStdString();
    saveTemplateFile(t, path);
    const ClumpTemplate back = loadTemplateFile(path);
    QVERIFY(back.source);
    const MeshTemplateRequest& s = *back.source;
    QCOMPARE(s.meshFile, r.meshFile);
    QCOMPARE(s.scale, r.scale);
    QCOMPARE(s.density, r.density);
    QCOMPARE(s.inertia, r.inertia);
    QVERIFY(s.hasFill && s.fill.fitted && !s.fill.shellOnly);
    QCOMPARE(s.fill.targetCount, std::int64_t{200});
    QCOMPARE(s.fill.minimumRadius, 5e-4);
    QCOMPARE(s.samples, std::int64_t{20000});
    QVERIFY(!s.halton && s.repair);
    // Remade from the recorded source: the same clump.
    const ClumpTemplate remade = buildMeshTemplate(s).clump;
    QCOMPARE(remade.pebbles.size(), t.pebbles.size());
    CLUMPLAB_COMPARE_REL(remade.mass, back.mass, 1e-12);
    // A relative mesh path resolves against the template file's folder; a bad source names the key.
    QFile::copy(QString::fromStdString(path), dir.filePath("copy.json"));
    QByteArray text = [&] {
      QFile f(dir.filePath("copy.json"));
      f.open(QIODevice::ReadOnly);
      return f.readAll();
    }();
    text.replace(QByteArray::fromStdString(r.meshFile), "box.stl");
    const ClumpTemplate relative = loadTemplateFile(write(dir, "relative.json", text).toStdString());
    QCOMPARE(QFileInfo(QString::fromStdString(relative.source->meshFile)).canonicalFilePath(),
             QFileInfo(dir.filePath("box.stl")).canonicalFilePath());
    text.replace("\"scale\"", "\"scael\"");
    try {
      loadTemplateFile(write(dir, "typo.json", text).toStdString());
      QFAIL("a misspelt key in the source must be an error");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("scael"), e.what());
    }
  }

  void mercuryClumpFolderAsATemplateFile() {
    QTemporaryDir dir;
    QDir(dir.path()).mkpath("m/Clump");
    QDir(dir.path()).mkpath("m/Inertia");
    write(dir, "m/Clump/Clump.txt", "-1.5e-03,0,0,1e-03\n1.5e-03,0,0,1e-03\n");
    write(dir, "m/Inertia/Mass.txt", "8.0e-09\n");
    write(dir, "m/Inertia/TOI.txt", "3.2e-15,0,0\n0,1.2e-14,0\n0,0,1.3e-14\n");
    write(dir, "m/Inertia/PD.txt", "1,0,0\n0,1,0\n0,0,1\n");
    // MClump's mass and tensor are per unit density: a density given in the scene multiplies them.
    const Scene s = load(write(dir, "s.json", sceneWith(R"({"file": "m", "density": 2500})")));
    const ClumpTemplate& t = *s.model.templates[0];
    CLUMPLAB_COMPARE_REL(t.mass, 2500 * 8e-9, 1e-12);
    CLUMPLAB_COMPARE_REL(t.principalMoments[2], 2500 * 1.3e-14, 1e-12);
    QCOMPARE(t.inertiaMethod, std::string("given"));
  }

  void builtInShapes() {
    QTemporaryDir dir;
    const Scene s =
        load(write(dir, "s.json", sceneWith(R"({"shape": "wingnut", "size": 0.02, "density": 1200})")));
    const ClumpTemplate& t = *s.model.templates[0];
    QVERIFY(t.pebbles.size() > 50);
    QCOMPARE(t.sourceMesh, std::string("built-in:wingnut"));
    QVERIFY(t.metrics->meshDzhanibekovMargin > 0.2 && t.metrics->meshDzhanibekovMargin < 0.8);
    // A fill of the built-in mesh instead of its own clump.
    const Scene f = load(
        write(dir, "f.json", sceneWith(R"({"shape": "tetrapod", "density": 1200, "fill": {"count": 500}})")));
    CLUMPLAB_COMPARE_REL(static_cast<double>(f.model.templates[0]->pebbles.size()), 500.0, 0.05);
  }

  void everyExampleSceneLoadsAndRuns() {
    const QStringList files = QDir(CLUMPLAB_SCENES_DIR).entryList({"*.json"});
    int withMeshes = 0;
    for (const QString& f : files) {
      const Scene scene = load(QString(CLUMPLAB_SCENES_DIR) + "/" + f);
      auto world = buildWorld(scene);
      for (int n = 0; n < 20; ++n) QVERIFY2(world->step(), qPrintable(f));
      for (const TemplatePtr& t : scene.model.templates) withMeshes += t->mesh != nullptr;
    }
    QVERIFY(withMeshes >= 2);
  }

  void dzhanibekovScenesFlipAtThePredictedInterval_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("wing nut from its STL") << QStringLiteral("wingnut-dzhanibekov.json");
    QTest::newRow("tennis racket (built-in shape)") << QStringLiteral("tennis-racket.json");
  }
  void dzhanibekovScenesFlipAtThePredictedInterval() {
    // The clump spins about its intermediate axis; sign changes of w2 come every
    // T/2 = 2 K(k) / lambda (Landau & Lifshitz §37), within 1%.
    QFETCH(QString, file);
    const Scene scene = load(QString(CLUMPLAB_SCENES_DIR) + "/" + file);
    auto world = buildWorld(scene);
    const ClumpTemplate& t = *scene.model.templates[0];
    const double margin =
        t.metrics ? t.metrics->meshDzhanibekovMargin : dzhanibekovMargin(t.principalMoments);
    QVERIFY(margin > 0.3 && margin < 0.9);
    const double expected =
        predictFlips(t.principalMoments, world->bodies().bodyAngularVelocity(0)).halfPeriod;
    FlipCounter flips;
    while (world->time() < 3.7 * expected) {
      flips.add(world->time(), world->bodies().bodyAngularVelocity(0).y());
      QVERIFY(world->step());
    }
    qInfo("%s: %zu flips, every %.4f s (predicted %.4f s)", qPrintable(file), flips.count(),
          flips.meanInterval(), expected);
    QVERIFY(flips.count() >= 3);
    for (std::size_t k = 1; k < flips.count(); ++k)
      CLUMPLAB_COMPARE_REL(flips.times()[k] - flips.times()[k - 1], expected, 0.01);
  }

  void errorsNameTheSceneTheFieldAndTheMesh_data() {
    QTest::addColumn<QByteArray>("templateJson");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing mesh file")
        << QByteArray(R"({"mesh": "nope.stl", "density": 1, "fill": {"spacing": 1}})")
        << "s.json: templates.t.mesh: ";
    QTest::newRow("no fill, no pebbles") << QByteArray(R"({"mesh": "nope.stl", "density": 1})")
                                         << "templates.t: a mesh template needs \"fill\"";
    QTest::newRow("fill and pebbles")
        << QByteArray(R"({"mesh": "m.stl", "density": 1, "fill": {"spacing": 1}, "pebbles": [[0, 0, 0, 1]]})")
        << "templates.t.pebbles: give either \"fill\" or \"pebbles\"";
    QTest::newRow("unknown shape") << QByteArray(R"({"shape": "gear", "density": 1})")
                                   << "templates.t.shape: unknown shape \"gear\"";
    QTest::newRow("size with a mesh")
        << QByteArray(R"({"mesh": "m.stl", "size": 1, "density": 1, "fill": {"spacing": 1}})")
        << "templates.t.size: \"size\" applies to built-in shapes";
    QTest::newRow("bad fill mode")
        << QByteArray(R"({"mesh": "m.stl", "density": 1, "fill": {"spacing": 1, "mode": "hex"}})")
        << "templates.t.fill: unknown fill mode \"hex\"";
    QTest::newRow("band without shell")
        << QByteArray(R"({"mesh": "m.stl", "density": 1, "fill": {"spacing": 1, "band": 1}})")
        << "templates.t.fill: band applies to mode shell only";
    QTest::newRow("bad inertia")
        << QByteArray(R"({"mesh": "m.stl", "density": 1, "inertia": "given", "fill": {"spacing": 1}})")
        << "templates.t.inertia: unknown inertia method \"given\" for a mesh template";
    QTest::newRow("no density") << QByteArray(R"({"mesh": "m.stl", "fill": {"spacing": 1}})")
                                << "templates.t.density: missing";
  }
  void errorsNameTheSceneTheFieldAndTheMesh() {
    QFETCH(QByteArray, templateJson);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    try {
      load(write(dir, "s.json", sceneWith(templateJson)));
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains(expected), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(MeshTemplatesTest)
#include "tst_mesh_templates.moc"
