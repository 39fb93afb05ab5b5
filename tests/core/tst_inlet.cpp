// Inlets (core/world/Inlet.hpp, Woo's inlets): inserted mass follows the rate, no body is inserted
// overlapping another or a wall, orientations are uniform, runs are deterministic (two runs, 1 and 2
// threads, checkpoint and restore), a full region says so, scenes round-trip, bad input names its
// JSON path, and total + dissipated - inserted energy is conserved.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "BuildSize.hpp"
#include "MeshWallSupport.hpp"
#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/clump/ShaftDistance.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/scene/Scene.hpp"
#include "core/world/Generation.hpp"
#include "core/world/Inlet.hpp"
#include "core/world/World.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

// A dumbbell of two 1 mm pebbles 3 mm apart: a second template, lighter than the T-bar.
std::vector<Pebble> dumbbellPebbles() {
  return {Pebble{Vec3(0, 0, -1.5e-3), 1e-3}, Pebble{Vec3(0, 0, 1.5e-3), 1e-3}};
}

struct Setup {
  double massRate = 2e-3;  // [kg/s]
  double maxMass = std::numeric_limits<double>::infinity();
  std::uint64_t maxCount = std::numeric_limits<std::uint64_t>::max();
  InletRegion region;
  Vec3 gravity = Vec3(0, 0, -9.81);
  Vec3 velocity = Vec3(0, 0, -0.5);
  double spread = 0.1;
  int threads = 1;
  double dt = 2e-5;
  std::vector<double> weights = {2.0, 1.0};
  double friction = 0.3;
  IntegratorKind integrator = IntegratorKind::Leapfrog;
};

// A tall box (4 x 4 x 30 cm) with an inlet in its top that pours T-bars and dumbbells.
std::unique_ptr<World> makeWorld(const Setup& s) {
  WorldSettings settings;
  settings.timeStep = s.dt;
  settings.gravity = s.gravity;
  settings.threads = s.threads;
  settings.integrator = s.integrator;
  auto world = std::make_unique<World>(
      settings, linearContact(2e3, 0.5, s.friction), Wall::box(Vec3(-0.02, -0.02, 0), Vec3(0.02, 0.02, 0.3)),
      std::vector<TemplatePtr>{templateFromPebbles(tbarPebbles(), 2500.0, "tbar"),
                               templateFromPebbles(dumbbellPebbles(), 2500.0, "dumbbell")});
  InletSettings in;
  in.region = s.region;
  if (in.region.max == in.region.min) {
    in.region.min = Vec3(-0.018, -0.018, 0.24);
    in.region.max = Vec3(0.018, 0.018, 0.29);
  }
  in.templates = {0, 1};
  in.weights = s.weights;
  in.massRate = s.massRate;
  in.maxMass = s.maxMass;
  in.maxCount = s.maxCount;
  in.velocity = s.velocity;
  in.velocitySpread = s.spread;
  in.seed = 7;
  world->addInlet(Inlet(in));
  return world;
}

double bodyMassSum(const World& w) {
  double m = 0.0;
  for (std::size_t b = 0; b < w.bodies().size(); ++b) m += w.bodies().mass[b];
  return m;
}

// Smallest surface gap [m] between a pebble of body `b` and any pebble of another body or a wall
// (negative: an overlap), by brute force over every pebble of the world.
double smallestGap(const World& w, std::size_t b) {
  const BodyState& s = w.bodies();
  double gap = std::numeric_limits<double>::infinity();
  const auto pebblesOf = [&](std::size_t i) { return w.templates()[s.templateIndex[i]]->pebbles; };
  for (const Pebble& p : pebblesOf(b)) {
    const Vec3 x = s.position[b] + s.orientation[b] * p.center;
    for (const Wall& wall : w.walls()) gap = std::min(gap, wall.clearance(x, w.time()) - p.radius);
    for (std::size_t o = 0; o < s.size(); ++o) {
      if (o == b) continue;
      for (const Pebble& q : pebblesOf(o)) {
        const Vec3 y = s.position[o] + s.orientation[o] * q.center;
        gap = std::min(gap, (x - y).norm() - p.radius - q.radius);
      }
    }
  }
  return gap;
}

