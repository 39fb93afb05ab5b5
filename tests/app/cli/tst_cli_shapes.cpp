// clumplab-cli's clump commands as users' scripts see them: inertia of templates, meshes, pebble
// files and Mercury folders, the built-in shapes, fill; bad meshes and pebble files end with exit 2
// and one clear line naming the file.
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <array>
#include <cmath>

#include "CliTestSupport.hpp"

using namespace clumplab::cli::test;

namespace {
// The 12 triangles of the box [0, a] x [0, b] x [0, c], outward (9 floats each).
QList<std::array<float, 9>> boxTriangles(float a, float b, float c) {
  const float v[8][3] = {{0, 0, 0}, {a, 0, 0}, {0, b, 0}, {a, b, 0},
                         {0, 0, c}, {a, 0, c}, {0, b, c}, {a, b, c}};
  const int faces[12][3] = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                            {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  QList<std::array<float, 9>> out;
  for (const auto& f : faces) {
    std::array<float, 9> t{};
    for (int k = 0; k < 3; ++k)
      for (int d = 0; d < 3; ++d) t[3 * k + d] = v[f[k]][d];
    out.append(t);
  }
  return out;
}

QByteArray binaryStl(const QList<std::array<float, 9>>& triangles) {
  QByteArray b(80, ' ');
  const auto n = static_cast<quint32>(triangles.size());
  b.append(reinterpret_cast<const char*>(&n), 4);
  for (const auto& t : triangles) {
    b.append(12, '\0');
    b.append(reinterpret_cast<const char*>(t.data()), 36);
    b.append(2, '\0');
  }
  return b;
}
}  // namespace

class CliShapesTest : public QObject {
  Q_OBJECT
 private slots:
  void inertiaOfATemplateFile() {
    QTemporaryDir dir;
    // Two spheres r = 0.5 at (+-2, 0, 0) in a template file (body frame), density 3.
    const QString t =
        writeFile(dir, "two.json", R"({"format": "clumplab-template/1", "name": "two", "density": 3,
        "mass": 3.14159, "principal_moments": [1, 2, 2], "pebbles": [[-2, 0, 0, 0.5], [2, 0, 0, 0.5]]})");
    const Result r = cli({"inertia", t, "--method", "pebbles"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    const double mj = 3.0 * 4.0 / 3.0 * M_PI * 0.125;
    QVERIFY(std::abs(o["mass"].toDouble() - 2 * mj) < 1e-12);
    for (const char* key :
         {"volume", "mass", "center_of_mass", "inertia_tensor", "principal_moments", "principal_axes"}) {
      QVERIFY2(o.contains(key), key);
    }
    const double iyy = 2 * (0.4 * mj * 0.25 + mj * 4.0);
    QVERIFY(std::abs(o["principal_moments"].toArray()[2].toDouble() - iyy) < 1e-12 * iyy);
  }

  void shapeWritesMeshAndTemplate() {
    const Result list = cli({"shape", "--list"});
    QVERIFY2(list.exitCode == 0, list.err.constData());
    QVERIFY(QJsonDocument::fromJson(list.out).object()["shapes"].toArray().contains(QString("t-handle")));

    QTemporaryDir dir;
    const QString mesh = dir.filePath("th.stl"), templ = dir.filePath("th.json");
    const Result r = cli({"shape", "t-handle", "--mesh", mesh, "--template", templ, "--density", "2500"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o["name"].toString(), QString("t-handle"));
    QCOMPARE(o["pebbles"].toInt(), 10);
    QCOMPARE(o["mesh_file"].toString(), mesh);
    QCOMPARE(o["template_file"].toString(), templ);
    const int triangles = o["triangles"].toInt();
    QVERIFY(triangles > 1000);
    QCOMPARE(QFileInfo(mesh).size(), 84 + 50 * qint64(triangles));  // binary STL

    // The template: the project's T-bar (docs/user-guide.md), its overlapping pebbles counted once (voxels),
    // so its mass is close to the mesh's (the pebble union is ~6% smaller than the capsules).
    QFile t(templ);
    QVERIFY(t.open(QIODevice::ReadOnly));
    const QJsonObject tj = QJsonDocument::fromJson(t.readAll()).object();
    QCOMPARE(tj["format"].toString(), QString("clumplab-template/1"));
    QCOMPARE(tj["source_mesh"].toString(), QString("th.stl"));
    QCOMPARE(tj["inertia_method"].toString(), QString("voxel"));
    QCOMPARE(tj["pebbles"].toArray().size(), 10);
    const double meshMass = 2500.0 * o["volume"].toDouble();
    QVERIFY(std::abs(tj["mass"].toDouble() / meshMass - 1.0) < 0.08);
    const Result given = cli({"inertia", templ, "--method", "given"});
    QVERIFY2(given.exitCode == 0, given.err.constData());

    const QString ascii = dir.filePath("rod.stl");
    const Result a = cli({"shape", "rod", "--size", "0.02", "--mesh", ascii, "--ascii"});
    QVERIFY2(a.exitCode == 0, a.err.constData());
    QFile f(ascii);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.startsWith("solid ClumpLab built-in shape rod"));
    QCOMPARE(text.count("facet normal"), QJsonDocument::fromJson(a.out).object()["triangles"].toInt());
  }

  void inertiaOfAMeshMatchesTheClosedForm() {
    // A 10 x 20 x 30 mm box in mm units: --scale 0.001, density 2000.
    QTemporaryDir dir;
    const QString mesh = writeFile(dir, "box.stl", binaryStl(boxTriangles(10, 20, 30)));
    const Result r = cli({"inertia", mesh, "--scale", "0.001", "--density", "2000"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    for (const char* key : {"volume", "mass", "center_of_mass", "inertia_tensor", "principal_moments",
                            "principal_axes", "mesh"})
      QVERIFY2(o.contains(key), key);
    const double mass = 2000 * 6e-6;
    QVERIFY(std::abs(o["mass"].toDouble() - mass) < 1e-12 * mass);
    const QJsonArray moments = o["principal_moments"].toArray();
    QVERIFY(std::abs(moments[0].toDouble() - mass * (1e-4 + 4e-4) / 12) < 1e-9 * mass * 1e-4);
    QVERIFY(std::abs(moments[2].toDouble() - mass * (4e-4 + 9e-4) / 12) < 1e-9 * mass * 1e-4);
    QCOMPARE(o["mesh"].toObject()["triangles"].toInt(), 12);
    // Voxels and Monte Carlo of the same mesh report their error estimates.
    const Result v = cli({"inertia", mesh, "--scale", "0.001", "--method", "voxel", "--voxels", "64"});
    QVERIFY2(v.exitCode == 0, v.err.constData());
    QCOMPARE(QJsonDocument::fromJson(v.out).object()["voxels"].toInt(), 64);
    const Result mc =
        cli({"inertia", mesh, "--method", "monte-carlo", "--samples", "20000", "--sequence", "sine"});
    QVERIFY2(mc.exitCode == 0, mc.err.constData());
    // The box fills its own bounding box: every sample hits, the estimate is exact, the error zero.
    const QJsonObject mco = QJsonDocument::fromJson(mc.out).object();
    QCOMPARE(mco["errors"].toObject()["volume"].toDouble(), 0.0);
    QVERIFY(std::abs(mco["volume"].toDouble() - 6000.0) < 1e-9);
  }

  void fillWritesATemplateThatScenesUse() {
    QTemporaryDir dir;
    const QString mesh = writeFile(dir, "box.stl", binaryStl(boxTriangles(10, 20, 30)));
    const QString out = dir.filePath("box.json");
    const Result r =
        cli({"fill", mesh, "--scale", "0.001", "--spacing", "0.002", "--density", "2500", "--out", out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject t = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(t["format"].toString(), QString("clumplab-template/1"));
    QCOMPARE(t["pebbles"].toArray().size(), 5 * 10 * 15);
    QCOMPARE(t["inertia_method"].toString(), QString("mesh"));
    QCOMPARE(t["source_mesh"].toString(), QString("box.stl"));
    const QJsonObject metrics = t["metrics"].toObject();
    for (const char* key : {"volume_error", "principal_moment_errors", "axis_misalignment_deg",
                            "largest_protrusion", "largest_gap", "dzhanibekov_margin"})
      QVERIFY2(metrics.contains(key), key);
    QVERIFY(std::abs(metrics["dzhanibekov_margin"].toDouble() - 0.625) < 0.05);
    QVERIFY(QFile::exists(out));
    // The saved template runs in a scene, and so does a scene naming the mesh directly.
    const QString scene = writeFile(dir, "s.json", R"({"format": "clumplab-scene/1", "time_step": 1e-5,
      "contact": {"model": "linear", "stiffness": 1e3, "restitution": 0.5},
      "templates": {"saved": {"file": "box.json"},
                    "direct": {"mesh": "box.stl", "scale": 0.001, "density": 2500, "fill": {"count": 300, "mode": "fitted"}}},
      "bodies": [{"template": "saved", "position": [0, 0, 0]}, {"template": "direct", "position": [0.1, 0, 0]}]})");
    const Result run = cli({"run", scene, "--steps", "10"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const int pebbles = QJsonDocument::fromJson(run.out).object()["pebbles"].toInt();
    QVERIFY2(pebbles > 750 + 250 && pebbles < 750 + 350, qPrintable(QString::number(pebbles)));
  }

  void openMeshesFillAsTheirWindingNumbersSolid() {
    // A box without its face z = 0 (issue 37: refused before): a clump, and warnings that say what
    // was done; with --repair the hole, larger than repair closes, stays open and says so.
    QTemporaryDir dir;
    const QString mesh = writeFile(dir, "a.stl", binaryStl(boxTriangles(1, 1, 1).mid(2)));
    for (const bool repair : {false, true}) {
      QStringList args{"fill", mesh, "--spacing", "0.1"};
      if (repair) args << "--repair";
      const Result r = cli(args);
      QVERIFY2(r.exitCode == 0, r.err.constData());
      const QJsonObject t = QJsonDocument::fromJson(r.out).object();
      QCOMPARE(t["pebbles"].toArray().size(), 1000);
      const QJsonObject report = t["mesh_report"].toObject();
      QCOMPARE(report["watertight"].toBool(), false);
      QCOMPARE(report["solid"].toString(), QString("generalized winding number"));
      QCOMPARE(report["boundary_edges"].toInt(), 4);
      QVERIFY(std::abs(report["volume"].toDouble() - 1.0) <= report["volume_error"].toDouble());
      const QString err = QString::fromUtf8(r.err);
      for (const QString& expected :
           {mesh + ": warning: the mesh is open: 4 boundary edges (edges of only one triangle) around 1 hole",
            mesh +
                ": warning: the mesh is not a closed manifold, so the solid is where its generalized winding "
                "number is at least 1/2",
            mesh +
                ": warning: mass properties from the solid its generalized winding number encloses, sampled "
                "on a "}) {
        QVERIFY2(err.contains(expected), qPrintable(err));
      }
      QCOMPARE(err.contains(mesh +
                            ": warning: the repair left open 1 hole with a perimeter above the bounding-box "
                            "diagonal (1.732 m)"),
               repair);
    }
  }

  void pebbleFilesAndMercuryFolders() {
    QTemporaryDir dir;
    const QString text = writeFile(dir, "clump.txt", "# x y z r\n0 0 0 0.001\n0.003, 0, 0, 0.001\n");
    const Result r = cli({"inertia", text, "--density", "1000"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o["method"].toString(), QString("pebbles"));
    QVERIFY(std::abs(o["mass"].toDouble() - 2 * 1000 * 4.0 / 3.0 * M_PI * 1e-9) < 1e-18);
    const Result mc = cli({"inertia", text, "--method", "monte-carlo", "--samples", "100000"});
    QVERIFY2(mc.exitCode == 0, mc.err.constData());
    const QJsonObject mco = QJsonDocument::fromJson(mc.out).object();
    const double sigma = mco["errors"].toObject()["volume"].toDouble();
    QVERIFY(sigma > 0.0 && std::abs(mco["volume"].toDouble() - 2 * 4.0 / 3.0 * M_PI * 1e-9) < 3 * sigma);
    QDir(dir.path()).mkpath("merc/Clump");
    QDir(dir.path()).mkpath("merc/Inertia");
    writeFile(dir, "merc/Clump/Clump.txt", "-1.5e-03,0,0,1e-03\n1.5e-03,0,0,1e-03\n");
    writeFile(dir, "merc/Inertia/Mass.txt", "8.0e-09\n");
    writeFile(dir, "merc/Inertia/TOI.txt", "3.2e-15,0,0\n0,1.2e-14,0\n0,0,1.2e-14\n");
    const Result m = cli({"inertia", dir.filePath("merc")});
    QVERIFY2(m.exitCode == 0, m.err.constData());
    const QJsonObject mo = QJsonDocument::fromJson(m.out).object();
    QCOMPARE(mo["method"].toString(), QString("given"));
    QVERIFY(std::abs(mo["principal_moments"].toArray()[0].toDouble() - 3.2e-15) < 1e-27);
    // Mode 4: a mesh with another tool's pebbles.
    const QString mesh = writeFile(dir, "box.stl", binaryStl(boxTriangles(10, 2, 2)));
    writeFile(dir, "rod.txt", "-3 0 0 1\n0 0 0 1\n3 0 0 1\n");
    const Result f = cli({"fill", mesh, "--scale", "0.001", "--pebbles", dir.filePath("rod.txt")});
    QVERIFY2(f.exitCode == 0, f.err.constData());
    QCOMPARE(QJsonDocument::fromJson(f.out).object()["pebbles"].toArray().size(), 3);
  }

  void badMeshInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("bytes");  // written to the file named by the @ argument
    QTest::addColumn<QString>("expected");
    QByteArray box = binaryStl(boxTriangles(1, 1, 1));
    QTest::newRow("empty STL") << QStringList{"inertia", "@a.stl"} << QByteArray()
                               << "a.stl: the file is empty";
    QTest::newRow("truncated STL") << QStringList{"inertia", "@a.stl"} << box.left(300)
                                   << "a.stl: truncated or corrupt binary STL";
    QTest::newRow("flat mesh") << QStringList{"fill", "@a.stl", "--spacing", "0.1"}
                               << binaryStl(boxTriangles(1, 1, 1).mid(0, 2))
                               << "a.stl: bounds no solid: its generalized winding number never reaches 1/2";
    QTest::newRow("no spacing") << QStringList{"fill", "@a.stl"} << box << "give exactly one of spacing";
    QTest::newRow("bad fill mode") << QStringList{"fill", "@a.stl", "--spacing", "0.1", "--mode", "hex"}
                                   << box << "unknown fill mode \"hex\"";
    QTest::newRow("spacing too small")
        << QStringList{"fill", "@a.stl", "--spacing", "1e-5"} << box << "more than the limit";
    QTest::newRow("method for pebbles")
        << QStringList{"inertia", "@a.stl", "--method", "pebbles"} << box << "--method pebbles needs pebbles";
    QTest::newRow("triangle limit") << QStringList{"mesh", "@a.stl", "--max-triangles", "5"} << box
                                    << "12 triangles exceed the limit of 5";
    QTest::newRow("bad pebble line") << QStringList{"inertia", "@c.txt"} << QByteArray("0 0 0 1\n1 2 x 3\n")
                                     << "c.txt: line 2: \"x\" is not a number";
    QTest::newRow("scene with a broken mesh")
        << QStringList{"run", "@s.json"} << QByteArray(R"({"format": "clumplab-scene/1", "time_step": 1e-5,
      "contact": {"model": "linear", "stiffness": 1e3, "restitution": 0.5},
      "templates": {"g": {"mesh": "missing.stl", "density": 1000, "fill": {"spacing": 1e-3}}},
      "bodies": [{"template": "g", "position": [0, 0, 0]}]})")
        << "s.json: templates.g.mesh: ";
  }
  void badMeshInput() {
    QFETCH(QStringList, args);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    for (QString& a : args) {
      if (a.startsWith('@')) a = writeFile(dir, a.mid(1), bytes);
    }
    const Result r = cli(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.isEmpty(), r.out.constData());
    const QString err = QString::fromUtf8(r.err).trimmed();
    QVERIFY2(err.contains(expected), qPrintable(err + "   (expected: " + expected + ")"));
    QVERIFY2(!err.contains('\n'), qPrintable("one line expected: " + err));
  }
};

QTEST_GUILESS_MAIN(CliShapesTest)
#include "tst_cli_shapes.moc"
