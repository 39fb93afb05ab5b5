// The simulation thread without a window (SimulationLoop): the GUI's commands applied between
// steps and seen in the frames, single steps each giving an energy sample, a step back that
// replays to the same bits, commands naming a body refused once indices shifted, the paused drag,
// run-until, and saving the live state. Labelled threads: the tsan preset runs it.
#include <QtTest>
#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

#include <unistd.h>

#include "BuildSize.hpp"
#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/scene/Scene.hpp"
#include "sim/SimulationLoop.hpp"

using namespace clumplab;
using namespace clumplab::sim;

namespace {
std::shared_ptr<const Scene> twoTbars() {
  // Two spinning T-bars that collide head on after ~4 ms (2 us steps, Hertz contact, gravity).
  return std::make_shared<const Scene>(loadScene(std::string(CLUMPLAB_SCENES_DIR) + "/order-two-tbars.json"));
}

// Takes frames until one satisfies `ready` that reflects every command posted so far. The bound
// only keeps a broken loop from hanging the suite; no verdict depends on the machine's speed.
template <class Ready>
bool waitFor(SimulationLoop& loop, Ready ready) {
  const std::uint64_t posted = loop.commandsPosted();
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(test::wallClockMs(120000));
  while (std::chrono::steady_clock::now() < deadline) {
    loop.acquireFrame();
    const SimulationFrame& f = loop.frame();
    if (f.commandsApplied >= posted && ready(f)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

BodyRef firstBody(const SimulationFrame& f) {
  return {0, f.bodyIndexGeneration};
}
}  // namespace

class TestSimulationLoop : public QObject {
  Q_OBJECT
 private slots:
  void singleStepsEachGiveASample() {
    SimulationLoop loop;
    loop.loadScene(twoTbars(), false);
    QVERIFY(waitFor(loop, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 2; }));
    QVERIFY(loop.frame().stats.paused);
    loop.singleStep(7);
    QVERIFY(waitFor(loop, [](const SimulationFrame& f) { return f.snapshot.steps == 7; }));
    QVERIFY(loop.frame().stats.paused);
    QCOMPARE(loop.frame().sceneFile, twoTbars()->file);
    std::vector<EnergySample> samples;
    loop.takeEnergySamples(samples);
    QCOMPARE(samples.size(), std::size_t{8});  // the initial state and one per single step
    for (std::size_t k = 0; k < samples.size(); ++k) QCOMPARE(samples[k].steps, std::uint64_t{k});
    // A paused frame published again adds no sample.
    loop.setSpeed(0.5, false);
    QVERIFY(waitFor(loop, [](const SimulationFrame& f) { return f.stats.targetSpeed == 0.5; }));
    samples.clear();
    loop.takeEnergySamples(samples);
    QCOMPARE(samples.size(), std::size_t{0});
  }

  void stepBackReplaysToTheSameBits() {
    SimulationLoop loop;
    loop.loadScene(twoTbars(), false);
    loop.setHistoryLimits(StateHistory::kDefaultCapBytes, StateHistory::kDefaultMaxStates);
    // 1/30 s of history interval is longer than this whole run: the states held are the start
    // and the ones each step back and edit leave. Step 2500 is past the collision's start.
    loop.singleStep(2500);
    QVERIFY(waitFor(loop, [](const SimulationFrame& f) { return f.snapshot.steps == 2500; }));
    const SnapshotBodies first = loop.frame().snapshot.bodies;
    QVERIFY(loop.frame().history.canStepBack);
    loop.stepBack();
    QVERIFY(waitFor(loop, [](const SimulationFrame& f) { return f.snapshot.steps == 0; }));
    QVERIFY(!test::sameBits(loop.frame().snapshot.bodies, first));
    loop.singleStep(2500);
    QVERIFY(waitFor(loop, [](const SimulationFrame& f) { return f.snapshot.steps == 2500; }));
    QVERIFY(test::sameBits(loop.frame().snapshot.bodies, first));
  }

  void aBodyChosenBeforeADeletionIsNotTouched() {
    SimulationLoop loop;
    loop.loadScene(twoTbars(), false);
    QVERIFY(waitFor(loop, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 2; }));
    const BodyRef chosen = firstBody(loop.frame());
    const Vec3 second = loop.frame().snapshot.bodies.position[1];
    loop.removeBody(chosen);
    QVERIFY(waitFor(loop, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 1; }));
    QCOMPARE(loop.frame().snapshot.bodies.position[0], second);  // body 1 is body 0 now
    QVERIFY(loop.frame().bodyIndexGeneration != chosen.generation);
    // The same reference again: index 0 now names the other body, so nothing happens.
    loop.removeBody(chosen);
    loop.drag({chosen, Vec3::Zero(), Vec3(1, 1, 1)});
    loop.setBodySpin(chosen, Vec3(100, 0, 0), 0);
    loop.singleStep(1);
    QVERIFY(waitFor(loop, [](const SimulationFrame& f) { return f.snapshot.steps == 1; }));
    QCOMPARE(loop.frame().snapshot.bodies.size(), std::size_t{1});
    QVERIFY((loop.frame().snapshot.bodies.position[0] - second).norm() < 1e-3);
    QVERIFY(loop.frame().snapshot.bodies.angularVelocity[0].norm() < 50.0);
  }