// Every bit of the bodies' state and of the inlets' progress.
bool sameBits(const World& a, const World& b) {
  const BodyState &x = a.bodies(), &y = b.bodies();
  if (x.size() != y.size() || a.inlets().size() != b.inlets().size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x.templateIndex[i] != y.templateIndex[i] ||
        std::memcmp(x.position[i].data(), y.position[i].data(), sizeof(Vec3)) != 0 ||
        std::memcmp(x.velocity[i].data(), y.velocity[i].data(), sizeof(Vec3)) != 0 ||
        std::memcmp(x.angularVelocity[i].data(), y.angularVelocity[i].data(), sizeof(Vec3)) != 0 ||
        std::memcmp(x.orientation[i].coeffs().data(), y.orientation[i].coeffs().data(), 4 * sizeof(double)) !=
            0)
      return false;
  }
  for (std::size_t i = 0; i < a.inlets().size(); ++i) {
    if (!(a.inlets()[i].progress() == b.inlets()[i].progress())) return false;
  }
  return a.insertedEnergy() == b.insertedEnergy() && a.dissipatedEnergy() == b.dissipatedEnergy();
}

const char* kInletScene = R"({
  "format": "clumplab-scene/1", "time_step": 2e-5, "gravity": [0, 0, -9.81],
  "contact": { "model": "linear", "stiffness": 2e3, "restitution": 0.5, "friction": 0.3 },
  "walls": [ { "type": "box", "min": [-0.02, -0.02, 0], "max": [0.02, 0.02, 0.3] } ],
  "templates": {
    "tbar": { "density": 2500, "inertia": "pebbles", "pebbles": [[0,0,0,0.001],[0,0,0.001,0.001],[0,0,0.002,0.001],
              [0,0,0.003,0.001],[0,0,0.004,0.001],[-0.002,0,0.005,0.001],[-0.001,0,0.005,0.001],[0,0,0.005,0.001],
              [0.001,0,0.005,0.001],[0.002,0,0.005,0.001]] },
    "dumbbell": { "density": 2500, "inertia": "pebbles", "pebbles": [[0,0,-0.0015,0.001],[0,0,0.0015,0.001]] }
  },
  "inlets": [ { "region": { "cylinder": { "center": [0, 0, 0.26], "axis": [0, 0, 2], "radius": 0.017, "height": 0.05 } },
                "templates": [ { "template": "tbar", "mass_fraction": 0.7 }, { "template": "dumbbell", "mass_fraction": 0.3 } ],
                "mass_rate": 0.002, "max_mass": 0.0012, "velocity": [0, 0, -0.5], "velocity_spread": 0.1, "seed": 3 } ]
})";

QString replaced(const QString& from, const QString& to, const QString& text = kInletScene) {
  QString s = text;
  if (!s.contains(from)) qFatal("test scene lacks %s", qPrintable(from));
  return s.replace(from, to);
}

}  // namespace

class TestInlet : public QObject {
  Q_OBJECT

 private slots:
  void insertedMassFollowsTheRateThenStops() {
    // Mass rate 2 g/s up to 1.2 g (about 16 T-bars and dumbbells): at every step before max_mass
    // the inserted mass lies in (rate x t0 - m_max, rate x t0], t0 the start of the step the inlet
    // inserted in; after it finishes nothing more comes in, and max_mass - m_max < inserted <= max_mass.
    Setup s;
    s.maxMass = 1.2e-3;
    auto w = makeWorld(s);
    const double mMax = std::max(w->templates()[0]->mass, w->templates()[1]->mass);
    double worstLag = 0.0, worstLead = -1.0;
    double finishedAt = -1.0;
    std::uint64_t countAtFinish = 0;
    for (int k = 0; k < 60000; ++k) {  // 1.2 s
      const double t0 = w->time();
      QVERIFY(w->step());
      const InletProgress& p = w->inlets()[0].progress();
      // Every inserted body is a body of the world (none was there before).
      QCOMPARE(p.insertedCount, static_cast<std::uint64_t>(w->bodies().size()));
      QVERIFY2(std::abs(bodyMassSum(*w) - p.insertedMass) <= 1e-15,
               qPrintable(QString("bodies %1 kg, inlet %2 kg").arg(bodyMassSum(*w)).arg(p.insertedMass)));
      if (p.state != InletState::Done) {
        const double target = s.massRate * t0;
        worstLag = std::max(worstLag, target - p.insertedMass);
        worstLead = std::max(worstLead, p.insertedMass - target);
      } else if (finishedAt < 0.0) {
        finishedAt = p.finishedAt;
        countAtFinish = p.insertedCount;
      }
    }
    const InletProgress& p = w->inlets()[0].progress();
    qInfo(
        "lag at most %.3g kg (one body at most %.3g kg), lead %.3g kg; done at %.4f s with %llu bodies, %.4g "
        "kg",
        worstLag, mMax, worstLead, p.finishedAt, static_cast<unsigned long long>(p.insertedCount),
        p.insertedMass);
    CLUMPLAB_VERIFY_LESS(worstLag, mMax);
    CLUMPLAB_VERIFY_LESS(worstLead, 1e-18);
    QCOMPARE(p.state, InletState::Done);
    QVERIFY2(finishedAt > 0.0, "the inlet never finished");
    QCOMPARE(p.insertedCount, countAtFinish);  // nothing after it finished
    QVERIFY2(
        p.insertedMass <= s.maxMass && p.insertedMass > s.maxMass - mMax,
        qPrintable(
            QString("inserted %1 kg, max %2 kg, a body %3 kg").arg(p.insertedMass).arg(s.maxMass).arg(mMax)));
    // It finished when max_mass was in reach: at most one step after the rate reached max_mass - m_max.
    QVERIFY2(
        finishedAt <= (s.maxMass) / s.massRate + s.dt && finishedAt >= (s.maxMass - mMax) / s.massRate - s.dt,
        qPrintable(QString("finished at %1 s").arg(finishedAt)));
    QCOMPARE(p.failedTries, std::uint64_t{0});
  }

