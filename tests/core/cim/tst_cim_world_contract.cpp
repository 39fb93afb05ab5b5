// The cim and rk4 integrators in the World (Meland et al., Cluster integration method), what they promise
// besides conservation (tst_cim_world): clusters never interacting within their lifetime on a dense random
// case, no contact missed after a collision inside a cluster (and the guard that names one), the scene keys,
// the refusals, divergences reported, checkpoints and thread counts giving the same bits, and a cancelled
// step leaving the world as it was.
#include <QtTest>
#include <atomic>
#include <chrono>
#include <thread>

#include "BuildSize.hpp"
#include "CimWorlds.hpp"
#include "core/base/Errors.hpp"
#include "core/cim/ClusterIntegration.hpp"
#include "core/cim/ClusterStepper.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/scene/Scene.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

// The reviewer's case of a contact the cluster list did not see: a heavy sphere A (radius rA) at
// vA strikes a 1 mm sphere B at rest, which it sends off at up to twice vA towards a third 1 mm
// sphere C coming at vC from `gapC` beyond B: A and B form a cluster, C is alone, and B reaches C
// long before the list's lifetime (Delta / 2 over the speeds at the build) is over.
constexpr double kStrikeBuffer = 0.6e-3;  // Delta [m]
std::unique_ptr<World> struckChain(IntegratorKind kind, double dt, double rA, double vA, double gapC,
                                   double vC) {
  WorldSettings s = freeSpace(kind, dt);
  s.cim.buffer = kStrikeBuffer;
  // Tight enough that what differs from rk4 is not the tolerance: some rows end with B and C a few
  // mm/s apart after several collisions, which the default 1e-5 resolves to ~1e-3 of their speed.
  s.cim.relativeTolerance = 1e-7;
  const auto sphere = [](double r) { return templateFromPebbles({Pebble{Vec3::Zero(), r}}, 2700.0); };
  auto world = std::make_unique<World>(s, elasticSpring(1e5), std::vector<Wall>{},
                                       std::vector<TemplatePtr>{sphere(rA), sphere(1e-3)});
  world->addBody({0, Vec3(-(rA + 1e-3), 0.0, 0.0), Quat::Identity(), Vec3(vA, 0.0, 0.0), Vec3::Zero()});
  world->addBody({1, Vec3::Zero(), Quat::Identity(), Vec3::Zero(), Vec3::Zero()});
  world->addBody({1, Vec3(2e-3 + gapC, 0.0, 0.0), Quat::Identity(), Vec3(vC, 0.0, 0.0), Vec3::Zero()});
  return world;
}

}  // namespace