  void aPausedDragPutsTheGrabbedPointOnTheCursor() {
    SimulationLoop loop;
    loop.loadScene(twoTbars(), false);
    QVERIFY(waitFor(loop, [](const SimulationFrame& f) { return f.snapshot.bodies.size() == 2; }));
    const DragTarget drag{firstBody(loop.frame()), Vec3(0.001, 0.0, 0.002), Vec3(0.02, 0.03, 0.04)};
    loop.drag(drag);
    QVERIFY(waitFor(loop, [&](const SimulationFrame& f) {
      const SnapshotBodies& b = f.snapshot.bodies;
      return (b.position[0] + b.orientation[0] * drag.anchorInBody - drag.target).norm() < 1e-15;
    }));
    QCOMPARE(loop.frame().snapshot.bodies.velocity[0], Vec3::Zero().eval());
    loop.endDrag();
    loop.singleStep(3);
    QVERIFY(waitFor(loop, [](const SimulationFrame& f) { return f.snapshot.steps == 3; }));
  }

  void runUntilPausesAtThatTime() {
    SimulationLoop loop;
    loop.loadScene(twoTbars(), false);
    loop.runUntil(0.001);  // 500 steps of 2 us, as fast as possible
    QVERIFY(waitFor(loop, [](const SimulationFrame& f) { return f.stats.paused && f.snapshot.steps > 0; }));
    QCOMPARE(loop.frame().snapshot.steps, std::uint64_t{500});
    QVERIFY(loop.frame().problem.empty());
  }

  void saveWritesTheLiveState() {
    const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                         ("clumplab-tst-simulation-loop-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    const std::string path = (folder / "saved.json").string();
    SimulationLoop loop;
    loop.loadScene(twoTbars(), false);
    loop.singleStep(100);
    QVERIFY(waitFor(loop, [](const SimulationFrame& f) { return f.snapshot.steps == 100; }));
    std::promise<std::string> saved;
    loop.saveScene(path, [&](const std::string& error) { saved.set_value(error); });
    QCOMPARE(saved.get_future().get(), std::string());
    const std::unique_ptr<World> reloaded = buildWorld(loadScene(path));
    QCOMPARE(reloaded->bodies().size(), std::size_t{2});
    QCOMPARE(reloaded->bodies().position[0], loop.frame().snapshot.bodies.position[0]);
    QCOMPARE(reloaded->time(), loop.frame().snapshot.time);
    // A folder that does not exist: the error names the file.
    std::promise<std::string> refused;
    const std::string nowhere = (folder / "missing" / "x.json").string();
    loop.saveScene(nowhere, [&](const std::string& error) { refused.set_value(error); });
    const std::string error = refused.get_future().get();
    QVERIFY2(error.find("x.json") != std::string::npos, error.c_str());
    std::filesystem::remove_all(folder);
  }
};

QTEST_APPLESS_MAIN(TestSimulationLoop)
#include "tst_simulation_loop.moc"