  void maxCountStops() {
    Setup s;
    s.maxCount = 5;
    auto w = makeWorld(s);
    for (int k = 0; k < 30000; ++k) QVERIFY(w->step());
    QCOMPARE(w->bodies().size(), std::size_t{5});
    QCOMPARE(w->inlets()[0].progress().state, InletState::Done);
  }

  void noOverlapAtInsertion() {
    // A high rate into the bottom of the box where the bodies pile up: the inlet stage is run by
    // hand (Inlet::insertDue, what World::step does first) and every new body is tested, before
    // anything moves, against every pebble of the world and the walls by brute force. Twelve
    // bodies lie in the region before the inlet starts.
    Setup s;
    s.massRate = 0.05;
    s.maxCount = 150;
    s.velocity = Vec3(0, 0, -0.2);
    s.region.min = Vec3(-0.019, -0.019, 0.0);
    s.region.max = Vec3(0.019, 0.019, 0.06);
    auto world = makeWorld(s);
    Inlet inlet = world->inlets()[0];
    WorldSettings settings = world->settings();
    World w(settings, world->contactModel(), world->walls(), world->templates());  // no inlet of its own
    SplitMix64 rng(11);
    for (int i = 0; i < 12; ++i) {  // on a grid, apart
      BodyInit b;
      b.templateIndex = 0;
      b.position = Vec3(-0.012 + 0.008 * (i % 4), -0.008 + 0.008 * (i / 4), 0.01);
      b.orientation = randomRotation(rng);
      w.addBody(b);
    }
    double worst = std::numeric_limits<double>::infinity();
    std::size_t checked = 0;
    for (int k = 0; k < 20000 && inlet.progress().state != InletState::Done; ++k) {
      const std::size_t n = w.bodies().size();
      inlet.insertDue(w);
      for (std::size_t b = n; b < w.bodies().size(); ++b) {
        worst = std::min(worst, smallestGap(w, b));
        ++checked;
      }
      QVERIFY(w.step());
    }
    qInfo(
        "%zu inserted bodies checked, smallest gap at insertion %.3g m, %llu failed tries, %zu contacts at "
        "the end",
        checked, worst, static_cast<unsigned long long>(inlet.progress().failedTries), w.contactCount());
    QCOMPARE(checked, std::size_t{150});
    QVERIFY2(worst >= 0.0, qPrintable(QString("smallest gap %1 m").arg(worst)));
  }

