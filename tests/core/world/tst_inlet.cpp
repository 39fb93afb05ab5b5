// Inlets (core/world/Inlet.hpp, Woo's inlets): inserted mass follows the rate, no body is inserted
// overlapping another or a wall (a moving mesh wall included), every integrator takes the inserted
// bodies, orientations are uniform (flat in 2D), a full region says so, and total + dissipated -
// inserted energy is conserved. Runs, checkpoints and scene files: tst_inlet_state.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>

#include "BuildSize.hpp"
#include "InletWorlds.hpp"
#include "MeshWallSupport.hpp"
#include "TestSupport.hpp"
#include "core/world/Generation.hpp"
#include "core/world/Inlet.hpp"
#include "core/world/World.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

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
  const auto pebblesOf = [&](std::size_t i) { return w.model().templates[s.templateIndex[i]]->pebbles; };
  for (const Pebble& p : pebblesOf(b)) {
    const Vec3 x = s.position[b] + s.orientation[b] * p.center;
    for (const Wall& wall : w.model().walls) gap = std::min(gap, wall.clearance(x, w.time()) - p.radius);
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
    const double mMax = std::max(w->model().templates[0]->mass, w->model().templates[1]->mass);
    double worstLag = 0.0, worstLead = -1.0;
    double finishedAt = -1.0;
    std::uint64_t countAtFinish = 0;
    for (int k = 0; k < 60000; ++k) {  // 1.2 s
      const double t0 = w->time();
      QVERIFY(w->step());
      const InletProgress& p = w->state().inlets[0].progress();
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
    const InletProgress& p = w->state().inlets[0].progress();
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
    QCOMPARE(w->state().inlets[0].progress().state, InletState::Done);
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
    Inlet inlet = world->state().inlets[0];
    WorldSettings settings = world->model().settings;
    World w(settings, world->model().contact, world->model().walls,
            world->model().templates);  // no inlet of its own
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
      QVERIFY2(w->step(), w->state().divergence.message.c_str());
      if (k % 500 == 0) worst = std::max(worst, std::abs(w->energy().balance() - start));
    }
    const EnergyReport e = w->energy();
    qInfo("%s: %zu bodies, inserted %.4g J, dissipated %.4g J, |balance - start| at most %.3g J",
          std::string(integratorName(s.integrator)).c_str(), w->bodies().size(), e.inserted, e.dissipated,
          worst);
    QCOMPARE(w->bodies().size(), std::size_t{s.maxCount});
    QCOMPARE(w->state().inlets[0].progress().state, InletState::Done);
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
    for (int k = 0; k < 400 && w.state().inlets[0].progress().state != InletState::Done; ++k)
      QVERIFY(w.step());
    QCOMPARE(w.bodies().size(), std::size_t{60});
    double closest = std::numeric_limits<double>::infinity();
    for (std::size_t b = 0; b < w.bodies().size(); ++b) {
      closest = std::min(closest, std::abs(w.bodies().position[b].z()));
      QVERIFY(w.model().walls[0].clearance(w.bodies().position[b], w.time()) >= r);
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
    const std::uint64_t countAt01 = w.state().inlets[0].progress().insertedCount;
    const std::uint64_t failedAt01 = w.state().inlets[0].progress().failedTries;
    for (int k = 0; k < 4000; ++k) QVERIFY(w.step());
    const Inlet& inlet = w.state().inlets[0];
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
