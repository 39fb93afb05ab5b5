// Energy bookkeeping (Mutze, Polyspherical grains, §8: with friction, total + dissipated is conserved). The
// dissipated energy is the work the integrator's kicks do with the dissipative forces, less the change of the
// energy stored in tangential springs, so the balance total + dissipated closes to the integrators'
// second order: halving dt divides its error by about 4, for damped collisions, friction (sliding
// and tumbling on a floor, no normal damping), global damping and a body dragged by an external
// load (whose work EnergyLedger::externalWork books the same way), under every integrator, and a small
// pile balances closely at its step. Booking power x dt at the velocities a contact law sees
// (the leapfrog's half-kicked ones) was first order: every case here failed against it.
#include <QtTest>
#include <functional>

#include "BuildSize.hpp"
#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/energy/EnergyWatch.hpp"
#include "core/io/SceneWriter.hpp"
#include "core/scene/Scene.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

struct Balance {
  double worstError = 0.0;  // max over the samples of |total + dissipated - external work - start| [J]
  double dissipated = 0.0;  // at the end [J]
  bool diverged = false;

  double relative() const { return worstError / dissipated; }
};

// total + dissipated - external work [J]: conserved.
double balanceOf(const EnergyReport& e) {
  return e.total() + e.dissipated - e.externalWork;
}

// Runs `world` for `duration` [s], sampling the balance at 200 instants that are the same for every
// dt (a multiple of duration / 200).
Balance runBalance(World& world, double duration) {
  const double dt = world.model().settings.timeStep;
  const long samples = 200;
  const long stepsPerSample = std::lround(duration / samples / dt);
  const double start = balanceOf(world.energy());
  Balance b;
  for (long s = 0; s < samples; ++s) {
    for (long n = 0; n < stepsPerSample; ++n) {
      if (!world.step()) {
        qWarning("%s", world.state().divergence.message.c_str());
        b.diverged = true;
        return b;
      }
    }
    b.worstError = std::max(b.worstError, std::abs(balanceOf(world.energy()) - start));
  }
  b.dissipated = world.energy().dissipated;
  return b;
}

TemplatePtr tbar() {
  return templateFromPebbles(tbarPebbles(), 2500);  // ~0.2 g
}

// Two spinning T-bars collide off-centre in free space at 0.6 m/s: normal damping only
// (restitution 0.5), linear spring-dashpot or Hertz with restitution on unloading (Mutze, Polyspherical
// grains eq. 56). `variant` shifts the second body, so the contacts start at other phases of a step.
std::unique_ptr<World> dampedCollision(IntegratorKind kind, double dt, int variant, bool hertz) {
  ContactModel model = linearContact(1e3, 0.5, 0.0);
  if (hertz) {
    model = frictionlessHertz(1e7);
    model.hertz.restitutionSquared = 0.25;
  }
  auto world = std::make_unique<World>(freeSpace(kind, dt), model, std::vector<Wall>{},
                                       std::vector<TemplatePtr>{tbar()});
  world->addBody(
      {0, Vec3(-4e-3, 0, 0), Quat(Eigen::AngleAxisd(0.3, Vec3(0, 1, 0))), Vec3(0.3, 0, 0), Vec3(3, 20, -5)});
  world->addBody({0, Vec3(4e-3 + 0.06e-3 * variant, 1e-3, 0.5e-3),
                  Quat(Eigen::AngleAxisd(1.1, Vec3(1, 1, 0).normalized())), Vec3(-0.3, 0, 0),
                  Vec3(-10, 4, 8)});
  return world;
}

// A T-bar thrown spinning onto a floor under gravity slides, tumbles and bounces: friction 0.5
// (Coulomb-limited tangential spring, or Mutze's regularised law, eq. 53) and no normal damping.
std::unique_ptr<World> slidingTumbling(IntegratorKind kind, double dt, int variant, bool hertz) {
  WorldSettings s = freeSpace(kind, dt);
  s.gravity = Vec3(0, 0, -9.81);
  ContactModel model = linearContact(1e3, 1.0, 0.5);
  if (hertz) {
    model = frictionlessHertz(1e7);
    model.hertz.friction = 0.5;
  }
  auto world = std::make_unique<World>(s, model, std::vector<Wall>{Wall::plane(Vec3::Zero(), Vec3::UnitZ())},
                                       std::vector<TemplatePtr>{tbar()});
  world->addBody({0, Vec3(0, 0, 4e-3 + 0.05e-3 * variant),
                  Quat(Eigen::AngleAxisd(1.2, Vec3(1, 0.3, 0).normalized())), Vec3(0.15, 0.05, -0.1),
                  Vec3(20, -40, 30)});
  return world;
}