  void everyIntegratorTakesInsertedBodies_data() {
    QTest::addColumn<int>("kind");
    for (const IntegratorKind k : kIntegratorKinds)
      QTest::newRow(std::string(integratorName(k)).c_str()) << static_cast<int>(k);
  }
  void everyIntegratorTakesInsertedBodies() {
    // 30 bodies poured in 0.5 s under each integrator (no friction: cim and rk4 take no tangential
    // spring): all come in, the run stays finite, and total + dissipated - inserted stays within
    // 1% of the inserted energy.
    QFETCH(int, kind);
    Setup s;
    s.massRate = 0.01;
    // Under the sanitizers: 15 bodies in 0.25 s.
    s.maxCount = sizedForBuild<std::uint64_t>(30, 15);
    s.friction = 0.0;
    s.integrator = static_cast<IntegratorKind>(kind);
    auto w = makeWorld(s);
    const double start = w->energy().balance();
    double worst = 0.0;
    for (int k = 1; k <= sizedForBuild(25000, 12500); ++k) {
      QVERIFY2(w->step(), w->divergence().message.c_str());
      if (k % 500 == 0) worst = std::max(worst, std::abs(w->energy().balance() - start));
    }
    const EnergyReport e = w->energy();
    qInfo("%s: %zu bodies, inserted %.4g J, dissipated %.4g J, |balance - start| at most %.3g J",
          std::string(integratorName(s.integrator)).c_str(), w->bodies().size(), e.inserted, e.dissipated,
          worst);
    QCOMPARE(w->bodies().size(), std::size_t{s.maxCount});
    QCOMPARE(w->inlets()[0].progress().state, InletState::Done);
    CLUMPLAB_VERIFY_LESS(worst, 1e-2 * e.inserted);
  }

  void orientationsAreUniform() {
    // 3000 T-bars inserted at once into a 1 m box without walls or gravity: each principal axis,
    // averaged over the bodies, has mean 0 (standard error 1/sqrt(3N) = 0.0105 per component) and
    // second moments 1/3 (standard error sqrt(4/45/N) = 0.0054). Tolerance: 4 standard errors.
    WorldSettings settings;
    settings.gravity = Vec3::Zero();
    World world(settings, linearContact(2e3, 0.5, 0.0), {}, {templateFromPebbles(tbarPebbles(), 2500.0)});
    InletSettings in;
    in.region.min = Vec3(-0.5, -0.5, -0.5);
    in.region.max = Vec3(0.5, 0.5, 0.5);
    in.templates = {0};
    in.weights = {1.0};
    in.massRate = 1e6;  // all due after one step
    in.maxCount = 3000;
    world.addInlet(Inlet(in));
    const World* w = &world;
    for (int k = 0; k < 2; ++k) QVERIFY(world.step());  // nothing is due at t = 0
    const std::size_t count = w->bodies().size();
    const double n = static_cast<double>(count);
    QCOMPARE(count, std::size_t{3000});
    const double meanTol = 4.0 / std::sqrt(3.0 * n), momentTol = 4.0 * std::sqrt(4.0 / 45.0 / n);
    double worstMean = 0.0, worstMoment = 0.0;
    for (int axis = 0; axis < 3; ++axis) {
      Vec3 mean = Vec3::Zero(), moment = Vec3::Zero();
      for (std::size_t b = 0; b < count; ++b) {
        const Vec3 e = w->bodies().orientation[b] * Vec3::Unit(axis);
        mean += e / n;
        moment += e.cwiseAbs2() / n;
      }
      worstMean = std::max(worstMean, mean.cwiseAbs().maxCoeff());
      worstMoment = std::max(worstMoment, (moment.array() - 1.0 / 3.0).abs().maxCoeff());
    }
    qInfo(
        "%.0f bodies: largest |mean axis component| %.4f (tolerance %.4f), largest |<e_i^2> - 1/3| %.4f "
        "(tolerance %.4f)",
        n, worstMean, meanTol, worstMoment, momentTol);
    CLUMPLAB_VERIFY_LESS(worstMean, meanTol);
    CLUMPLAB_VERIFY_LESS(worstMoment, momentTol);
  }

