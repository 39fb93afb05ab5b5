// Bodies at rest on a floor stay at rest (issue 38, item 1). Under every contact law (linear, Mutze's hertz
// with restitution_squared 1 and 0.09, hertz-mindlin) and every integrator, a 5 mm sphere and a three-pebble
// T placed on a plane wall at their static overlap h0 keep their place and speed at round-off level for
// twenty contact periods, and placed 3e-5 h0 off it they oscillate about it within that offset; the
// dissipated energy, sampled every step, never decreases. The issue's case is among them: the sphere
// (density 2500, E 1e8, nu 0.25, delta 0.09) placed at h0 as the issue printed it, 1.2456e-6 m (3.0e-5 h0
// deep), at dt 1e-6, 2e-6 and 4e-6 s. Mutze's law as it was, switching to delta F_Hertz on the sign of the
// normal velocity, made it chatter and sink (0.26 h0 in these 37 ms at 2e-6 s; 1.5 h0 in the issue's longer
// run) and booked negative dissipation; the cim integrator stopped on it. Also: dropped bodies stop
// bouncing (and, what the law cannot give, do not come to rest: droppedBodiesComeToRest).
#include <QtTest>
#include <limits>

#include "TestSupport.hpp"
#include "core/world/MotionEnergy.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

constexpr double kRadius = 5e-3;  // [m], every pebble
constexpr double kDensity = 2500.0;
constexpr double kGravity = 9.81;  // [m/s^2], along -z

enum class Law { Linear, Hertz, HertzLossy, HertzMindlin };

const char* lawName(Law law) {
  switch (law) {
    case Law::Linear:
      return "linear";
    case Law::Hertz:
      return "hertz d=1";
    case Law::HertzLossy:
      return "hertz d=0.09";
    case Law::HertzMindlin:
      break;
  }
  return "hertz-mindlin";
}

// The laws at about the same stiffness at the sphere's rest overlap (the linear one at Mutze's tangent
// stiffness there), with dashpots of restitution 0.5 where the law has them, and no friction (which the
// cim and rk4 integrators take with every law).
ContactModel lawModel(Law law) {
  if (law == Law::Linear) return linearContact(1.5e4, 0.5, 0.0);
  ContactModel c;
  if (law == Law::HertzMindlin) {
    c.kind = ContactModel::Kind::HertzMindlin;
    c.hertzMindlin = {1e8, 0.25, 0.5, 0.0};
    return c;
  }
  c = frictionlessHertz(1e8);
  c.hertz.poisson = 0.25;
  c.hertz.restitutionSquared = law == Law::Hertz ? 1.0 : 0.09;
  return c;
}

// The overlap [m] at which a pebble of radius r on a plane carries the force f [N], by the law's normal
// force on loading: f/k, Mutze's eq. 57 with r~ = 2r, or (4/3) E* sqrt(R*) d^(3/2) with R* = r.
double staticOverlap(const ContactModel& c, double r, double f) {
  switch (c.kind) {
    case ContactModel::Kind::Linear:
      return f / c.linear.stiffness;
    case ContactModel::Kind::Hertz: {
      const double k = std::sqrt(3.0) / 2.0 * c.hertz.young / (1.0 - c.hertz.poisson * c.hertz.poisson) *
                       std::sqrt(2.0 * r);
      return std::pow(f / k, 2.0 / 3.0);
    }
    case ContactModel::Kind::HertzMindlin:
      break;
  }
  return std::pow(f / (4.0 / 3.0 * c.hertzMindlin.effectiveYoung() * std::sqrt(r)), 2.0 / 3.0);
}

// A sphere, or three spheres in a T (two for the bar, one for the stem) that lie flat on a floor: their
// centre of mass is the centroid of the three, so each carries a third of the weight.
std::vector<Pebble> shape(bool tee) {
  if (!tee) return {Pebble{Vec3::Zero(), kRadius}};
  return {Pebble{Vec3(-12e-3, 0, 0), kRadius}, Pebble{Vec3(12e-3, 0, 0), kRadius},
          Pebble{Vec3(0, -15e-3, 0), kRadius}};
}

struct Resting {
  std::unique_ptr<World> world;
  double overlap = 0.0;  // h0 of each pebble [m]
  double period = 0.0;   // of the vertical oscillation about the rest overlap [s]
  double reach = 0.0;    // the template's bounding radius [m]
};