// A T-bar tumbling in free fall with global damping 3 /s and 5 /s (WorldSettings).
std::unique_ptr<World> globalDamping(IntegratorKind kind, double dt, int variant) {
  WorldSettings s = freeSpace(kind, dt);
  s.gravity = Vec3(0, 0, -9.81);
  s.linearDamping = 3.0;
  s.angularDamping = 5.0;
  auto world =
      std::make_unique<World>(s, ContactModel{}, std::vector<Wall>{}, std::vector<TemplatePtr>{tbar()});
  world->addBody({0, Vec3::Zero(), Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized())),
                  Vec3(0.2, -0.1, 0.5), Vec3(30, -80, 50.0 + variant)});
  return world;
}

// A T-bar dropped flat onto a floor with friction 0.5 and restitution 0.5 and dragged along it by
// an external load of 2 mN (about twice the friction) at a point fixed in the world, 3 mm off its
// centre: it slides and turns; the load's work is booked as external work (EnergyLedger::externalWork).
std::unique_ptr<World> dragged(IntegratorKind kind, double dt, int variant) {
  WorldSettings s = freeSpace(kind, dt);
  s.gravity = Vec3(0, 0, -9.81);
  auto world = std::make_unique<World>(s, linearContact(1e3, 0.5, 0.5),
                                       std::vector<Wall>{Wall::plane(Vec3::Zero(), Vec3::UnitZ())},
                                       std::vector<TemplatePtr>{tbar()});
  // A planar clump's largest principal moment is about its plane's normal: identity lays it flat.
  world->addBody({0, Vec3(0, 0, 1.02e-3 + 0.02e-3 * variant), Quat::Identity(), Vec3::Zero(), Vec3::Zero()});
  const Vec3 x = world->bodies().position[0];
  world->setExternalForce(0, Vec3(2e-3, 0.5e-3, 0), x + Vec3(0, 3e-3, 0));
  return world;
}

// Eight T-bars dropped into a 24 mm box: friction 0.5, restitution 0.3; a pile forms.
std::unique_ptr<World> pile(IntegratorKind kind, double dt) {
  WorldSettings s = freeSpace(kind, dt);
  s.gravity = Vec3(0, 0, -9.81);
  auto world = std::make_unique<World>(s, linearContact(1e3, 0.3, 0.5),
                                       Wall::box(Vec3(-12e-3, -12e-3, 0), Vec3(12e-3, 12e-3, 0.06)),
                                       std::vector<TemplatePtr>{tbar()});
  for (int i = 0; i < 8; ++i) {
    const Vec3 at(-5e-3 + 10e-3 * (i % 2), -5e-3 + 10e-3 * ((i / 2) % 2), 6e-3 + 10e-3 * (i / 4));
    const Vec3 axis = Vec3(1.0 + i, 2.0 - i, 0.5 * i).normalized();
    world->addBody({0, at, Quat(Eigen::AngleAxisd(0.7 * i, axis)), Vec3(0.02 * (i % 3), -0.01 * i, 0),
                    Vec3(5.0 * i, -3.0, 2.0)});
  }
  return world;
}

struct Scenario {
  const char* name;
  std::function<std::unique_ptr<World>(IntegratorKind, double dt, int variant)> build;
  double dt;        // the scenario's step [s]; also run at dt/2 and dt/4
  double duration;  // [s]
  // Linear contacts switch on with a kink in the force, which adds to the error an O(dt^2) term
  // whose sign depends on where in a step each contact starts: the error is averaged (rms) over
  // variants of the scenario so that its ratio over a halving is close to 4.
  int variants;
  double bound;  // on the rms relative error at dt
};