  void flatInTwoDimensions() {
    // In the 2D mode (plane y = 0) bodies lie flat, principal axis 3 along the normal, at angles
    // uniform about it: the in-plane axis 1 has mean 0 (standard error 1/sqrt(2N) per component).
    WorldSettings settings;
    settings.timeStep = 1e-5;
    settings.gravity = Vec3::Zero();
    settings.plane.enabled = true;
    settings.plane.normal = Vec3::UnitY();
    World w(settings, linearContact(2e3, 0.5, 0.0), {}, {templateFromPebbles(tbarPebbles(), 2500.0)});
    InletSettings in;
    in.region.min = Vec3(-0.3, -0.01, -0.3);
    in.region.max = Vec3(0.3, 0.01, 0.3);
    in.templates = {0};
    in.weights = {1.0};
    in.massRate = 1e6;  // all due after one step
    in.maxCount = 2000;
    in.velocity = Vec3(0.1, 0.2, 0.0);  // its y part is across the plane: dropped
    w.addInlet(Inlet(in));
    for (int k = 0; k < 2; ++k) QVERIFY(w.step());  // nothing is due at t = 0
    const std::size_t count = w.bodies().size();
    QCOMPARE(count, std::size_t{2000});
    const double n = static_cast<double>(count);
    Vec3 mean = Vec3::Zero();
    double worstNormal = 0.0, worstOffPlane = 0.0;
    for (std::size_t b = 0; b < count; ++b) {
      const Quat q = w.bodies().orientation[b];
      worstNormal = std::max(worstNormal, 1.0 - std::abs((q * Vec3::UnitZ()).dot(Vec3::UnitY())));
      worstOffPlane = std::max(
          {worstOffPlane, std::abs(w.bodies().position[b].y()), std::abs(w.bodies().velocity[b].y())});
      mean += (q * Vec3::UnitX()) / n;
    }
    const double tol = 4.0 / std::sqrt(2.0 * n);
    qInfo(
        "2D: axis 3 off the normal by %.3g, off the plane %.3g, mean axis 1 (%.4f, %.4f, %.4f), tolerance "
        "%.4f",
        worstNormal, worstOffPlane, mean.x(), mean.y(), mean.z(), tol);
    CLUMPLAB_VERIFY_LESS(worstNormal, 1e-12);
    QCOMPARE(worstOffPlane, 0.0);
    CLUMPLAB_VERIFY_LESS(mean.cwiseAbs().maxCoeff(), tol);
  }

  void deterministicAcrossRunsAndThreads() {
    // Two runs, and one against two threads, give the same bits (bodies, inlet progress, energies)
    // after 0.4 s of pouring onto a pile (contacts all the while).
    Setup s;
    s.massRate = 0.01;
    s.maxCount = 200;
    s.region.min = Vec3(-0.019, -0.019, 0.02);
    s.region.max = Vec3(0.019, 0.019, 0.06);
    auto a = makeWorld(s), b = makeWorld(s);
    s.threads = 2;
    auto c = makeWorld(s);
    for (int k = 0; k < 20000; ++k) QVERIFY(a->step() && b->step() && c->step());
    qInfo("%zu bodies, %zu contacts", a->bodies().size(), a->contactCount());
    QVERIFY(a->bodies().size() > 40);
    QVERIFY(a->contactCount() > 20);
    QVERIFY2(sameBits(*a, *b), "two runs differ");
    QVERIFY2(sameBits(*a, *c), "one and two threads differ");
  }

  void checkpointRestoresTheInlet() {
    // Step back and forward (the app's history): restore a checkpoint and run again, bit for bit,
    // the inlet's random state and progress included.
    Setup s;
    s.massRate = 0.01;
    auto w = makeWorld(s);
    for (int k = 0; k < 5000; ++k) QVERIFY(w->step());
    const WorldCheckpoint c = w->checkpoint();
    const std::size_t bodiesAtCheckpoint = w->bodies().size();
    for (int k = 0; k < 5000; ++k) QVERIFY(w->step());
    Setup same = s;
    auto reference = makeWorld(same);
    for (int k = 0; k < 10000; ++k) QVERIFY(reference->step());
    QVERIFY(sameBits(*w, *reference));
    const std::size_t bodiesAfter = w->bodies().size();
    QVERIFY2(bodiesAfter > bodiesAtCheckpoint + 10,
             qPrintable(QString("%1 then %2 bodies").arg(bodiesAtCheckpoint).arg(bodiesAfter)));
    w->restore(c);
    QCOMPARE(w->bodies().size(), bodiesAtCheckpoint);
    for (int k = 0; k < 5000; ++k) QVERIFY(w->step());
    QVERIFY2(sameBits(*w, *reference), "restoring and stepping again differs");
  }