class CimWorldContractTest : public QObject {
  Q_OBJECT
 private slots:
  // Dense random spherocylinders and T-bar clumps (periodic in x and z, walls in y), fast and
  // spinning, through the World: the cluster list the cim integrator builds (its model of the world,
  // its lifetime: shaft ends for spherocylinders, bounding radius for clumps), then the same world
  // under rk4 at a fine step over that lifetime, checking at every step the distance of every pair
  // of bodies of different clusters. None touch, and the cim world after one step of exactly the
  // lifetime ends where rk4 does. Over fifty lifetimes such pairs do touch: the check has teeth.
  void clustersNeverInteractWithinTheirLifetime() {
    GasSpec spec;
    spec.count = 60;
    spec.length = 0.02;
    spec.speed = 0.6;
    spec.cim.buffer = 0.3e-3;
    spec.spin = 300.0;
    spec.seed = 3;
    spec.templates = {paperRod(), templateFromPebbles(tbarPebbles(), 2700.0, "tbar")};
    spec.cim.relativeTolerance = 1e-10;
    spec.walled = {false, true, false};
    auto probe = makeGas(spec);
    const WorldSettings settings = probe->model().settings;
    const auto build = [&](IntegratorKind kind, double dt) {
      WorldSettings s = settings;
      s.integrator = kind;
      s.timeStep = dt;
      auto w =
          std::make_unique<World>(s, probe->model().contact, probe->model().walls, probe->model().templates);
      const BodyState& b = probe->bodies();
      for (std::size_t i = 0; i < b.size(); ++i) {
        w->addBody(
            {b.templateIndex[i], b.position[i], b.orientation[i], b.velocity[i], b.angularVelocity[i]});
      }
      return w;
    };
    auto reference = build(IntegratorKind::Rk4, 1.0);
    const auto particles =
        cim::describeWorld({reference->model(), reference->bodies(), reference->state().loads});
    const cim::ParticleModel model = cim::makeParticleModel(particles);
    cim::ClusterStepSettings cs;
    cs.buffer = spec.cim.buffer;
    const cim::ClusterStepper stepper(model, cs);
    const cim::ClusterStepReport list = stepper.prepare(cim::bodySetOf(reference->bodies()));
    std::size_t withNeighbours = 0;
    for (std::size_t c = 0; c < list.clusters.count(); ++c)
      withNeighbours += list.clusters.membersOf(c).size() > 1;
    QVERIFY2(withNeighbours >= 5,
             qPrintable(QString("%1 clusters with neighbours of %2, largest %3, pairs %4")
                            .arg(withNeighbours)
                            .arg(list.clusters.count())
                            .arg(list.clusters.largestSize())
                            .arg(list.neighbors.pairCount())));
    std::size_t walled = 0;
    for (const std::int32_t e : list.neighbors.entries) walled += cim::NeighborCsr::isWall(e) ? 1 : 0;
    QVERIFY(walled > 0);

    // The closest approach of bodies of different clusters while rk4 runs `steps` steps over `horizon`.
    const auto closestAcross = [&](double horizon, int steps, std::unique_ptr<World>* end) {
      auto w = build(IntegratorKind::Rk4, horizon / steps);
      double closest = std::numeric_limits<double>::infinity();
      for (int k = 0; k < steps; ++k) {
        if (!w->step()) return -1.0;
        const BodyState& b = w->bodies();
        for (std::uint32_t i = 0; i < b.size(); ++i) {
          for (std::uint32_t j = i + 1; j < b.size(); ++j) {
            if (list.clusters.clusterOf[i] == list.clusters.clusterOf[j]) continue;
            const Vec3 sep = settings.periodic.minimumImage(b.position[j] - b.position[i]);
            if (sep.norm() > particles->reach[i] + particles->reach[j] + std::min(closest, 1e-3)) continue;
            closest = std::min(closest, model.surfaceDistance(i, j, sep, b.orientation[i], b.orientation[j]));
          }
        }
      }
      if (end != nullptr) *end = std::move(w);
      return closest;
    };
    std::unique_ptr<World> fine;
    const double closest = closestAcross(list.lifetime, 300, &fine);
    auto cim = build(IntegratorKind::Cim, list.lifetime);
    QVERIFY(cim->step());
    const double difference = positionDifference(*cim, *fine);
    const double later = closestAcross(50.0 * list.lifetime, 400, nullptr);
    qInfo(
        "lifetime %.3g s, %zu clusters (%zu with neighbours, largest %zu, %zu wall entries); closest "
        "approach "
        "across clusters %.3g m (buffer %.3g m) within the lifetime, %.3g m within 50; cim vs rk4 %.3g m",
        list.lifetime, list.clusters.count(), withNeighbours, list.clusters.largestSize(), walled, closest,
        cs.buffer, later, difference);
    QVERIFY2(closest > 0.0, "bodies of different clusters touched within the lifetime");
    CLUMPLAB_VERIFY_LESS(difference, 1e-8);
    QVERIFY2(later < 0.0, "the check must be able to see contacts between clusters");
  }