const std::vector<Scenario>& scenarios() {
  static const std::vector<Scenario> list = {
      {"damped collision, linear",
       [](IntegratorKind k, double dt, int v) { return dampedCollision(k, dt, v, false); }, 4e-6, 0.015, 24,
       2e-4},
      {"damped collision, Hertz",
       [](IntegratorKind k, double dt, int v) { return dampedCollision(k, dt, v, true); }, 2e-6, 0.015, 8,
       1.5e-4},
      {"friction, linear",
       [](IntegratorKind k, double dt, int v) { return slidingTumbling(k, dt, v, false); }, 4e-6, 0.04, 48,
       4e-4},
      {"friction, Hertz", [](IntegratorKind k, double dt, int v) { return slidingTumbling(k, dt, v, true); },
       2e-6, 0.04, 8, 4e-5},
      {"global damping", [](IntegratorKind k, double dt, int v) { return globalDamping(k, dt, v); }, 1e-5,
       0.2, 2, 1e-9},
      {"external load", [](IntegratorKind k, double dt, int v) { return dragged(k, dt, v); }, 4e-6, 0.04, 8,
       2e-5},
  };
  return list;
}

}  // namespace

class EnergyBookkeepingTest : public QObject {
  Q_OBJECT
 private slots:
  void balanceIsSecondOrder_data() {
    QTest::addColumn<IntegratorKind>("kind");
    QTest::addColumn<int>("scenario");
    for (IntegratorKind k : allIntegrators()) {
      for (std::size_t c = 0; c < scenarios().size(); ++c) {
        QTest::newRow(qPrintable(QString("%1 %2").arg(integratorName(k).data(), scenarios()[c].name)))
            << k << static_cast<int>(c);
      }
    }
  }
  void balanceIsSecondOrder() {
    QFETCH(IntegratorKind, kind);
    QFETCH(int, scenario);
    const Scenario& sc = scenarios()[static_cast<std::size_t>(scenario)];
    const double critical = sc.build(kind, sc.dt, 0)->timeSteps().critical;
    // Under the sanitizers the scenario's own step only (a sixth of the steps): every scenario and
    // integrator still runs and balances within its bound there; the order is the release build's check.
    const int halvings = test::sizedForBuild(3, 1);
    double errors[3] = {};
    for (int h = 0; h < halvings; ++h) {
      const double dt = sc.dt / (1 << h);
      double sum2 = 0.0, dissipated = 0.0, start = 0.0;
      for (int v = 0; v < sc.variants; ++v) {
        auto world = sc.build(kind, dt, v);
        start += world->energy().total() / sc.variants;
        const Balance b = runBalance(*world, sc.duration);
        QVERIFY(!b.diverged);
        sum2 += b.relative() * b.relative();
        dissipated += b.dissipated / sc.variants;
      }
      errors[h] = std::sqrt(sum2 / sc.variants);
      qInfo(
          "dt = %.3g s (critical %.3g s): dissipated %.3g of %.3g J, |d(balance)| / dissipated "
          "%.3g (rms over %d)",
          dt, critical, dissipated, start, errors[h], sc.variants);
      QVERIFY2(dissipated > 0.05 * std::abs(start), "the scenario must dissipate a good part of its energy");
    }
    CLUMPLAB_VERIFY_LESS(errors[0], sc.bound);
    if (halvings < 3) return;
    const double order = 0.5 * std::log2(errors[0] / errors[2]);
    qInfo("ratios %.2f, %.2f: order %.2f", errors[0] / errors[1], errors[1] / errors[2], order);
    QVERIFY2(order >= 1.8, qPrintable(QString("fitted order %1, expected 2").arg(order)));
  }

  void pileBalances_data() {
    QTest::addColumn<IntegratorKind>("kind");
    for (IntegratorKind k : allIntegrators()) QTest::newRow(integratorName(k).data()) << k;
  }
  void pileBalances() {
    // Hundreds of contacts start and end, clumps slide, tumble and come to rest on each other. The
    // pile is chaotic, so the runs at dt and dt/2 differ in detail: their errors still fall by
    // about 4 (the ratio of errors that are only first order is 2).
    QFETCH(IntegratorKind, kind);
    const double dt = 1e-5;
    double errors[2] = {};
    for (int h = 0; h < 2; ++h) {
      auto world = pile(kind, dt / (1 << h));
      const double start = world->energy().total();
      const Balance b = runBalance(*world, 0.15);
      QVERIFY(!b.diverged);
      errors[h] = b.relative();
      qInfo(
          "dt = %.3g s: dissipated %.3g of %.3g J, worst |d(balance)| / dissipated %.3g, %zu "
          "contacts "
          "at the end",
          dt / (1 << h), b.dissipated, start, b.relative(), world->contactCount());
      QVERIFY(world->contactCount() > 20);
      QVERIFY(b.dissipated > 0.3 * std::abs(start));
    }
    qInfo("ratio %.2f", errors[0] / errors[1]);
    CLUMPLAB_VERIFY_LESS(errors[0], 1e-3);
    QVERIFY2(errors[0] / errors[1] > 3.0, qPrintable(QString("ratio %1").arg(errors[0] / errors[1])));
  }