  void clearOfAMovedMeshWall() {
    // Regression (the pill-bottle scene): an inlet tested the mesh walls where they stood at t = 0.
    // A plate (a tessellated mesh wall) moves on an interpolated path from 1 m below into the middle
    // of the inlet's region (z in [-4, 4] mm) by t = 0.01 s; the inlet starts at 0.02 s. Every ball
    // (r = 1 mm) it inserts must clear the plate where it is now, |z| >= r; where it was at t = 0
    // a quarter of the region's heights would be taken.
    WorldSettings settings;
    settings.timeStep = 1e-4;
    settings.gravity = Vec3::Zero();
    WallMotion motion;
    motion.kind = WallMotion::Kind::Interpolated;
    motion.times = {0.0, 0.01};
    motion.positions = {Vec3(0, 0, -1), Vec3::Zero()};
    motion.orientations = {Quat::Identity(), Quat::Identity()};
    const double r = 1e-3;
    World w(settings, linearContact(2e3, 0.5, 0.0), {meshWall(gridFloor(4, 0.05), motion)},
            {templateFromPebbles({Pebble{Vec3::Zero(), r}}, 2500.0)});
    InletSettings in;
    in.region.min = Vec3(-0.02, -0.02, -0.004);
    in.region.max = Vec3(0.02, 0.02, 0.004);
    in.templates = {0};
    in.weights = {1.0};
    in.massRate = 1.0;
    in.maxCount = 60;
    in.start = 0.02;
    w.addInlet(Inlet(in));
    for (int k = 0; k < 400 && w.inlets()[0].progress().state != InletState::Done; ++k) QVERIFY(w.step());
    QCOMPARE(w.bodies().size(), std::size_t{60});
    double closest = std::numeric_limits<double>::infinity();
    for (std::size_t b = 0; b < w.bodies().size(); ++b) {
      closest = std::min(closest, std::abs(w.bodies().position[b].z()));
      QVERIFY(w.walls()[0].clearance(w.bodies().position[b], w.time()) >= r);
    }
    qInfo("60 balls inserted beside a plate moved into the region: the closest centre %.3g mm from it",
          closest * 1e3);
    QVERIFY(closest >= r);
  }

  void fullRegionReports() {
    // A region with room for a body or two and no gravity to take them away: after the first
    // bodies every try fails; the inlet says it is full, carries the owed mass over and retries
    // every retry interval (0.01 s), never looping: over the last 0.4 s of 0.5 s nothing comes in
    // and 40 +- 1 tries fail, at most 51 in all.
    WorldSettings settings;
    settings.timeStep = 1e-4;
    settings.gravity = Vec3::Zero();
    World w(settings, linearContact(2e3, 0.5, 0.0), {}, {templateFromPebbles(tbarPebbles(), 2500.0)});
    InletSettings in;
    in.region.min = Vec3(-0.003, -0.003, -0.003);
    in.region.max = Vec3(0.003, 0.003, 0.008);
    in.templates = {0};
    in.weights = {1.0};
    in.massRate = 1e-2;  // a T-bar every 0.0105 s
    in.attempts = 50;
    w.addInlet(Inlet(in));
    for (int k = 0; k < 1000; ++k) QVERIFY(w.step());
    const std::uint64_t countAt01 = w.inlets()[0].progress().insertedCount;
    const std::uint64_t failedAt01 = w.inlets()[0].progress().failedTries;
    for (int k = 0; k < 4000; ++k) QVERIFY(w.step());
    const Inlet& inlet = w.inlets()[0];
    const InletProgress& p = inlet.progress();
    qInfo(
        "state %s, %llu bodies, %llu failed tries (%llu in the last 0.4 s), full since %.4f s, owed %.4g kg",
        inletStateName(p.state), static_cast<unsigned long long>(p.insertedCount),
        static_cast<unsigned long long>(p.failedTries),
        static_cast<unsigned long long>(p.failedTries - failedAt01), p.fullSince, inlet.owedMass(w.time()));
    QCOMPARE(p.state, InletState::Full);
    QVERIFY(p.insertedCount >= 1);
    QCOMPARE(p.insertedCount, countAt01);
    QVERIFY(p.failedTries - failedAt01 >= 39 && p.failedTries - failedAt01 <= 41);
    QVERIFY(p.failedTries <= 51);
    QVERIFY(p.fullSince <= 0.1);
    CLUMPLAB_COMPARE_REL(inlet.owedMass(w.time()), in.massRate * w.time() - p.insertedMass, 1e-12);
    QVERIFY(inlet.owedMass(w.time()) > 0.3 * in.massRate * w.time());
  }