  // No contact is missed however fast a collision inside a cluster makes a body: over starting
  // gaps of C of 1.0-1.6 Delta (its own cluster), mass ratios of A to B of 27 and 125 and two pairs
  // of speeds, cim ends with rk4's energy and velocities (relative 1e-3). Before the displacement
  // bound, B and C met without a force in most of these rows (energy up to 5.8x its start).
  void noContactIsMissedAfterACollisionInsideACluster_data() {
    QTest::addColumn<double>("gapInBuffers");
    QTest::addColumn<double>("radiusA");
    QTest::addColumn<double>("speedA");
    QTest::addColumn<double>("speedC");
    for (const double gap : {1.0, 1.05, 1.2, 1.4, 1.6}) {
      for (const double rA : {3e-3, 5e-3}) {
        for (const auto& [vA, vC] : {std::pair{1.0, -1.0}, std::pair{2.0, -0.3}}) {
          QTest::addRow("gap %.2f, rA %.0f mm, vA %.1f, vC %.1f", gap, rA * 1e3, vA, vC)
              << gap << rA << vA << vC;
        }
      }
    }
  }
  void noContactIsMissedAfterACollisionInsideACluster() {
    QFETCH(double, gapInBuffers);
    QFETCH(double, radiusA);
    QFETCH(double, speedA);
    QFETCH(double, speedC);
    constexpr double kDuration = 3e-3;  // [s]: every collision of the chain is over
    auto cim = struckChain(IntegratorKind::Cim, 1e-4, radiusA, speedA, gapInBuffers * kStrikeBuffer, speedC);
    auto rk4 = struckChain(IntegratorKind::Rk4, 2e-7, radiusA, speedA, gapInBuffers * kStrikeBuffer, speedC);
    const double start = cim->energy().total();
    QVERIFY(runSteps(*cim, std::lround(kDuration / 1e-4)));
    QVERIFY(runSteps(*rk4, std::lround(kDuration / 2e-7)));
    double fastest = 0.0;
    for (const Vec3& v : rk4->bodies().velocity) fastest = std::max(fastest, v.norm());
    QVERIFY2(rk4->bodies().velocity[2].x() > 0.0, "C must be struck");
    for (std::size_t b = 0; b < 3; ++b) {
      CLUMPLAB_VERIFY_LESS((cim->bodies().velocity[b] - rk4->bodies().velocity[b]).norm(), 1e-3 * fastest);
    }
    CLUMPLAB_COMPARE_REL(cim->energy().total(), rk4->energy().total(), 1e-3);
    CLUMPLAB_COMPARE_REL(cim->energy().total(), start, 1e-3);
  }

  // The guard behind the bound: with the bound off (a test-only switch), the list misses the
  // contact of B and C, and building the next list finds them overlapping although they were in
  // different clusters. Taking the list again cannot help without the bound, so the interval
  // stops, naming the two bodies; with the bound the same interval is fine and retakes nothing.
  void aMissedContactIsFoundAndNamed() {
    auto world = struckChain(IntegratorKind::Cim, 1e-4, 5e-3, 1.0, 1.05 * kStrikeBuffer, -1.0);
    const auto particles = cim::describeWorld({world->model(), world->bodies(), world->state().loads});
    for (const bool bound : {false, true}) {
      cim::ClusterStepSettings settings;
      settings.buffer = kStrikeBuffer;
      settings.boundDisplacements = bound;
      cim::ClusterIntegration integration(cim::makeParticleModel(particles), settings);
      cim::RigidBodySet state = cim::bodySetOf(world->bodies());
      cim::IntervalReport report;
      std::size_t bounded = 0, retaken = 0;
      for (int n = 0; n < 30 && report.ok; ++n) {
        report = integration.advance(state, 1e-3);
        bounded += report.boundedPasses;
        retaken += report.retakenLists;
      }
      if (bound) {
        QVERIFY2(report.ok, report.problem.c_str());
        QVERIFY(bounded > 0);
        QCOMPARE(retaken, std::size_t{0});
        continue;
      }
      QVERIFY(!report.ok);
      QVERIFY(report.missedBodies.has_value());
      QCOMPARE(report.missedBodies->first, 1u);
      QCOMPARE(report.missedBodies->second, 2u);
      QVERIFY2(QString::fromStdString(report.problem).contains("bodies 1 and 2"), report.problem.c_str());
    }
  }

