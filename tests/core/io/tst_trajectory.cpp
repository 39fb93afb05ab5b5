// Trajectory files (clumplab-trajectory/1): poses and velocities round-trip to the bit with the
// scene embedded and the template keys that map frames onto it; a file cut short or not a
// trajectory is refused with the file and the byte offset named; an unfinished file never looks
// complete.
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>

#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/io/Trajectory.hpp"
#include "core/scene/Scene.hpp"

using namespace clumplab;

namespace {
// T-bars of two sizes (generated scaled copies share the name "tbar") falling into a box.
const char* kScene = R"({
  "format": "clumplab-scene/1", "time_step": 1e-5, "integrator": "leapfrog",
  "contact": { "model": "linear", "stiffness": 1e3, "restitution": 0.5, "friction": 0.5 },
  "walls": [ { "type": "box", "min": [-0.03, -0.03, 0], "max": [0.03, 0.03, 0.08] } ],
  "templates": { "tbar": { "density": 2500, "inertia": "pebbles",
      "pebbles": [[0, 0, 0, 0.001], [0, 0, 0.002, 0.001], [0, 0, 0.004, 0.001], [-0.002, 0, 0.005, 0.001],
                  [0, 0, 0.005, 0.001], [0.002, 0, 0.005, 0.001]] },
                 "ball": { "density": 1000, "pebbles": [[0, 0, 0, 0.002]] } },
  "bodies": [ { "template": "ball", "position": [0, 0, 0.003] } ],
  "generate": [ { "template": "tbar", "count": 12, "region": { "min": [-0.02, -0.02, 0.01], "max": [0.02, 0.02, 0.05] },
                  "random_orientation": true, "scale": [0.8, 1.2], "seed": 5 } ]
})";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}
}  // namespace

class TestTrajectory : public QObject {
  Q_OBJECT

 private slots:
  void posesRoundTripExactlyWithTheSceneEmbedded() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("run.cltraj")).toStdString();
    const Scene scene = parseScene(kScene, "pile.json");
    auto world = buildWorld(scene);
    std::vector<BodyState> recorded;
    std::vector<double> times;
    {
      TrajectoryWriter writer(path, sceneToJson(sceneFromWorld(*world, scene), dir.path().toStdString()),
                              templateKeys(world->model().templates));
      for (int n = 0; n <= 300; ++n) {
        if (n % 50 == 0) {
          writer.append(world->time(), world->stepCount(), world->bodies());
          recorded.push_back(world->bodies());
          times.push_back(world->time());
        }
        QVERIFY(world->step());
      }
      QVERIFY2(!std::filesystem::exists(path), "an unfinished trajectory is not at its final path");
      writer.close();
      QCOMPARE(writer.frames(), recorded.size());
    }
    const Trajectory t = readTrajectory(path);
    QCOMPARE(t.frames.size(), recorded.size());
    for (std::size_t k = 0; k < recorded.size(); ++k) {
      const TrajectoryFrame& f = t.frames[k];
      QCOMPARE(f.time, times[k]);
      QCOMPARE(f.bodies.size(), recorded[k].size());
      for (std::size_t b = 0; b < f.bodies.size(); ++b) {
        QCOMPARE(f.bodies.templateIndex[b], recorded[k].templateIndex[b]);
        QVERIFY(f.bodies.position[b] == recorded[k].position[b]);  // bit for bit
        QVERIFY(f.bodies.orientation[b].coeffs() == recorded[k].orientation[b].coeffs());
        QVERIFY(f.bodies.velocity[b] == recorded[k].velocity[b]);
        QVERIFY(f.bodies.angularVelocity[b] == recorded[k].angularVelocity[b]);
      }
    }
    // The embedded scene loads, and the keys map every frame's template onto its template.
    const Scene embedded = parseScene(t.sceneJson, path);
    QCOMPARE(t.templateKeys.size(), world->model().templates.size());
    for (std::size_t i = 0; i < t.templateKeys.size(); ++i) {
      const auto it = std::find_if(embedded.model.templates.begin(), embedded.model.templates.end(),
                                   [&](const TemplatePtr& p) { return p->name == t.templateKeys[i]; });
      QVERIFY2(it != embedded.model.templates.end(), t.templateKeys[i].c_str());
      QCOMPARE((*it)->mass, world->model().templates[i]->mass);
      QVERIFY((*it)->principalMoments == world->model().templates[i]->principalMoments);
    }
    // Scaled copies of "tbar" have keys of their own.
    QVERIFY(std::count_if(t.templateKeys.begin(), t.templateKeys.end(),
                          [](const std::string& k) { return k.rfind("tbar", 0) == 0; }) > 1);
  }

  // abandon(): no file at the path and no partial one (an import that met bad input); a writer
  // destroyed without it keeps what it wrote (a recording the app was stopped in).
  void abandonLeavesNoFile() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("run.cltraj")).toStdString();
    const Scene scene = parseScene(kScene, "pile.json");
    auto world = buildWorld(scene);
    {
      TrajectoryWriter writer(path, sceneToJson(scene, dir.path().toStdString()),
                              templateKeys(world->model().templates));
      writer.append(world->time(), world->stepCount(), world->bodies());
      QVERIFY(std::filesystem::exists(path + ".partial"));
      writer.abandon();
      writer.abandon();  // twice is harmless
    }
    QVERIFY(!std::filesystem::exists(path) && !std::filesystem::exists(path + ".partial"));
    {
      TrajectoryWriter writer(path, sceneToJson(scene, dir.path().toStdString()),
                              templateKeys(world->model().templates));
      writer.append(world->time(), world->stepCount(), world->bodies());
    }
    QCOMPARE(readTrajectory(path).frames.size(), std::size_t{1});
  }

  void damagedFilesAreRefusedWithTheOffset() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("run.cltraj")).toStdString();
    const Scene scene = parseScene(kScene, "pile.json");
    auto world = buildWorld(scene);
    {
      TrajectoryWriter writer(path, "{}", templateKeys(world->model().templates));
      writer.append(world->time(), world->stepCount(), world->bodies());
      writer.append(world->time(), world->stepCount(), world->bodies());
    }
    const std::string bytes = slurp(path);
    const std::string cut = dir.filePath(QStringLiteral("cut.cltraj")).toStdString();
    spit(cut, bytes.substr(0, bytes.size() - 7));
    try {
      readTrajectory(cut);
      QFAIL("a truncated trajectory was read");
    } catch (const InputError& e) {
      const std::string what = e.what();
      QVERIFY2(what.find("cut.cltraj") != std::string::npos && what.find("byte") != std::string::npos &&
                   what.find("truncated") != std::string::npos,
               e.what());
    }
    const std::string other = dir.filePath(QStringLiteral("other.cltraj")).toStdString();
    spit(other, "{\"format\": \"clumplab-scene/1\"}");
    try {
      readTrajectory(other);
      QFAIL("a scene file was read as a trajectory");
    } catch (const InputError& e) {
      QVERIFY2(std::string(e.what()).find("not a ClumpLab trajectory") != std::string::npos, e.what());
    }
    try {
      readTrajectory(dir.filePath(QStringLiteral("missing.cltraj")).toStdString());
      QFAIL("a missing trajectory was read");
    } catch (const InputError& e) {
      QVERIFY2(std::string(e.what()).find("missing.cltraj") != std::string::npos, e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestTrajectory)
#include "tst_trajectory.moc"