  void sceneRoundTrip() {
    // A cylinder inlet with mass fractions, saved while it runs: the file names its progress, a
    // reload gives the same settings and progress, and saving that gives the same text. A saved
    // scene of a done inlet stays done.
    Scene scene = parseScene(kInletScene, "inlet.json");
    QCOMPARE(scene.inlets.size(), std::size_t{1});
    const InletSettings& in = scene.inlets[0].settings();
    QCOMPARE(in.region.kind, InletRegion::Kind::Cylinder);
    QCOMPARE(in.region.axis, Vec3(0, 0, 1));
    // Mass fractions become count weights f / m: the T-bar's mass share over many bodies is 0.7.
    CLUMPLAB_COMPARE_REL(
        in.weights[0] / in.weights[1],
        (0.7 / scene.templates[in.templates[0]]->mass) / (0.3 / scene.templates[in.templates[1]]->mass),
        1e-15);
    auto world = buildWorld(scene);
    for (int k = 0; k < 15000; ++k) QVERIFY(world->step());
    QVERIFY(world->inlets()[0].progress().insertedCount > 3);
    const Scene saved = sceneFromWorld(*world, scene);
    const std::string text = sceneToJson(saved, ".");
    QVERIFY(text.find("\"progress\"") != std::string::npos);
    const Scene reloaded = parseScene(text, "saved.json");
    QVERIFY(reloaded.inlets[0].settings() == world->inlets()[0].settings());
    QVERIFY(reloaded.inlets[0].progress() == world->inlets()[0].progress());
    QCOMPARE(sceneToJson(reloaded, "."), text);
    // Continue until done and save again: the reloaded inlet is done and inserts nothing more.
    for (int k = 0; k < 60000 && world->inlets()[0].progress().state != InletState::Done; ++k)
      QVERIFY(world->step());
    QCOMPARE(world->inlets()[0].progress().state, InletState::Done);
    auto again = buildWorld(parseScene(sceneToJson(sceneFromWorld(*world, scene), "."), "done.json"));
    const std::size_t n = again->bodies().size();
    QCOMPARE(n, world->bodies().size());
    for (int k = 0; k < 1000; ++k) QVERIFY(again->step());
    QCOMPARE(again->bodies().size(), n);
    QCOMPARE(again->inlets()[0].progress().finishedAt, world->inlets()[0].progress().finishedAt);
  }

