// The cluster integration driver (core/cim/ClusterStepper.hpp) on elastic spheres and dimers with a
// linear repulsive spring: a single cluster's RKF45 conserves energy through a collision within its
// tolerance; a dilute periodic gas conserves energy over hundreds of collisions and follows the
// constant-step RK4 baseline; and in a dense random case no two clusters touch within the lifetime
// of the cluster list (checked against a fine RK4 integration of the whole system).
#include <QtTest>
#include <chrono>
#include <set>

#include "CimModels.hpp"
#include "TestSupport.hpp"
#include "core/cim/ClusterLifetime.hpp"
#include "core/cim/ClusterStepper.hpp"
#include "core/cim/Rk4Baseline.hpp"

using namespace clumplab;
using namespace clumplab::cim;
using namespace clumplab::test;

namespace {

// The paper's particles, as spheres: radius 1 mm, density 2700 kg/m^3; stiffness 1e4 N/m.
SpringSystem gas(std::size_t n, double length) {
  SpringSystem sys;
  sys.shapes.assign(n, Shape{1e-3, 0.0});
  sys.box.length = Vec3::Constant(length);
  sys.box.periodic = {true, true, true};
  sys.stiffness = 1e4;
  return sys;
}

// Largest distance between two states' positions (minimum image) [m].
double positionDifference(const RigidBodySet& a, const RigidBodySet& b, const PeriodicBox& box) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst, box.minimumImage(a.position[i] - b.position[i]).norm());
  }
  return worst;
}

// The whole system with RK4 at a constant step and all-pairs forces; calls `check` after each step.
template <typename Check>
void referenceRk4(const SpringSystem& sys, RigidBodySet& state, double duration, int steps, Check check) {
  const ParticleModel model = sys.model();
  RigidBodyOde ode(
      model.inertia, model.gravity,
      [&](const RigidBodySet& s, std::vector<Vec3>& f, std::vector<Vec3>& n) { sys.allForces(s, f, n); });
  OdeState y;
  packAll(state, y);
  RungeKuttaWorkspace work;
  const double h = duration / steps;
  for (int k = 0; k < steps; ++k) {
    rk4Step(ode, k * h, h, y, work);
    ode.project(y);
    unpackAll(y, state);
    check(state);
  }
}

}  // namespace

class CimClusterStepTest : public QObject {
  Q_OBJECT
 private slots:
  // Two spheres collide off-centre in one cluster: the energy after the collision is the energy
  // before it to within the tolerance accumulated over the steps (each step's relative error is
  // held below rtol, and the energy is quadratic in the velocities: at most 2 rtol per step), and
  // the error falls with the tolerance. (It is 30-60 rtol: the steps across the kinks of the force
  // at the start and the end of the contact carry most of it.)
  void singleClusterCollisionConservesEnergy() {
    double previous = 1.0;
    for (const double rtol : {1e-4, 1e-6, 1e-8}) {
      SpringSystem sys = gas(2, 0.05);
      RigidBodySet s;
      s.add({Vec3(0.01, 0.01, 0.01), Vec3(0.4, 0.0, 0.0), Quat::Identity(), Vec3::Zero()});
      s.add({Vec3(0.01205, 0.0105, 0.01), Vec3(-0.4, 0.0, 0.0), Quat::Identity(), Vec3::Zero()});
      const double e0 = sys.energy(s);
      ClusterStepSettings settings;
      settings.buffer = 0.6e-3;
      settings.rkf.relativeTolerance = rtol;
      ClusterStepper stepper(sys.model(), settings);
      const ClusterStepReport report = stepper.step(s, std::numeric_limits<double>::infinity());
      QCOMPARE(report.clusters.count(), std::size_t{1});
      QVERIFY(report.ok);
      // Collided and apart again: velocities turned, no overlap left.
      QVERIFY(s.velocity[0].x() < 0.0 && s.velocity[1].x() > 0.0);
      QVERIFY(sys.distance(0, 1, s.position[1] - s.position[0], s.orientation[0], s.orientation[1]) > 0.0);
      const double error = std::abs(sys.energy(s) / e0 - 1.0);
      qInfo(
          "rtol %.0e: |dE/E| %.3g after the collision; %zu steps (%zu rejected), %zu evaluations, lifetime "
          "%.3g s",
          rtol, error, report.total.accepted, report.total.rejected, report.total.evaluations,
          report.lifetime);
      CLUMPLAB_VERIFY_LESS(error, 2.0 * static_cast<double>(report.total.accepted) * rtol);
      CLUMPLAB_VERIFY_LESS(error, 0.1 * previous);
      previous = error;
    }
  }

