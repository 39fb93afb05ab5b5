// The LIGGGHTS round trip without LIGGGHTS (core/export/EngineImport.hpp): a scene exported,
// dumps written as LIGGGHTS-PUBLIC writes them from a ClumpLab run whose clumps turn about a point
// off their centre of mass (as LIGGGHTS's Monte Carlo centroid does), imported back to the run's
// poses and velocities; and every bad or partial dump refused with its file and line. The real
// engine runs in tests/export (export.liggghts_round_trip).
#include <QTemporaryDir>
#include <QtTest>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ExportTestScenes.hpp"
#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/export/EngineImport.hpp"
#include "core/export/SceneExport.hpp"
#include "core/io/Trajectory.hpp"

using namespace clumplab;
using namespace clumplab::test;
namespace fs = std::filesystem;

namespace {

// Where LIGGGHTS turns each template's clumps about, in the principal frame [m].
Vec3 turningPoint(std::uint32_t templateIndex) {
  return templateIndex == 0 ? Vec3(2e-5, -3e-5, 1e-5) : Vec3(-4e-6, 0, 7e-6);
}

std::string number(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

struct DumpBody {
  long long id;
  long long type;
  std::uint32_t templateIndex;
  Vec3 x, v, w;
  Quat q;
};

// post/bodies_<step>.txt and post/pebbles_<step>.txt as LIGGGHTS-PUBLIC's dump local and dump custom
// write them.
void writeDumps(const fs::path& folder, long long step, const std::vector<DumpBody>& bodies,
                const std::vector<TemplatePtr>& templates) {
  fs::create_directories(folder / "post");
  std::ofstream b(folder / "post" / ("bodies_" + std::to_string(step) + ".txt"));
  b << "ITEM: TIMESTEP\n"
    << step << "\nITEM: NUMBER OF ENTRIES\n"
    << bodies.size()
    << "\nITEM: BOX BOUNDS mm mm mm\n-1 1\n-1 1\n-1 1\nITEM: ENTRIES c_ms_id c_ms_type c_ms_x[1] c_ms_x[2] "
       "c_ms_x[3] c_ms_q[1] c_ms_q[2] c_ms_q[3] c_ms_q[4] c_ms_v[1] c_ms_v[2] c_ms_v[3] c_ms_w[1] c_ms_w[2] "
       "c_ms_w[3] \n";
  std::ofstream p(folder / "post" / ("pebbles_" + std::to_string(step) + ".txt"));
  std::size_t pebbles = 0;
  for (const DumpBody& d : bodies) pebbles += templates[d.templateIndex]->pebbles.size();
  p << "ITEM: TIMESTEP\n"
    << step << "\nITEM: NUMBER OF ATOMS\n"
    << pebbles
    << "\nITEM: BOX BOUNDS mm mm mm\n-1 1\n-1 1\n-1 1\nITEM: ATOMS id mol type x y z vx vy vz radius \n";
  long long atom = 1;
  for (const DumpBody& d : bodies) {
    const Mat3 r = d.q.toRotationMatrix();
    const Vec3 centre = d.x + r * turningPoint(d.templateIndex);
    const Vec3 vcm = d.v + d.w.cross(centre - d.x);
    b << d.id << " " << d.type;
    for (double v : {centre.x(), centre.y(), centre.z(), d.q.w(), d.q.x(), d.q.y(), d.q.z(), vcm.x(), vcm.y(),
                     vcm.z(), d.w.x(), d.w.y(), d.w.z()})
      b << " " << number(v);
    b << " \n";
    for (const Pebble& pebble : templates[d.templateIndex]->pebbles) {
      const Vec3 at = d.x + r * pebble.center;
      p << atom++ << " " << d.id << " 1 " << number(at.x()) << " " << number(at.y()) << " " << number(at.z())
        << " 0 0 0 " << number(pebble.radius) << "\n";
    }
  }
}

// The exported two-clump scene, run in ClumpLab for 0, 100 and 200 steps as the dumps' truth;
// LIGGGHTS's ids in the opposite order of the scene's bodies, and a third body (an inlet's) from
// step 200 on.
struct RoundTrip {
  QTemporaryDir dir;
  fs::path folder;
  std::vector<std::vector<DumpBody>> truth;  // per dumped step
  std::vector<TemplatePtr> templates;

  RoundTrip() : folder(dir.path().toStdString()) {
    const Scene scene = parseScene(sceneText(kLinear, kFloor), "two.json");
    auto world = buildWorld(scene);
    exportLiggghts(scene, *world, folder.string(), ExportRun{200, 100});
    templates = world->model().templates;
    for (long long step = 0; step <= 200; step += 100) {
      std::vector<DumpBody> bodies;
      const BodyState& s = world->bodies();
      for (std::size_t i = 0; i < s.size(); ++i) {
        bodies.push_back({static_cast<long long>(s.size() - i),
                          static_cast<long long>(s.templateIndex[i]) + 1, s.templateIndex[i], s.position[i],
                          s.velocity[i], s.angularVelocity[i], s.orientation[i]});
      }
      if (step == 200) {
        bodies.push_back({3, 2, 1, Vec3(0.05, 0.01, 0.02), Vec3(0, 0, -1), Vec3(1, 0, 0), Quat(0, 1, 0, 0)});
      }
      writeDumps(folder, step, bodies, templates);
      truth.push_back(bodies);
      for (int k = 0; k < 100; ++k) mustStep(*world);
    }
  }
  std::string dump(const char* kind, long long step) const {
    return (folder / "post" / (std::string(kind) + "_" + std::to_string(step) + ".txt")).string();
  }
};

std::string readText(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The two-clump scene exported for Yade, and yade_bodies.csv written as its script writes it from a
// ClumpLab run: every body at 0, 100 and 200 steps.
struct YadeRun {
  QTemporaryDir dir;
  fs::path folder;
  std::vector<std::vector<DumpBody>> truth;

  YadeRun() : folder(dir.path().toStdString()) {
    const Scene scene = parseScene(sceneText(kLinear, kFloor), "two.json");
    auto world = buildWorld(scene);
    exportYade(scene, *world, folder.string(), ExportRun{200, 100});
    std::ofstream csv(folder / "yade_bodies.csv");
    csv << "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
    for (int f = 0; f < 3; ++f) {
      const BodyState& s = world->bodies();
      std::vector<DumpBody> bodies;
      for (std::size_t i = 0; i < s.size(); ++i) {
        const DumpBody d{static_cast<long long>(i),
                         0,
                         s.templateIndex[i],
                         s.position[i],
                         s.velocity[i],
                         s.angularVelocity[i],
                         s.orientation[i]};
        csv << number(world->time()) << "," << i;
        for (double v : {d.x.x(), d.x.y(), d.x.z(), d.q.w(), d.q.x(), d.q.y(), d.q.z(), d.v.x(), d.v.y(),
                         d.v.z(), d.w.x(), d.w.y(), d.w.z()})
          csv << "," << number(v);
        csv << "\n";
        bodies.push_back(d);
      }
      truth.push_back(bodies);
      for (int k = 0; k < 100; ++k) mustStep(*world);
    }
  }
  std::string out() const { return (folder / "run.cltraj").string(); }
};

void replaceInFile(const std::string& path, const std::string& from, const std::string& to) {
  std::string text = readText(path);
  const auto at = text.find(from);
  if (at == std::string::npos) qFatal("test bug: %s not in %s", from.c_str(), path.c_str());
  text.replace(at, from.size(), to);
  std::ofstream(path) << text;
}

}  // namespace

class TestEngineImport : public QObject {
  Q_OBJECT

 private slots:
  void exportWritesWhatTheImportReads() {
    RoundTrip t;
    for (const char* file : {"clumplab-liggghts.json", "scene.json", "in.clumplab"})
      QVERIFY2(fs::exists(t.folder / file), file);
    const std::string text = readText(t.folder / "in.clumplab");
    QVERIFY(text.find("compute ms_q all multisphere property quat") != std::string::npos);
    QVERIFY(text.find("dump bodies all local 100 post/bodies_*.txt c_ms_id c_ms_type") != std::string::npos);
    QVERIFY(text.find("dump_modify bodies format \"%.17g") != std::string::npos);
  }

  // The imported poses are the run's: quaternions and angular velocities as dumped (exactly), the
  // centre of mass and its velocity to round-off, though LIGGGHTS's centre is elsewhere.
  void importGivesTheRunsPoses() {
    RoundTrip t;
    const std::string out = (t.folder / "run.cltraj").string();
    const EngineImportSummary s = importLiggghtsRun(t.folder.string(), out, {});
    QCOMPARE(s.frames, std::size_t{3});
    QCOMPARE(s.sceneBodies, std::size_t{2});
    QCOMPARE(s.insertedBodies, std::size_t{1});
    QCOMPARE(s.mostBodies, std::size_t{3});
    QVERIFY2(s.largestPebbleOffset < 1e-17, qPrintable(QString::number(s.largestPebbleOffset)));
    QVERIFY(s.largestStartOffset < 1e-17);
    const Trajectory traj = readTrajectory(out);
    QCOMPARE(traj.frames.size(), std::size_t{3});
    for (std::size_t f = 0; f < traj.frames.size(); ++f) {
      const TrajectoryFrame& frame = traj.frames[f];
      QCOMPARE(frame.step, std::uint64_t{100 * f});
      QCOMPARE(frame.time, 100.0 * static_cast<double>(f) * 1e-5);
      QCOMPARE(frame.bodies.size(), t.truth[f].size());
      for (const DumpBody& d : t.truth[f]) {
        // LIGGGHTS's id n is the scene's body 2 - n; the inlet's body comes after them.
        const std::size_t b = d.id <= 2 ? static_cast<std::size_t>(2 - d.id) : 2;
        QCOMPARE(frame.bodies.templateIndex[b], d.templateIndex);
        QVERIFY((frame.bodies.position[b] - d.x).norm() < 1e-17);
        QVERIFY((frame.bodies.velocity[b] - d.v).norm() < 1e-15);
        QCOMPARE(frame.bodies.orientation[b].coeffs(), d.q.coeffs());
        QCOMPARE(frame.bodies.angularVelocity[b], d.w);
      }
    }
    QVERIFY(traj.sceneJson.find("\"ell\"") != std::string::npos);
  }

  // Bad and partial dumps: an InputError naming the file (and the line), and no trajectory.
  void badDumpsAreRefused_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("expected");
    QTest::newRow("cut short") << "bodies"
                               << "NUMBER OF ENTRIES\n2"
                               << "NUMBER OF ENTRIES\n5"
                               << "bodies_100.txt: line 12: the dump ends after 2 of the 5 rows";
    QTest::newRow("not a number") << "pebbles"
                                  << "ITEM: ATOMS id mol type x y z vx vy vz radius \n1 2 1 "
                                  << "ITEM: ATOMS id mol type x y z vx vy vz radius \n1 2 1 nan"
                                  << "pebbles_100.txt: line 10: ";
    QTest::newRow("misspelt item") << "bodies"
                                   << "ITEM: TIMESTEP"
                                   << "ITEM: TIMESTEPS"
                                   << "bodies_100.txt: line 1: expected \"ITEM: TIMESTEP\"";
    QTest::newRow("wrong step") << "bodies"
                                << "TIMESTEP\n100"
                                << "TIMESTEP\n99"
                                << "bodies_100.txt: line 2: the dump is of step 99";
    QTest::newRow("unknown type") << "bodies"
                                  << "\n1 1 "
                                  << "\n1 7 "
                                  << "bodies_100.txt: line 11: clump type 7 is none the export wrote";
    QTest::newRow("missing column") << "bodies"
                                    << "c_ms_q[1]"
                                    << "c_ms_quat1"
                                    << "bodies_100.txt: no column \"c_ms_q[1]\"";
    QTest::newRow("pebbles missing")
        << "pebbles"
        << "ITEM: ATOMS id mol type x y z vx vy vz radius \n1 2 1 "
        << "ITEM: ATOMS id mol type x y z vx vy vz radius \n1 9 1 "
        << "pebbles_100.txt: body 2 has 3 pebbles (mol 2), its template \"ell\" 4";
  }
  void badDumpsAreRefused() {
    QFETCH(QString, kind);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, expected);
    RoundTrip t;
    replaceInFile(t.dump(qPrintable(kind), 100), from.toStdString(), to.toStdString());
    expectRefusal(t, expected.toStdString());
  }