// The body at rest on a plane wall at z = 0, its pebbles at the law's static overlap, or at the overlap
// `placed` [m] when that is given (negative: a gap).
Resting resting(IntegratorKind kind, double dt, const ContactModel& contact, bool tee,
                double placed = std::numeric_limits<double>::quiet_NaN()) {
  WorldSettings s;
  s.timeStep = dt;
  s.integrator = kind;
  s.gravity = Vec3(0, 0, -kGravity);
  const TemplatePtr t = templateFromPebbles(shape(tee), kDensity);
  Quat q = Quat::Identity();
  if (tee) {  // the pebbles' plane (in the principal frame) turned horizontal
    const std::vector<Pebble>& p = t->pebbles;
    const Vec3 normal = (p[1].center - p[0].center).cross(p[2].center - p[0].center).normalized();
    q = Quat::FromTwoVectors(normal, Vec3::UnitZ());
  }
  const double load = t->mass * kGravity / static_cast<double>(t->pebbles.size());
  Resting r;
  r.overlap = staticOverlap(contact, kRadius, load);
  r.reach = t->boundingRadius;
  // Tangent stiffness of one contact at h0 (3/2 f/h for the Hertz laws), the body's mass over them.
  const double stiffness = (contact.kind == ContactModel::Kind::Linear ? 1.0 : 1.5) * load / r.overlap;
  r.period = 2.0 * M_PI * std::sqrt(load / kGravity / stiffness);
  r.world = std::make_unique<World>(s, contact, std::vector<Wall>{Wall::plane(Vec3::Zero(), Vec3::UnitZ())},
                                    std::vector<TemplatePtr>{t});
  const double overlap = std::isnan(placed) ? r.overlap : placed;
  r.world->addBody({0, Vec3(0, 0, kRadius - overlap), q, Vec3::Zero(), Vec3::Zero()});
  return r;
}

const IntegratorKind kAllKinds[] = {IntegratorKind::Leapfrog, IntegratorKind::Midpoint,
                                    IntegratorKind::Splitting, IntegratorKind::Cim, IntegratorKind::Rk4};

}  // namespace

class ContactsAtRestTest : public QObject {
  Q_OBJECT
 private slots:
  // Placed at the static overlap h0 (to round-off), or 3e-5 h0 deeper or shallower: the issue placed its
  // sphere at h0 = 1.2456e-6 m as printed, 3.01e-5 h0 below the equilibrium (those rows use that number).
  void bodiesAtRestStayAtRest_data() {
    QTest::addColumn<IntegratorKind>("kind");
    QTest::addColumn<int>("law");
    QTest::addColumn<bool>("tee");
    QTest::addColumn<double>("dt");
    QTest::addColumn<double>("offset");  // relative to h0; NaN: the issue's 1.2456e-6 m
    const double issue = std::numeric_limits<double>::quiet_NaN();
    for (const IntegratorKind k : kAllKinds) {
      for (const Law law : {Law::Linear, Law::Hertz, Law::HertzLossy, Law::HertzMindlin}) {
        for (const bool tee : {false, true}) {
          std::vector<std::pair<double, double>> cases;  // dt, offset
          for (const double offset :
               tee ? std::vector<double>{0.0, 3e-5} : std::vector<double>{0.0, 3e-5, -3e-5})
            cases.emplace_back(2e-6, offset);
          if (law == Law::HertzLossy && !tee) {
            for (const double dt : {1e-6, 2e-6, 4e-6}) cases.emplace_back(dt, issue);
          }
          for (const auto& [dt, offset] : cases) {
            const QString where = std::isnan(offset) ? QString("h=1.2456e-6 (the issue)")
                                  : offset == 0.0    ? QString("at h0")
                                                  : QString("h0%1%2").arg(offset > 0 ? "+" : "").arg(offset);
            QTest::newRow(qPrintable(QString("%1 %2 %3 dt=%4 %5")
                                         .arg(integratorName(k).data(), lawName(law), tee ? "T" : "sphere")
                                         .arg(dt)
                                         .arg(where)))
                << k << static_cast<int>(law) << tee << dt << offset;
          }
        }
      }
    }
  }
  // Twenty periods of the body's vertical oscillation on its contacts (about 37 ms).
  // At h0: the overlap r - z is known to an ulp of the height z (8.7e-19 m at 5 mm, 7e-13 h0), so weight and
  // contact force disagree by up to ~1e-12 m g; in 37 ms that speeds the body up to at most ~4e-13 m/s
  // (6e-10 h0 / period) and moves it by far less than the ulp. The bounds are 1e-9 h0 for the drift and
  // 1e-8 h0 / period for the speed (the old switch: 0.26 h0 and 50 times the offset's speed, below).
  // Placed off h0 by d, the body oscillates about its rest overlap, elastically (hertz d=1, and Mutze's
  // law below the largest overlap) or damped: it may move by up to twice d from where it started, at up to
  // the speed d omega of the contact's oscillation (omega = 2 pi / period, on loading; Mutze's unloading
  // branch is 1/delta stiffer but holds the body within delta d, its speed below sqrt(delta) d omega); the
  // bounds are 2.5 d and 3 d omega. The old switch sank the issue's sphere by 0.26 h0 in this time
  // (0.5 h0 at dt 4e-6 s).
  // The dissipated energy: every step's change at least -1e-12 m g h0 (the round-off of the dashpots' work
  // at velocities of 1e-16 m/s is 1e-26 m g h0; the old switch booked -0.05 to -0.2 m g h0 in all).
  void bodiesAtRestStayAtRest() {
    QFETCH(IntegratorKind, kind);
    QFETCH(int, law);
    QFETCH(bool, tee);
    QFETCH(double, dt);
    QFETCH(double, offset);
    const ContactModel contact = lawModel(static_cast<Law>(law));
    const double h0 = resting(kind, dt, contact, tee).overlap;
    const double placed = std::isnan(offset) ? 1.2456e-6 : h0 * (1.0 + offset);
    Resting r = resting(kind, dt, contact, tee, placed);
    World& world = *r.world;
    const double d = std::abs(placed - h0);
    const double mass = world.bodies().mass[0];
    const double energyScale = mass * kGravity * h0;  // m g h0 [J]
    const double omega = 2.0 * M_PI / r.period;
    const double driftBound = d > 0.0 ? 2.5 * d : 1e-9 * h0;
    const double speedBound = d > 0.0 ? 3.0 * d * omega : 1e-8 * h0 / r.period;
    const Vec3 x0 = world.bodies().position[0];
    const Quat q0 = world.bodies().orientation[0];
    double drift = 0.0, speed = 0.0, worstDrop = 0.0, dissipated = world.state().ledger.dissipated;
    const long steps = std::lround(20.0 * r.period / dt);
    for (long n = 0; n < steps; ++n) {
      mustStep(world);
      const BodyState& b = world.bodies();
      drift = std::max(drift, (b.position[0] - x0).norm() + r.reach * b.orientation[0].angularDistance(q0));
      speed = std::max(speed, b.velocity[0].norm() + r.reach * b.angularVelocity[0].norm());
      const double e = world.state().ledger.dissipated;
      worstDrop = std::min(worstDrop, e - dissipated);
      dissipated = e;
    }
    qInfo(
        "%ld steps, placed %.4g h0 off: drift %.3g of its bound, speed %.3g of its bound, dissipated %.3g m "
        "g "
        "h0 (worst step %.3g)",
        steps, (placed - h0) / h0, drift / driftBound, speed / speedBound, dissipated / energyScale,
        worstDrop / energyScale);
    CLUMPLAB_VERIFY_LESS(drift, driftBound);
    CLUMPLAB_VERIFY_LESS(speed, speedBound);
    CLUMPLAB_VERIFY_LESS(-1e-12 * energyScale, worstDrop);
    QVERIFY(world.contactCount() == (tee ? 3u : 1u));
  }

