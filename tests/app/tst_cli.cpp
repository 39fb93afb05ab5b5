// clumplab-cli as users' scripts see it: one JSON object on success, exit 2 with one clear line
// naming the file and field on bad input, CSV outputs with the exact headers of INTERFACES.md.
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {
struct Result {
  int exitCode = -1;
  QByteArray out, err;
};

Result cli(const QStringList& args) {
  QProcess p;
  p.start(CLUMPLAB_CLI, args);
  if (!p.waitForFinished(120000)) qFatal("clumplab-cli did not finish");
  return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

QString scene(const char* name) {
  return QString(CLUMPLAB_SCENES_DIR) + "/" + name;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  f.write(text);
  return path;
}
}  // namespace

class CliTest : public QObject {
  Q_OBJECT
 private slots:
  void runPrintsTheSummaryAndWritesCsv() {
    QTemporaryDir dir;
    const QString energy = dir.filePath("e.csv"), states = dir.filePath("s.csv");
    const Result r = cli({"run", scene("tbar-dzhanibekov.json"), "--steps", "2000", "--energy", energy,
                          "--states", states, "--every", "500", "--integrator", "midpoint"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject summary = QJsonDocument::fromJson(r.out).object();
    for (const char* key : {"steps", "time", "wall_seconds", "bodies", "pebbles", "contacts",
                            "pebble_steps_per_second", "energy"}) {
      QVERIFY2(summary.contains(key), key);
    }
    QCOMPARE(summary["steps"].toInt(), 2000);
    QCOMPARE(summary["bodies"].toInt(), 1);
    QCOMPARE(summary["pebbles"].toInt(), 10);
    QCOMPARE(summary["integrator"].toString(), QString("midpoint"));
    QVERIFY(summary["energy"].toObject()["ke_rotational"].toDouble() > 0.0);

    QFile e(energy), s(states);
    QVERIFY(e.open(QIODevice::ReadOnly) && s.open(QIODevice::ReadOnly));
    const QList<QByteArray> eLines = e.readAll().trimmed().split('\n');
    const QList<QByteArray> sLines = s.readAll().trimmed().split('\n');
    QCOMPARE(
        eLines[0],
        QByteArray(
            "time,ke_translational,ke_rotational,pe_gravity,pe_elastic,dissipated,total,px,py,pz,lx,ly,lz"));
    QCOMPARE(sLines[0], QByteArray("time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,wb1,wb2,wb3"));
    QCOMPARE(eLines.size(), 1 + 5);  // t = 0 and every 500 of 2000 steps
    QCOMPARE(sLines.size(), 1 + 5);
    QCOMPARE(eLines[1].split(',').size(), 13);
    QCOMPARE(sLines[1].split(',').size(), 18);
    // total = ke_translational + ke_rotational + pe_gravity + pe_elastic
    const QList<QByteArray> f = eLines.last().split(',');
    QVERIFY(std::abs(f[6].toDouble() - (f[1].toDouble() + f[2].toDouble() + f[3].toDouble() +
                                        f[4].toDouble())) <= 1e-12 * std::abs(f[6].toDouble()));
  }

  void timeOption() {
    const Result r = cli({"run", scene("tbar-dzhanibekov.json"), "--time", "0.05", "--dt", "1e-4"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(QJsonDocument::fromJson(r.out).object()["steps"].toInt(), 500);
  }

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

    // The template: the README's T-bar, its overlapping pebbles counted once (voxels), so its mass
    // is close to the mesh's (the pebble union is ~6% smaller than the capsules).
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

  void benchPrintsThroughput() {
    const Result r = cli({"bench", scene("tbar-bulk.json"), "--steps", "50", "--threads", "2"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o["pebbles"].toInt(), 10000);
    QCOMPARE(o["threads"].toInt(), 2);
    QVERIFY(o["pebble_steps_per_second"].toDouble() > 0.0);
  }

  void badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("sceneText");  // written to bad.json when not empty
    QTest::addColumn<QString>("expected");
    const QByteArray good = R"({"format": "clumplab-scene/1", "time_step": 1e-5,
      "contact": {"model": "linear", "stiffness": 1e3, "restitution": 0.5},
      "templates": {"a": {"density": 1000, "pebbles": [[0, 0, 0, 0.001]]}},
      "bodies": [{"template": "a", "position": [0, 0, 0]}]})";
    QTest::newRow("missing file") << QStringList{"run", "@/nope.json"} << QByteArray()
                                  << "nope.json: cannot open";
    QTest::newRow("empty file") << QStringList{"run", "@bad.json"} << QByteArray("  \n")
                                << "bad.json: the file is empty";
    QTest::newRow("not json") << QStringList{"run", "@bad.json"} << QByteArray("{\"format\": ")
                              << "bad.json: line 1";
    QTest::newRow("unknown key") << QStringList{"run", "@bad.json"}
                                 << QByteArray(good).replace("\"time_step\"",
                                                             "\"timestep\": 1, \"time_step\"")
                                 << "bad.json: timestep: unknown key";
    QTest::newRow("NaN-like value") << QStringList{"run", "@bad.json"}
                                    << QByteArray(good).replace("1e-5", "\"NaN\"")
                                    << "bad.json: time_step: expected a number";
    QTest::newRow("negative radius") << QStringList{"run", "@bad.json"}
                                     << QByteArray(good).replace("0.001]]", "-0.001]]")
                                     << "bad.json: templates.a.pebbles[0][3]: must be positive";
    QTest::newRow("unknown template")
        << QStringList{"run", "@bad.json"}
        << QByteArray(good).replace("\"template\": \"a\"", "\"template\": \"b\"")
        << "bad.json: bodies[0].template: unknown template";
    QTest::newRow("bad option") << QStringList{"run", "@bad.json", "--stepz", "3"} << good
                                << "unknown option --stepz";
    QTest::newRow("bad integrator") << QStringList{"run", "@bad.json", "--integrator", "euler"} << good
                                    << "unknown integrator \"euler\"";
    QTest::newRow("bad dt") << QStringList{"run", "@bad.json", "--dt", "-1"} << good
                            << "--dt must be positive";
    QTest::newRow("unknown command") << QStringList{"simulate"} << QByteArray() << "unknown command";
    QTest::newRow("mesh inertia") << QStringList{"inertia", "@part.stl"} << QByteArray()
                                  << "part.stl: reading meshes";
    QTest::newRow("unknown shape") << QStringList{"shape", "gear"} << QByteArray()
                                   << "unknown shape \"gear\" (the built-in shapes are t-handle,";
    QTest::newRow("template without density") << QStringList{"shape", "cube", "--template", "@t.json"}
                                              << QByteArray() << "--template needs --density";
    QTest::newRow("bad size") << QStringList{"shape", "cube", "--size", "0"} << QByteArray()
                              << "--size must be positive";
  }
  void badInput() {
    QFETCH(QStringList, args);
    QFETCH(QByteArray, sceneText);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    if (!sceneText.isEmpty()) writeFile(dir, "bad.json", sceneText);
    for (QString& a : args) {
      if (a.startsWith('@')) a = a == "@/nope.json" ? dir.filePath("nope.json") : dir.filePath(a.mid(1));
    }
    const Result r = cli(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.isEmpty(), r.out.constData());
    const QString err = QString::fromUtf8(r.err).trimmed();
    QVERIFY2(err.contains(expected), qPrintable(err + "   (expected: " + expected + ")"));
    QVERIFY2(!err.contains('\n') || args[0] == "simulate", qPrintable("one line expected: " + err));
  }

  void divergenceStopsWithAnExplanation() {
    QTemporaryDir dir;
    // A stiff contact with a huge time step: the run must stop and explain, not print NaN.
    const QString path = writeFile(dir, "stiff.json",
                                   R"({"format": "clumplab-scene/1", "time_step": 1e-3, "gravity": [0, 0, 0],
      "contact": {"model": "linear", "stiffness": 1e7, "restitution": 0.9},
      "templates": {"a": {"density": 1000, "pebbles": [[0, 0, 0, 0.001]]}},
      "bodies": [{"template": "a", "position": [0, 0, 0], "velocity": [1, 0, 0]},
                 {"template": "a", "position": [0.0025, 0, 0], "velocity": [-1, 0, 0]}]})");
    const Result r = cli({"run", path, "--steps", "100"});
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("diverged") && r.err.contains("critical step"), r.err.constData());
    QVERIFY(QJsonDocument::fromJson(r.out).object().contains("diverged"));
  }
};

QTEST_GUILESS_MAIN(CliTest)
#include "tst_cli.moc"