  void refreshingForcesBooksNothingTwice_data() {
    QTest::addColumn<IntegratorKind>("kind");
    for (IntegratorKind k : allIntegrators()) QTest::newRow(integratorName(k).data()) << k;
  }
  void refreshingForcesBooksNothingTwice() {
    // An edit that leaves the force law as it is (gravity set to its value) makes the next step
    // start with a force evaluation at an unchanged state (World::refreshForces; in the kick-drift-
    // kick schemes the dashpots then see the synchronous velocities): those forces act over the
    // first half of the step in place of the old ones and are booked for that half only. Booking
    // them for a whole step, or not at all, would put about h P / dissipated ~ 4e-3 per refresh
    // into the balance.
    QFETCH(IntegratorKind, kind);
    const double dt = 4e-6;
    auto plain = dampedCollision(kind, dt, 0, false);
    auto edited = dampedCollision(kind, dt, 0, false);
    const EnergyReport e0 = plain->energy();
    const double start = balanceOf(e0);
    std::size_t refreshes = 0;
    double worstPlain = 0.0, worstEdited = 0.0;
    for (int n = 0; n < 3000; ++n) {
      QVERIFY(plain->step());
      if (plain->contactCount() > 0 && n % 7 == 0) {
        edited->editModel([&](EditableModel& m) { m.gravity = edited->model().settings.gravity; });
        ++refreshes;
      }
      QVERIFY(edited->step());
      const EnergyReport a = plain->energy(), b = edited->energy();
      worstPlain = std::max(worstPlain, std::abs(balanceOf(a) - start));
      worstEdited = std::max(worstEdited, std::abs(balanceOf(b) - start));
    }
    const double dissipated = edited->state().ledger.dissipated;
    qInfo(
        "%zu refreshes in contact: dissipated %.6g J (%.6g J without), worst balance error %.3g relative "
        "(%.3g without)",
        refreshes, dissipated, plain->state().ledger.dissipated, worstEdited / dissipated,
        worstPlain / plain->state().ledger.dissipated);
    QVERIFY(refreshes > 20);
    QVERIFY(dissipated > 0.1 * e0.total());
    CLUMPLAB_VERIFY_LESS(worstEdited, 2e-4 * dissipated);
  }

  // A pile come to rest after an edit (the watch started again, little energy in motion) whose
  // balance wanders by 1e-5 of the energy the pour had is no blow-up; a growth that doubles every
  // sample is one within a few samples of passing 1e-3 of it (EnergyWatch::kRunScaleShare).
  void theWatchMeasuresGrowthAgainstTheRunsEnergy() {
    EnergyWatch watch;
    EnergyReport e;
    e.peGravity = 100.0;
    e.keTranslational = 400.0;  // the pour
    QVERIFY(!watch.observe(e));
    e.keTranslational = 0.0;
    e.dissipated = 400.0;
    QVERIFY(!watch.observe(e));
    watch.reset();  // an edit: the watch starts again at rest
    e.keTranslational = 1e-3;
    QVERIFY(!watch.observe(e));
    for (int k = 0; k < 50; ++k) {
      e.time += 0.01;
      e.keTranslational = 1e-3 + 4e-3 * (k % 2);  // +4e-3 J and back: 1e-5 of the pour
      QVERIFY(!watch.observe(e));
    }
    int samples = 0;
    double gained = 1e-3;
    std::optional<EnergyBlowUp> blowUp;
    while (!blowUp && samples < 100) {
      gained *= 2.0;
      e.keTranslational = gained;
      blowUp = watch.observe(e);
      ++samples;
    }
    QVERIFY(blowUp.has_value());
    CLUMPLAB_VERIFY_LESS(blowUp->growth, 2.0 * EnergyWatch::kRunScaleShare * 400.0 + 1e-3);
    CLUMPLAB_VERIFY_LESS(samples, 12);
  }