  // Scene files: "integrator": "cim" | "rk4" and the "cim" block read, written back and read again
  // the same; a misspelt key or a bad value is an error naming the field; what they cannot do is
  // refused at the integrator key, saying what to change.
  void sceneKeysRoundTripAndErrorsNameTheField() {
    const std::string scene = R"({
      "format": "clumplab-scene/1", "time_step": 1e-3, "integrator": "cim", "gravity": [0, 0, 0],
      "periodic": {"min": [0, 0, 0], "max": [0.05, 0.05, 0.05], "axes": "xyz"},
      "cim": {"buffer": 6e-4, "rtol": 1e-6, "atol": 1e-18, "min_step": 3.3e-6, "max_step": 1e-4},
      "contact": {"model": "linear", "stiffness": 2e4, "damping": 0},
      "templates": {"rod": {"shape": "spherocylinder", "radius": 1e-3, "length": 4e-3, "density": 2700}},
      "bodies": [{"template": "rod", "position": [0.01, 0.01, 0.01], "velocity": [0.4, 0, 0]}]})";
    const Scene a = parseScene(scene, "cim.json");
    QCOMPARE(a.model.settings.integrator, IntegratorKind::Cim);
    QCOMPARE(a.model.settings.cim.buffer, 6e-4);
    QCOMPARE(a.model.settings.cim.relativeTolerance, 1e-6);
    QCOMPARE(a.model.settings.cim.absoluteTolerance, 1e-18);
    QCOMPARE(a.model.settings.cim.minStep, 3.3e-6);
    QCOMPARE(a.model.settings.cim.maxStep, 1e-4);
    auto world = buildWorld(a);
    QVERIFY(runSteps(*world, 3));
    const Scene b = parseScene(sceneToJson(sceneFromWorld(*world, a), "."), "saved.json");
    QVERIFY(b.model.settings.cim == a.model.settings.cim);
    QCOMPARE(b.model.settings.integrator, IntegratorKind::Cim);
    QVERIFY(b.model.settings.periodic == a.model.settings.periodic);
    // Defaults: an rk4 scene without the block writes the defaults, which read back the same.
    std::string rk4 = scene;
    rk4.replace(rk4.find("\"cim\", \"gravity\""), 5, "\"rk4\"");
    rk4.replace(rk4.find("\"cim\": {"), rk4.find("\"contact\"") - rk4.find("\"cim\": {"), "");
    const Scene c = parseScene(rk4, "rk4.json");
    QCOMPARE(c.model.settings.integrator, IntegratorKind::Rk4);
    QVERIFY(c.model.settings.cim == CimSettings{});
    const Scene d = parseScene(sceneToJson(c, "."), "saved.json");
    QVERIFY(d.model.settings.cim == CimSettings{});

    const auto fails = [&](const std::string& from, const std::string& to, const QString& expected) {
      std::string text = scene;
      const auto at = text.find(from);
      QVERIFY2(at != std::string::npos, from.c_str());
      text.replace(at, from.size(), to);
      try {
        parseScene(text, "cim.json");
        QFAIL(qPrintable("no error for " + QString::fromStdString(to)));
      } catch (const InputError& e) {
        QVERIFY2(QString(e.what()).contains(expected), e.what());
      }
    };
    fails("\"rtol\": 1e-6", "\"rtoll\": 1e-6", "cim");
    fails("\"rtol\": 1e-6", "\"rtoll\": 1e-6", "rtoll");
    fails("\"rtol\": 1e-6", "\"rtol\": -1", "cim.rtol");
    fails("\"buffer\": 6e-4", "\"buffer\": -1e-4", "cim.buffer");
    // A buffer of 0 is the automatic one, in a file as in the engine (the loader once refused it).
    std::string automatic = scene;
    const std::string given = "\"buffer\": 6e-4";
    automatic.replace(automatic.find(given), given.size(), "\"buffer\": 0");
    QCOMPARE(parseScene(automatic, "cim.json").model.settings.cim.buffer, 0.0);
    fails("\"min_step\": 3.3e-6", "\"min_step\": -1", "cim.min_step");
    fails("\"integrator\": \"cim\"", "\"integrator\": \"cimm\"", "rk4");
    fails("\"damping\": 0}", "\"damping\": 0, \"friction\": 0.5}", "tangential_stiffness_ratio");
    fails("\"damping\": 0}", "\"damping\": 0, \"friction\": 0.5}", "integrator");
    fails("\"gravity\": [0, 0, 0]", "\"gravity\": [0, 0, 0], \"fields\": {\"electric\": [1, 0, 0]}",
          "fields");
    fails("\"gravity\": [0, 0, 0]", "\"gravity\": [0, 0, 0], \"gyroscopic\": false", "gyroscopic");
    fails("\"velocity\": [0.4, 0, 0]", "\"velocity\": [0.4, 0, 0], \"charge\": 1e-9", "charges");
  }

  // The World refuses what cim and rk4 cannot do, at construction and in its setters (leaving the
  // world as it was), and takes what they can (a tangential dashpot without a spring).
  void refusesWhatItCannotDo() {
    WorldSettings s = freeSpace(IntegratorKind::Cim, 1e-3);
    const std::vector<TemplatePtr> templates = {paperRod()};
    const auto message = [](auto&& make) -> QString {
      try {
        make();
      } catch (const std::invalid_argument& e) {
        return e.what();
      }
      return {};
    };
    const QString spring = message([&] { World w(s, linearContact(1e4, 0.5, 0.4), {}, templates); });
    QVERIFY2(spring.contains("cim") && spring.contains("friction") && spring.contains("tangential"),
             qPrintable(spring));
    WorldSettings plane = s;
    plane.plane.enabled = true;
    QVERIFY(message([&] { World w(plane, elasticSpring(), {}, templates); }).contains("plane"));

    World world(s, elasticSpring(), {}, templates);
    world.addBody({0, Vec3::Zero(), Quat::Identity(), Vec3(0.1, 0, 0)});
    QVERIFY(message([&] {
              world.editModel([&](EditableModel& m) { m.contact = linearContact(1e4, 0.5, 0.4); });
            }).contains("tangential"));
    QVERIFY(world.model().contact == elasticSpring());
    FieldSettings fields;
    fields.electric = Vec3(1, 0, 0);
    QVERIFY(
        message([&] { world.editModel([&](EditableModel& m) { m.fields = fields; }); }).contains("fields"));
    QVERIFY(message([&] {
              world.editModel([&](EditableModel& m) { m.gyroscopic = false; });
            }).contains("gyroscopic"));
    PointProperties charged;
    charged.charge = 1e-9;
    QVERIFY(message([&] { world.setPointProperties(0, charged); }).contains("charges"));
    QVERIFY(message([&] { world.addBody({0, Vec3(0.01, 0, 0)}, charged); }).contains("charges"));
    QCOMPARE(world.bodies().size(), std::size_t(1));
    ContactModel dashpotOnly = linearContact(1e4, 0.5, 0.4);
    dashpotOnly.linear.tangentialStiffnessRatio = 0.0;
    dashpotOnly.linear.tangentialDamping = 0.01;
    world.editModel([&](EditableModel& m) { m.contact = dashpotOnly; });
    QVERIFY(runSteps(world, 2));
    // The settings block, edited live: bad values refused, good ones taken.
    CimSettings cim = world.model().settings.cim;
    cim.relativeTolerance = -1.0;
    QVERIFY(message([&] { world.editModel([&](EditableModel& m) { m.cim = cim; }); }).contains("rtol"));
    cim.relativeTolerance = 1e-6;
    cim.minStep = -1.0;
    QVERIFY(message([&] { world.editModel([&](EditableModel& m) { m.cim = cim; }); }).contains("min_step"));
    cim.minStep = 1e-6;
    world.editModel([&](EditableModel& m) { m.cim = cim; });
    QCOMPARE(world.model().settings.cim.minStep, 1e-6);
    QVERIFY(runSteps(world, 2));
    // A leapfrog world with friction cannot switch to cim; one without can, and back.
    World leapfrog(freeSpace(IntegratorKind::Leapfrog, 1e-5), linearContact(1e4, 0.5, 0.4), {}, templates);
    QVERIFY(message([&] {
              leapfrog.editModel([&](EditableModel& m) {
                m.integrator = IntegratorKind::Cim;
                m.eulerIterations = 4;
              });
            }).contains("tangential"));
    QCOMPARE(leapfrog.model().settings.integrator, IntegratorKind::Leapfrog);
    World elastic(freeSpace(IntegratorKind::Leapfrog, 1e-5), elasticSpring(), {}, templates);
    elastic.addBody({0, Vec3::Zero(), Quat::Identity(), Vec3(0.1, 0, 0)});
    elastic.editModel([&](EditableModel& m) {
      m.integrator = IntegratorKind::Cim;
      m.eulerIterations = 4;
    });
    QVERIFY(runSteps(elastic, 2));
    elastic.editModel([&](EditableModel& m) {
      m.integrator = IntegratorKind::Leapfrog;
      m.eulerIterations = 4;
    });
    QVERIFY(runSteps(elastic, 2));
    CLUMPLAB_COMPARE_REL(elastic.bodies().position[0].x(), 0.1 * elastic.time(), 1e-12);
  }

  // A run that goes wrong stops with the reason: an overlap beyond half a radius (here a spring so
  // soft that the bodies sink through each other) under rk4 and cim, the latter's message naming
  // its settings; and a cluster whose RKF runs out of steps reports it.
  void divergenceIsReported() {
    for (const IntegratorKind kind : {IntegratorKind::Rk4, IntegratorKind::Cim}) {
      auto world = collision(kind, kind == IntegratorKind::Cim ? 1e-3 : 1e-5, elasticSpring(10.0));
      bool stopped = false;
      for (int n = 0; n < 20000 && !stopped; ++n) stopped = !world->step();
      QVERIFY(stopped);
      const QString message = QString::fromStdString(world->state().divergence.message);
      QVERIFY2(world->state().divergence.happened && message.contains("half a pebble radius"),
               qPrintable(message));
      if (kind == IntegratorKind::Cim) QVERIFY2(message.contains("cim.min_step"), qPrintable(message));
      QVERIFY(!world->step());  // stays stopped
    }
    auto world = collision(IntegratorKind::Cim, 1e-3, elasticSpring(1e4));
    const auto particles = cim::describeWorld({world->model(), world->bodies(), world->state().loads});
    cim::ClusterStepSettings settings;
    settings.buffer = 0.6e-3;
    settings.rkf.maxSteps = 5;
    cim::ClusterIntegration integration(cim::makeParticleModel(particles), settings);
    cim::RigidBodySet state = cim::bodySetOf(world->bodies());
    cim::IntervalReport report;
    for (int n = 0; n < 30 && report.ok; ++n) report = integration.advance(state, 1e-3);
    QVERIFY(!report.ok);
    QVERIFY2(QString::fromStdString(report.problem).contains("Runge-Kutta-Fehlberg"), report.problem.c_str());
  }

  // Checkpoints: restore, then the same steps give the same bits, also when the cluster list
  // outlives a World step (cim at a step well below the lifetime carries the list on) and when
  // bodies were added and removed in between; and the thread count changes nothing.
  void checkpointsAndThreadsGiveTheSameBits_data() {
    QTest::addColumn<IntegratorKind>("kind");
    QTest::addColumn<double>("dt");
    QTest::newRow("cim, steps of a whole list") << IntegratorKind::Cim << 2e-3;
    QTest::newRow("cim, lists across steps") << IntegratorKind::Cim << 5e-5;
    QTest::newRow("rk4") << IntegratorKind::Rk4 << 5e-6;
  }
  void checkpointsAndThreadsGiveTheSameBits() {
    QFETCH(IntegratorKind, kind);
    QFETCH(double, dt);
    GasSpec spec;
    spec.kind = kind;
    spec.timeStep = dt;
    spec.count = 60;
    spec.contact = linearContact(1e4, 0.7, 0.0);
    auto world = makeGas(spec);
    const long steps = std::lround(0.01 / dt);
    QVERIFY(runSteps(*world, steps));
    const WorldCheckpoint saved = world->checkpoint();
    const double dissipated = world->state().ledger.dissipated;
    QVERIFY(runSteps(*world, steps));
    const std::uint64_t first = stateHash(*world);
    const double firstDissipated = world->state().ledger.dissipated;
    world->restore(saved);
    QCOMPARE(world->state().ledger.dissipated, dissipated);
    QVERIFY(runSteps(*world, steps));
    QCOMPARE(stateHash(*world), first);
    QCOMPARE(world->state().ledger.dissipated, firstDissipated);
    QVERIFY(firstDissipated > dissipated);

    spec.threads = 2;
    auto threaded = makeGas(spec);
    QVERIFY(runSteps(*threaded, 2 * steps));
    QCOMPARE(stateHash(*threaded), first);

    // Edits: a body added and one removed; the runs after a checkpoint still repeat.
    world->addBody({0, Vec3(0.001, 0.001, 0.001), Quat::Identity(), Vec3(0, 0, 0.3)});
    world->removeBody(5);
    QVERIFY(runSteps(*world, steps));
    const WorldCheckpoint edited = world->checkpoint();
    QVERIFY(runSteps(*world, steps));
    const std::uint64_t afterEdits = stateHash(*world);
    world->restore(edited);
    QVERIFY(runSteps(*world, steps));
    QCOMPARE(stateHash(*world), afterEdits);
  }

  // World::setStepCancel: a cim step cancelled (before it starts, or from another thread while its
  // clusters integrate) returns false with no divergence and leaves the world as it was, clock,
  // bodies and carried cluster list; taken again it gives the bits of a step never cancelled.
  void aCancelledStepLeavesTheWorldAsItWas_data() {
    QTest::addColumn<double>("dt");
    QTest::addColumn<int>("cancelAfterMs");  // -1: the flag is set before the step
    QTest::newRow("before, steps of a whole list") << 2e-3 << -1;
    QTest::newRow("before, lists across steps") << 5e-5 << -1;
    QTest::newRow("during, steps of a whole list") << 2e-2 << 5;
  }
  void aCancelledStepLeavesTheWorldAsItWas() {
    QFETCH(double, dt);
    QFETCH(int, cancelAfterMs);
    GasSpec spec;
    spec.timeStep = dt;
    const bool during = cancelAfterMs >= 0;
    spec.count = during ? 80 : 60;
    // During: a stiff contact at a large step, whose step takes ~0.6 s here (cancelled after 5 ms);
    // under the sanitizers 10x softer, a step of ~0.2 s in a release build and still far over 5 ms.
    spec.contact = linearContact(during ? sizedForBuild(3e7, 3e6) : 1e4, 0.7, 0.0);
    auto world = makeGas(spec);
    auto twin = makeGas(spec);
    std::atomic<bool> cancel{false};
    world->setStepCancel(&cancel);
    const long steps = std::max(1L, std::lround(0.004 / dt));
    QVERIFY(runSteps(*world, steps));
    QVERIFY(runSteps(*twin, steps));
    const std::uint64_t before = stateHash(*world);
    const double time = world->time();
    const double dissipated = world->state().ledger.dissipated;
    QCOMPARE(before, stateHash(*twin));

    bool stepped = false;
    if (!during) {
      cancel = true;
      stepped = world->step();
    } else {
      std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(cancelAfterMs));
        cancel = true;
      });
      QElapsedTimer clock;
      clock.start();
      stepped = world->step();
      canceller.join();
      qInfo("the step ran %lld ms before it was cancelled", static_cast<long long>(clock.elapsed()));
    }
    QVERIFY2(!stepped, "the step was expected to outlast the cancel");
    QVERIFY(!world->state().divergence.happened);
    QCOMPARE(world->time(), time);
    QCOMPARE(world->state().ledger.dissipated, dissipated);
    QCOMPARE(stateHash(*world), before);

    cancel = false;
    QVERIFY(runSteps(*world, 1));
    QVERIFY(runSteps(*twin, 1));
    QCOMPARE(stateHash(*world), stateHash(*twin));
    QCOMPARE(world->state().ledger.dissipated, twin->state().ledger.dissipated);
  }
};

QTEST_GUILESS_MAIN(CimWorldContractTest)
#include "tst_cim_world_contract.moc"