  // A sphere and the T dropped flat from 5 mm onto the floor with delta = 0.25 (e = 0.5): each bounce takes
  // 3/4 of the energy, the bounces end after about three fall times (0.1 s), and the dissipated energy
  // never decreases while total + dissipated holds (to the integrators' error over the impacts, 3e-5 of the
  // drop energy for the leapfrog at this step). After the last landing the body stays in contact on the
  // branch below its largest overlap; the branch's dashpot on approach strokes (hertzForce) damps what
  // rings there: the kinetic energy falls below 1e-9 of the drop energy by 0.105 s, 14 ms after the last
  // bounce (without that dashpot it rang for ever with up to 4.4e-4 of the drop energy).
  void droppedBodiesComeToRest_data() {
    QTest::addColumn<IntegratorKind>("kind");
    QTest::addColumn<bool>("tee");
    for (const IntegratorKind k : kAllKinds) {
      for (const bool tee : {false, true}) {
        QTest::newRow(qPrintable(QString("%1 %2").arg(integratorName(k).data(), tee ? "T" : "sphere")))
            << k << tee;
      }
    }
  }
  void droppedBodiesComeToRest() {
    QFETCH(IntegratorKind, kind);
    QFETCH(bool, tee);
    ContactModel contact = lawModel(Law::HertzLossy);
    contact.hertz.restitutionSquared = 0.25;
    const double height = 5e-3;  // [m], the gap below the pebbles
    Resting r = resting(kind, 2e-6, contact, tee, -height);
    World& world = *r.world;
    const double dropEnergy = world.bodies().mass[0] * kGravity * height;
    const double e0 = world.energy().total();
    double lastApart = 0.0, loudest = 0.0, lastLoud = 0.0, worstDrop = 0.0, worstBalance = 0.0;
    double dissipated = world.state().ledger.dissipated;
    for (long n = 0; world.time() < 0.3; ++n) {
      mustStep(world);
      if (world.contactCount() == 0) lastApart = world.time();
      const EnergyReport motion = motionEnergy(world.model(), world.state());
      const double ke = motion.keTranslational + motion.keRotational;
      if (ke > 1e-9 * dropEnergy) lastLoud = world.time();
      if (world.time() > 0.15) loudest = std::max(loudest, ke);
      worstDrop = std::min(worstDrop, world.state().ledger.dissipated - dissipated);
      dissipated = world.state().ledger.dissipated;
      if (n % 100 == 0) {
        const EnergyReport e = world.energy();
        worstBalance = std::max(worstBalance, std::abs(e.total() + e.dissipated - e0));
      }
    }
    qInfo(
        "last bounce ends at %.4f s; dissipated %.4f of the drop energy; after 0.15 s KE up to %.3g of it "
        "(above 1e-9 of it until %.4f s); |d(total + dissipated)| %.3g of it, worst step of dissipated %.3g",
        lastApart, dissipated / dropEnergy, loudest / dropEnergy, lastLoud, worstBalance / dropEnergy,
        worstDrop / dropEnergy);
    CLUMPLAB_VERIFY_LESS(lastApart, 0.12);
    CLUMPLAB_VERIFY_LESS(-1e-15 * dropEnergy, worstDrop);
    CLUMPLAB_VERIFY_LESS(worstBalance, 1e-4 * dropEnergy);  // the leapfrog's error over the impacts
    CLUMPLAB_VERIFY_LESS(loudest, 1e-20 * dropEnergy);      // after 0.15 s: at rest
    CLUMPLAB_VERIFY_LESS(lastLoud, 0.12);
  }