  // 40 spheres in a periodic 2 cm box (volume fraction 2%), 0.4 m/s: over 0.3 s (hundreds of
  // collisions) the driver at the paper's tolerance keeps the energy within 1e-3.
  void diluteGasConservesEnergy() {
    const SpringSystem sys = gas(40, 0.02);
    RigidBodySet s = randomPlacement(sys, 0.02, 0.4, 0.0, 21);
    QCOMPARE(s.size(), std::size_t{40});
    const double e0 = sys.energy(s);
    ParticleModel model = sys.model();
    std::set<std::pair<std::uint32_t, std::uint32_t>> touching;  // this step's pairs in contact
    std::size_t collisions = 0;
    model.pairForce = [&](std::uint32_t i, std::uint32_t j, const ParticleState& si, const ParticleState& sj,
                          ContactMemoryView) {
      const PairForce f = sys.pairForce(i, j, si, sj);
      if (f.forceOnJ.squaredNorm() > 0.0) touching.emplace(i, j);
      return f;
    };
    ClusterStepSettings settings;
    settings.buffer = 0.6e-3;
    ClusterStepper stepper(model, settings);
    double t = 0.0, worst = 0.0;
    std::size_t steps = 0, evaluations = 0, freeMoves = 0;
    const auto start = std::chrono::steady_clock::now();
    while (t < 0.3) {
      touching.clear();
      const ClusterStepReport r = stepper.step(s, 0.3 - t);
      QVERIFY(r.ok);
      t += r.duration;
      ++steps;
      evaluations += r.total.evaluations;
      freeMoves += r.clusters.freeCount();
      collisions += touching.size();
      worst = std::max(worst, std::abs(sys.energy(s) / e0 - 1.0));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    qInfo(
        "%zu global steps, %zu collisions, %zu cluster force evaluations, %zu free moves, max |dE/E| %.3g, "
        "%.2f s",
        steps, collisions, evaluations, freeMoves, worst, seconds);
    QVERIFY(collisions > 100);
    CLUMPLAB_VERIFY_LESS(worst, 1e-3);
  }

  // The same gas over 0.02 s (a dozen collisions): the driver and the RK4 baseline at a small
  // constant step end at the same positions, and RK4 closes in on the driver as its step shrinks
  // (RK4 converges slowly here: the linear spring's force has kinks at contact start and end).
  void diluteGasFollowsRk4() {
    const SpringSystem sys = gas(40, 0.02);
    const RigidBodySet start = randomPlacement(sys, 0.02, 0.4, 0.0, 21);
    const double duration = 0.02;

    RigidBodySet cim = start;
    ClusterStepSettings settings;
    settings.buffer = 0.6e-3;
    settings.rkf.relativeTolerance = 1e-9;
    ClusterStepper stepper(sys.model(), settings);
    std::size_t cimEvaluations = 0, contacts = 0;
    for (double t = 0.0; t < duration;) {
      const ClusterStepReport r = stepper.step(cim, duration - t);
      t += r.duration;
      cimEvaluations += r.total.evaluations;
      for (std::size_t c = 0; c < r.clusters.count(); ++c)
        contacts += r.clusters.membersOf(c).size() > 1 ? 1 : 0;
    }

    std::vector<double> differences;
    for (const double dt : {5e-7, 2.5e-7}) {
      RigidBodySet dem = start;
      Rk4Baseline baseline(sys.model(), 0.6e-3);
      for (long k = 0; k < std::lround(duration / dt); ++k) baseline.step(dem, dt);
      differences.push_back(positionDifference(cim, dem, sys.box));
      double changed = 0.0;  // collisions happened: some velocity turned
      for (std::size_t i = 0; i < start.size(); ++i) {
        changed = std::max(changed, (dem.velocity[i] - start.velocity[i]).norm());
      }
      QVERIFY(changed > 0.1);
      qInfo(
          "CIM (rtol 1e-9): %zu evaluations, %zu cluster-steps with neighbours; RK4 (dt %.2g s): %zu "
          "evaluations, "
          "%zu list builds; largest position difference %.3g m",
          cimEvaluations, contacts, dt, baseline.stats().evaluations, baseline.stats().rebuilds,
          differences.back());
    }
    QVERIFY(contacts > 10);
    CLUMPLAB_VERIFY_LESS(differences[1], 0.5 * differences[0]);
    CLUMPLAB_VERIFY_LESS(differences[1], 3e-8);  // 3e-5 radii, after ~8 mm of travel
  }

  // The same start gives the same bits: clusters run in a fixed order with no shared state.
  void deterministic() {
    const SpringSystem sys = gas(40, 0.02);
    const RigidBodySet start = randomPlacement(sys, 0.02, 0.4, 0.0, 21);
    const auto run = [&] {
      RigidBodySet s = start;
      ClusterStepSettings settings;
      settings.buffer = 0.6e-3;
      ClusterStepper stepper(sys.model(), settings);
      for (double t = 0.0; t < 0.02;) t += stepper.step(s, 0.02 - t).duration;
      return s;
    };
    const RigidBodySet a = run(), b = run();
    for (std::size_t i = 0; i < a.size(); ++i) {
      QVERIFY(std::memcmp(a.position[i].data(), b.position[i].data(), sizeof(Vec3)) == 0);
      QVERIFY(std::memcmp(a.orientation[i].coeffs().data(), b.orientation[i].coeffs().data(), sizeof(Quat)) ==
              0);
      QVERIFY(std::memcmp(a.velocity[i].data(), b.velocity[i].data(), sizeof(Vec3)) == 0);
    }
    QVERIFY(positionDifference(a, start, sys.box) > 1e-3);
  }

  // A sphere under gravity bouncing on a floor: in flight it is free and moves analytically (the
  // lifetime accounting for gravity, since there is a wall); near the floor it is a singleton
  // cluster with the wall, integrated. Energy (kinetic + potential + spring) holds over the bounces.
  void bouncingOnAFloor_data() {
    QTest::addColumn<double>("rtol");
    QTest::addColumn<double>("bound");
    // At the paper's tolerance a step inside a contact may err by ~1e-3 of the energy (positions are
    // held to 1e-5 of the reach, the overlap is ~1e-2 of it), and the wall pushes the ball off faster
    // than its list's lifetime assumed: the list ends at the displacement bound, inside the contact,
    // and the next one takes a few more steps there.
    QTest::newRow("the paper's 1e-5") << 1e-5 << 3e-3;
    QTest::newRow("1e-7") << 1e-7 << 1e-5;
  }
  void bouncingOnAFloor() {
    QFETCH(double, rtol);
    QFETCH(double, bound);
    SpringSystem sys = gas(1, 0.05);
    sys.box.periodic = {false, false, false};
    sys.walls = {{0.0, 1.0}};
    const Vec3 g(0.0, -9.81, 0.0);
    RigidBodySet s;
    s.add({Vec3(0.0, 6e-3, 0.0), Vec3(0.01, 0.0, 0.0), Quat::Identity(), Vec3(0.0, 0.0, 30.0)});
    const double e0 = sys.energy(s, g);
    ClusterStepSettings settings;
    settings.buffer = 0.6e-3;
    settings.rkf.relativeTolerance = rtol;
    ClusterStepper stepper(sys.model(g), settings);
    std::size_t freeSteps = 0, wallSteps = 0, bounces = 0;
    double worst = 0.0, t = 0.0, highest = 0.0;
    bool falling = true;
    while (t < 0.3) {
      const ClusterStepReport r = stepper.step(s, 0.3 - t);
      QVERIFY(r.ok);
      t += r.duration;
      (r.clusters.isFree[0] != 0 ? freeSteps : wallSteps) += 1;
      if (falling && s.velocity[0].y() > 0.0) ++bounces;
      falling = s.velocity[0].y() < 0.0;
      if (bounces > 0) highest = std::max(highest, s.position[0].y());
      worst = std::max(worst, std::abs(sys.energy(s, g) / e0 - 1.0));
    }
    qInfo(
        "%zu bounces, %zu free steps, %zu with the wall, highest rebound %.6g m (from 6e-3), max |dE/E| %.3g",
        bounces, freeSteps, wallSteps, highest, worst);
    QVERIFY(bounces >= 3);
    QVERIFY(freeSteps > 10 && wallSteps > 10);
    CLUMPLAB_VERIFY_LESS(worst, bound);
    // The highest sampled point (steps end every ~1.5 ms in flight, within 1e-5 m of the apex).
    CLUMPLAB_VERIFY_LESS(std::abs(highest - 6e-3), 2e-5);
  }

  // Dense random spheres and dimers (periodic in x and z, walls in y), fast and spinning: one
  // driver step, then the whole system again with fine RK4 and all-pairs forces over the same time.
  // No pair from different clusters comes into contact within the lifetime, and the two end states
  // agree (the clusters really were independent). The same check over several lifetimes does find
  // such contacts, so it has teeth.
  void clustersNeverInteractWithinTheirLifetime_data() {
    QTest::addColumn<bool>("shaftEnds");
    // The bounding-radius lifetime (clumps), and the paper's: a dimer's distances depend only on its
    // two sphere centres, the ends of a "shaft" of length 2 x offset, as a spherocylinder's depend
    // on its shaft, so 0.5 Delta / max |v +- (l/2) w x u| applies (spheres: |v|).
    QTest::newRow("bounding radius") << false;
    QTest::newRow("shaft ends (the paper)") << true;
  }
  void clustersNeverInteractWithinTheirLifetime() {
    QFETCH(bool, shaftEnds);
    SpringSystem sys;
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> radius(0.4e-3, 0.8e-3);
    for (int i = 0; i < 250; ++i) {
      const double r = radius(rng);
      sys.shapes.push_back({r, i % 2 == 0 ? 0.8 * r : 0.0});
    }
    const double length = 0.014;
    sys.walls = {{0.0, 1.0}, {length, -1.0}};
    sys.box.length = Vec3::Constant(length);
    sys.box.periodic = {true, false, true};
    const RigidBodySet start = randomPlacement(sys, length, 0.5, 300.0, 9);
    QCOMPARE(start.size(), sys.shapes.size());

    ClusterStepSettings settings;
    settings.buffer = 0.3e-3;
    settings.rkf.relativeTolerance = 1e-10;
    ParticleModel model = sys.model();
    if (shaftEnds) {
      model.pointSpeed = [&](std::uint32_t i, const ParticleState& p, const Vec3&) {
        return shaftEndSpeed(p.velocity, p.angularVelocity, p.orientation * Vec3::UnitZ(),
                             2.0 * sys.shapes[i].offset);
      };
      model.pointDisplacement = [&](std::uint32_t i, const Vec3& dx, const Quat& before, const Quat& after) {
        return shaftEndDisplacement(dx, before.normalized() * Vec3::UnitZ(),
                                    after.normalized() * Vec3::UnitZ(), 2.0 * sys.shapes[i].offset);
      };
    }
    ClusterStepper stepper(model, settings);
    RigidBodySet cim = start;
    const ClusterStepReport report = stepper.step(cim, std::numeric_limits<double>::infinity());
    QVERIFY(report.ok);
    QCOMPARE(report.duration, report.lifetime);
    const std::vector<std::uint32_t>& clusterOf = report.clusters.clusterOf;

    // The closest approach of particles from different clusters during [0, horizon].
    const auto closestAcrossClusters = [&](double horizon, int steps, RigidBodySet* end) {
      RigidBodySet s = start;
      double closest = std::numeric_limits<double>::infinity();
      referenceRk4(sys, s, horizon, steps, [&](const RigidBodySet& now) {
        for (std::size_t i = 0; i < now.size(); ++i) {
          for (std::size_t j = i + 1; j < now.size(); ++j) {
            if (clusterOf[i] == clusterOf[j]) continue;
            const Vec3 sep = sys.box.minimumImage(now.position[j] - now.position[i]);
            if (sep.norm() > sys.shapes[i].reach() + sys.shapes[j].reach() + closest) continue;
            closest = std::min(closest, sys.distance(i, j, sep, now.orientation[i], now.orientation[j]));
          }
        }
      });
      if (end != nullptr) *end = s;
      return closest;
    };
    RigidBodySet reference;
    const double closest = closestAcrossClusters(report.duration, 400, &reference);
    const double difference = positionDifference(cim, reference, sys.box);
    std::size_t withNeighbours = 0;
    for (std::size_t c = 0; c < report.clusters.count(); ++c) {
      withNeighbours += report.clusters.membersOf(c).size() > 1 ? 1 : 0;
    }
    const double closestLater = closestAcrossClusters(6.0 * report.duration, 300, nullptr);
    qInfo(
        "lifetime %.3g s, %zu clusters (%zu with several particles, largest %zu); closest approach across "
        "clusters %.3g m (buffer %.3g m) within the lifetime, %.3g m within 6 lifetimes; CIM vs RK4 %.3g m",
        report.lifetime, report.clusters.count(), withNeighbours, report.clusters.largestSize(), closest,
        settings.buffer, closestLater, difference);
    QVERIFY(withNeighbours > 10);
    QVERIFY2(closest > 0.0, "particles of different clusters touched within the lifetime");
    // Independent clusters: the two agree to the reference's own error (RK4 at lifetime/400 across
    // the force's kinks, ~1e-9 m); a missed contact between clusters would show at the scale of the
    // overlaps, microns.
    CLUMPLAB_VERIFY_LESS(difference, 1e-8);
    QVERIFY2(closestLater < 0.0, "the check must be able to see contacts between clusters");
  }
};

QTEST_GUILESS_MAIN(CimClusterStepTest)
#include "tst_cim_cluster_step.moc"