  // The rest scale alone: a pile opened at rest (no pour in the run's scale) whose balance wanders
  // by 5e-3 J (half its elastic energy, so beyond the share of the energy in motion) is no blow-up against 1
  // J of lifting every body by a pebble radius; a doubling growth passes a tenth of it within a few samples.
  void theWatchMeasuresGrowthAgainstTheRestScale() {
    EnergyWatch watch;
    EnergyReport e;
    e.peGravity = 500.0;
    e.peElastic = 1e-2;
    const double restScale = 1.0;
    QVERIFY(!watch.observe(e, restScale));
    for (int k = 0; k < 50; ++k) {
      e.time += 0.01;
      e.keTranslational = 5e-3 * (k % 2);  // half the elastic energy, and back
      QVERIFY(!watch.observe(e, restScale));
    }
    QVERIFY(watch.observe(e, 0.0).has_value());  // without gravity's scale the wander would count
    EnergyWatch fresh;
    e.keTranslational = 0.0;
    QVERIFY(!fresh.observe(e, restScale));
    double gained = 5e-3;
    int samples = 0;
    std::optional<EnergyBlowUp> blowUp;
    while (!blowUp && samples < 100) {
      gained *= 2.0;
      e.keTranslational = gained;
      blowUp = fresh.observe(e, restScale);
      ++samples;
    }
    QVERIFY(blowUp.has_value());
    CLUMPLAB_VERIFY_LESS(blowUp->growth, 2.0 * EnergyWatch::kRestShare * restScale);
    CLUMPLAB_VERIFY_LESS(samples, 8);
  }

  // The energy watch lives in the World (core/energy/EnergyWatch.hpp), so every driver of it (app, CLI,
  // tests) stops at a blow-up: a ball bouncing on a floor at 2x the critical step (1.3x the limit of
  // its one contact with the floor; the estimate takes it pinched from both sides) gains energy at
  // every bounce with no NaN and overlaps far from half its radius; the World stops with the
  // watch's explanation. At a stable step it never trips, nor when an edit changes the energy
  // without booking it (gravity tripled mid-flight: the watch starts again), nor for the energy a
  // body added by hand brings.
  void energyBlowUpIsADivergence() {
    const auto ballWorld = [](double dt) {
      WorldSettings s;
      s.timeStep = dt;
      s.gravity = Vec3(0.0, 0.0, -9.81);
      auto w = std::make_unique<World>(
          s, linearContact(1e4, 1.0, 0.0), std::vector<Wall>{Wall::plane(Vec3::Zero(), Vec3::UnitZ())},
          std::vector<TemplatePtr>{templateFromPebbles({Pebble{Vec3::Zero(), 5e-3}}, 2700.0)});
      w->addBody({0, Vec3(0.0, 0.0, 0.02), Quat::Identity(), Vec3::Zero(), Vec3::Zero()});
      return w;
    };
    auto unstable = ballWorld(1e-3);
    QVERIFY(unstable->model().settings.timeStep > 2.0 * unstable->timeSteps().critical);
    double deepest = 0.0;
    int steps = 0;
    while (steps < 3000 && unstable->step()) {
      deepest = std::max(deepest, unstable->state().worstOverlapRatio);
      ++steps;
    }
    const Divergence& d = unstable->state().divergence;
    QVERIFY2(d.happened, "the watch must stop the run");
    const QString message = QString::fromStdString(d.message);
    QVERIFY2(message.contains("the energy (total + dissipated) grew by") && message.contains("critical step"),
             d.message.c_str());
    CLUMPLAB_VERIFY_LESS(deepest, 0.2);
    QVERIFY(unstable->bodies().velocity[0].allFinite());
    QVERIFY(!unstable->step());  // stays stopped

    auto stable = ballWorld(2e-5);
    for (int n = 0; n < 150000; ++n) {
      if (n == 2000) {
        stable->editModel([&](EditableModel& m) {
          m.gravity = Vec3(0.0, 0.0, -29.43);
        });  // +2 m g h of potential energy, not booked
        stable->addBody({0, Vec3(0.03, 0.0, 0.05), Quat::Identity(), Vec3(0.0, 0.0, 1.0), Vec3::Zero()});
      }
      QVERIFY2(stable->step(), stable->state().divergence.message.c_str());
    }
  }
};

QTEST_GUILESS_MAIN(EnergyBookkeepingTest)
#include "tst_energy_bookkeeping.moc"