  // The largest overlap is state: a checkpoint taken while the sphere loads the floor, restored after the
  // bounces that followed changed it, replays those steps to the bit (World's neighbour list carries it for
  // leapfrog, midpoint and splitting; the cim and rk4 integrators' copy of their contact memory for those).
  void checkpointsCarryTheLargestOverlap_data() {
    QTest::addColumn<IntegratorKind>("kind");
    for (const IntegratorKind k : kAllKinds) QTest::newRow(integratorName(k).data()) << k;
  }
  void checkpointsCarryTheLargestOverlap() {
    QFETCH(IntegratorKind, kind);
    ContactModel contact = lawModel(Law::HertzLossy);
    contact.hertz.restitutionSquared = 0.25;
    Resting r = resting(kind, 2e-6, contact, false, -5e-3);
    World& world = *r.world;
    while (world.contactCount() == 0) mustStep(world);
    for (int n = 0; n < 10; ++n) mustStep(world);  // loading, the largest overlap growing
    const WorldCheckpoint saved = world.checkpoint();
    const double savedDissipated = world.state().ledger.dissipated;
    for (int n = 0; n < 30000; ++n) mustStep(world);  // the next bounces
    const std::uint64_t after = stateHash(world);
    const double dissipated = world.state().ledger.dissipated;
    QVERIFY(dissipated > savedDissipated);
    world.restore(saved);
    QCOMPARE(world.state().ledger.dissipated, savedDissipated);
    for (int n = 0; n < 30000; ++n) mustStep(world);
    QCOMPARE(stateHash(world), after);
    QCOMPARE(world.state().ledger.dissipated, dissipated);
  }

  // Mutze's law keeps each contact's largest overlap where Hertz-Mindlin keeps its spring's stiffness
  // (thousands of N/m, which read as an overlap would leave the contact without force): a switch of the
  // law between steps forgets the history, and the sphere resting on the floor stays on it, under each
  // integrator (cim and rk4 keep their own memory, emptied while the law needs none).
  void switchingTheLawKeepsTheBodyOnTheFloor_data() {
    QTest::addColumn<IntegratorKind>("kind");
    for (const IntegratorKind k : kAllKinds) QTest::newRow(integratorName(k).data()) << k;
  }
  void switchingTheLawKeepsTheBodyOnTheFloor() {
    QFETCH(IntegratorKind, kind);
    const ContactModel mindlin = lawModel(Law::HertzMindlin), mutze = lawModel(Law::HertzLossy);
    Resting r = resting(kind, 2e-6, mindlin, false);
    World& world = *r.world;
    const double deepest =
        std::max(r.overlap, staticOverlap(mutze, kRadius, world.bodies().mass[0] * kGravity));
    for (const ContactModel& c : {mutze, mindlin, mutze}) {
      world.editModel([&](EditableModel& m) { m.contact = c; });
      for (int n = 0; n < 2000; ++n) mustStep(world);
      const double overlap = kRadius - world.bodies().position[0].z();
      QVERIFY2(overlap > 0.0 && overlap < 2.0 * deepest, qPrintable(QString("overlap %1 m").arg(overlap)));
    }
  }
};

QTEST_GUILESS_MAIN(ContactsAtRestTest)
#include "tst_contacts_at_rest.moc"