  void badInput_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    const auto row = [](const char* name, const QString& text, const char* expected) {
      QTest::newRow(name) << text << QString(expected);
    };
    row("negative rate", replaced("\"mass_rate\": 0.002", "\"mass_rate\": -0.002"),
        "inlets[0].mass_rate: the mass rate must be positive");
    row("zero rate", replaced("\"mass_rate\": 0.002", "\"mass_rate\": 0"),
        "inlets[0].mass_rate: the mass rate must be positive");
    row("unknown template", replaced("\"template\": \"dumbbell\"", "\"template\": \"dumbell\""),
        "inlets[0].templates[1].template: unknown template \"dumbell\"");
    row("unknown template by name",
        replaced(
            R"([ { "template": "tbar", "mass_fraction": 0.7 }, { "template": "dumbbell", "mass_fraction": 0.3 } ])",
            R"(["tbar", "gear"])"),
        "inlets[0].templates[1]: unknown template \"gear\"");
    row("empty box",
        replaced(
            R"({ "cylinder": { "center": [0, 0, 0.26], "axis": [0, 0, 2], "radius": 0.017, "height": 0.05 } })",
            R"({ "box": { "min": [0, 0, 0.2], "max": [0.01, 0, 0.25] } })"),
        "inlets[0].region.box.max: the region is empty");
    row("zero-size cylinder", replaced("\"radius\": 0.017", "\"radius\": 0"),
        "inlets[0].region.cylinder.radius: the cylinder's radius must be positive");
    row("flat cylinder", replaced("\"height\": 0.05", "\"height\": 0"),
        "inlets[0].region.cylinder.height: the cylinder's height must be positive");
    row("zero axis", replaced("\"axis\": [0, 0, 2]", "\"axis\": [0, 0, 0]"),
        "inlets[0].region.cylinder.axis: the axis must not be zero");
    row("both regions",
        replaced("{ \"cylinder\"", "{ \"box\": { \"min\": [0, 0, 0], \"max\": [1, 1, 1] }, \"cylinder\""),
        "inlets[0].region: give exactly one of \"box\" and \"cylinder\"");
    row("misspelt key", replaced("\"mass_rate\"", "\"massrate\""), "inlets[0].massrate: unknown key");
    row("fractions and weights mixed", replaced("\"mass_fraction\": 0.3", "\"weight\": 1"),
        "inlets[0].templates: give every template a \"mass_fraction\", or none");
    row("template twice", replaced("\"template\": \"dumbbell\"", "\"template\": \"tbar\""),
        "inlets[0].templates[1].template: template \"tbar\" named twice");
    row("max mass below a body", replaced("\"max_mass\": 0.0012", "\"max_mass\": 1e-6"),
        "inlets[0].max_mass: 1e-06 kg is below the lightest template's mass");
    row("negative spread", replaced("\"velocity_spread\": 0.1", "\"velocity_spread\": -0.1"),
        "inlets[0].velocity_spread: must not be negative");
    row("zero count", replaced("\"max_mass\": 0.0012", "\"max_count\": 0"),
        "inlets[0].max_count: the maximum count must be at least 1");
    row("more pebbles than the limit", replaced("\"max_mass\": 0.0012", "\"max_count\": 2000000"),
        "inlets[0].max_count: the scene would hold 20000000 pebbles, more than the limit");
    row("bad progress state",
        replaced("\"seed\": 3",
                 "\"seed\": 3, \"progress\": { \"state\": \"busy\", \"inserted_mass\": 0, "
                 "\"inserted_count\": 0, \"random_state\": \"0x1\" }"),
        "inlets[0].progress.state: unknown state \"busy\"");
  }
  void badInput() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    try {
      (void)parseScene(text.toStdString(), "bad.json");
      QFAIL("the bad scene was accepted");
    } catch (const InputError& e) {
      const QString message = e.what();
      QVERIFY2(message.startsWith("bad.json: "), qPrintable(message));
      QVERIFY2(message.contains(expected), qPrintable(message + "  (expected: " + expected + ")"));
    }
  }

  void energyBookkeepingCloses() {
    // Bodies come in with 0.5 m/s down (plus spread) 25 cm up, fall, bounce (e = 0.5) and rub
    // (friction 0.3): the total jumps at every insertion, while total + dissipated - inserted
    // stays where it started to the leapfrog's second-order error: below 1% of the inserted
    // energy at dt = 2e-5 s and falling by more than 2.5 when dt halves (4 for second order); the
    // inserted energy itself is booked exactly. Without the inserted term the balance is off by
    // about all of it.
    const auto worstDeviation = [](double dt, double& inserted, double& withoutInlet) {
      Setup s;
      s.massRate = 0.01;
      s.maxCount = 60;
      s.dt = dt;
      auto w = makeWorld(s);
      const double start = w->energy().balance();
      double worst = 0.0;
      withoutInlet = 0.0;
      // 1 s; under the sanitizers 0.4 s, when about 40 bodies have come in and the first lie on the floor.
      const int steps = static_cast<int>(std::lround(sizedForBuild(1.0, 0.4) / dt));
      const int every = static_cast<int>(std::lround(5e-3 / dt));
      for (int k = 1; k <= steps; ++k) {
        if (!w->step()) return -1.0;
        if (k % every != 0) continue;
        const EnergyReport e = w->energy();
        worst = std::max(worst, std::abs(e.balance() - start));
        withoutInlet = std::max(withoutInlet, std::abs(e.balance() + e.inserted - start));
      }
      const EnergyReport e = w->energy();
      inserted = e.inserted;
      qInfo(
          "dt %.0e s: %zu bodies, inserted %.4g J, dissipated %.4g J, total %.4g J, |balance - start| at "
          "most "
          "%.3g J (%.2g of the inserted energy); without the inserted term %.3g J",
          dt, w->bodies().size(), e.inserted, e.dissipated, e.total(), worst, worst / e.inserted,
          withoutInlet);
      return worst;
    };
    double inserted = 0.0, insertedHalf = 0.0, without = 0.0, withoutHalf = 0.0;
    const double coarse = worstDeviation(2e-5, inserted, without);
    const double fine = worstDeviation(1e-5, insertedHalf, withoutHalf);
    QVERIFY(coarse >= 0.0 && fine >= 0.0);
    CLUMPLAB_VERIFY_LESS(coarse, 1e-2 * inserted);
    CLUMPLAB_VERIFY_LESS(2.5 * fine, coarse);
    QVERIFY(without > 0.5 * inserted);
  }
};

QTEST_GUILESS_MAIN(TestInlet)
#include "tst_inlet.moc"