  void pebblesOfNoBodyAreRefused() {
    RoundTrip t;
    const std::string file = t.dump("pebbles", 100);
    const std::string text = readText(file);
    const auto count = text.find("NUMBER OF ATOMS\n6");
    QVERIFY(count != std::string::npos);
    std::ofstream(file) << text.substr(0, count) << "NUMBER OF ATOMS\n7" << text.substr(count + 17)
                        << "7 7 1 0 0 0 0 0 0 0.001\n";
    expectRefusal(t, "pebbles_100.txt: pebbles of body 7, which");
  }

  void quaternionNormIsChecked() {
    RoundTrip t;
    std::vector<DumpBody> bodies = t.truth[1];
    bodies[0].q.coeffs() *= 1.001;
    writeDumps(t.folder, 100, bodies, t.templates);
    expectRefusal(t, "bodies_100.txt: line 10: body 2: its quaternion's norm is 1.001");
  }

  // Yade's CSV from a ClumpLab run (frames at 0, 100 and 200 steps): the same doubles come back.
  void yadeImportGivesTheRowsPoses() {
    const YadeRun t;
    const EngineImportSummary s = importYadeRun(t.folder.string(), t.out(), {});
    QCOMPARE(s.frames, std::size_t{3});
    QCOMPARE(s.mostBodies, std::size_t{2});
    const Trajectory traj = readTrajectory(t.out());
    for (std::size_t f = 0; f < 3; ++f) {
      QCOMPARE(traj.frames[f].step, std::uint64_t{100 * f});
      for (std::size_t b = 0; b < 2; ++b) {
        const DumpBody& d = t.truth[f][b];
        QCOMPARE(traj.frames[f].bodies.templateIndex[b], d.templateIndex);
        QCOMPARE(traj.frames[f].bodies.position[b], d.x);
        QCOMPARE(traj.frames[f].bodies.orientation[b].coeffs(), d.q.coeffs());
        QCOMPARE(traj.frames[f].bodies.velocity[b], d.v);
        QCOMPARE(traj.frames[f].bodies.angularVelocity[b], d.w);
      }
    }
  }

  void badYadeOutputIsRefused_data() {
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("expected");
    QTest::newRow("header") << "time,body,"
                            << "time,bodies,"
                            << "yade_bodies.csv: line 1: expected the header";
    QTest::newRow("not a number") << "\n0,1,"
                                  << "\n0,x,"
                                  << "yade_bodies.csv: line 3: value 2 of 15 is not";
    QTest::newRow("no such body") << "\n0,1,"
                                  << "\n0,5,"
                                  << "yade_bodies.csv: line 3: body 5";
    QTest::newRow("row cut short") << "\n0.002,1,"
                                   << "\n"
                                   << "yade_bodies.csv: line 7: 15 comma-separated values expected";
  }
  void badYadeOutputIsRefused() {
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, expected);
    const YadeRun t;
    replaceInFile((t.folder / "yade_bodies.csv").string(), from.toStdString(), to.toStdString());
    expectRefusal(t.folder, t.out(), expected.toStdString(), true);
  }

  void yadeRunCutShortIsNamed() {
    const YadeRun t;
    const std::string csv = readText(t.folder / "yade_bodies.csv");
    std::ofstream((t.folder / "yade_bodies.csv").string()) << csv.substr(0, csv.rfind("\n0.002"));
    expectRefusal(t.folder, t.out(), "yade_bodies.csv: line 6: the last time has 1 of the 2 bodies", true);
  }

  void missingFilesAreNamed() {
    {
      RoundTrip t;
      fs::remove(t.dump("pebbles", 200));
      expectRefusal(t, "pebbles_200.txt: missing: the body dump of step 200 has no pebble dump beside it");
    }
    {
      RoundTrip t;
      fs::remove_all(t.folder / "post");
      expectRefusal(t, "post: no such folder: LIGGGHTS has not run the deck here yet");
    }
    {
      RoundTrip t;
      fs::remove(t.folder / "clumplab-liggghts.json");
      expectRefusal(t, "clumplab-liggghts.json: missing: is this a folder that clumplab-cli export");
    }
  }

 private:
  static void expectRefusal(const RoundTrip& t, const std::string& expected) {
    expectRefusal(t.folder, (t.folder / "run.cltraj").string(), expected, false);
  }
  static void expectRefusal(const fs::path& folder, const std::string& out, const std::string& expected,
                            bool yade) {
    try {
      if (yade) {
        importYadeRun(folder.string(), out, {});
      } else {
        importLiggghtsRun(folder.string(), out, {});
      }
      QFAIL("the import accepted a bad dump");
    } catch (const InputError& e) {
      QVERIFY2(std::string(e.what()).find(expected) != std::string::npos,
               qPrintable(QString("\"%1\" lacks \"%2\"").arg(e.what(), QString::fromStdString(expected))));
    }
    QVERIFY2(!fs::exists(out) && !fs::exists(out + ".partial"), "a refused import must write no trajectory");
  }
};

QTEST_GUILESS_MAIN(TestEngineImport)
#include "tst_engine_import.moc"
