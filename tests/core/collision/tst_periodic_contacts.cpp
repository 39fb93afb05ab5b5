// Periodic boundaries (Meland et al., Cluster integration method), contacts: two spheres, two T-bar clumps
// and two spherocylinders meeting across a face (x, y, z) or a corner collide exactly as the same pair in the
// middle of an open world, under each integrator (forces and torques at every step, trajectories, momentum
// and energy); a frictional pair sliding across a face keeps its tangential spring; a body wrapping into the
// box neither triggers nor hides a neighbour-list rebuild; field pairs use the minimum image and the
// uniform-field and gravity energies stay continuous across wraps.
#include <QtTest>

#include "TestSupport.hpp"
#include "core/clump/Spherocylinder.hpp"
#include "core/world/Generation.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

// A box with a corner away from the origin and unequal edges [m].
const Vec3 kLower(-0.03, -0.02, 0.01);
const Vec3 kLength(0.06, 0.05, 0.04);

PeriodicBox periodicOn(const std::array<bool, 3>& axes) {
  PeriodicBox box;
  box.lower = kLower;
  box.length = kLength;
  box.periodic = axes;
  return box;
}

TemplatePtr shape(int kind) {
  if (kind == 0) return templateFromPebbles({{Vec3::Zero(), 2e-3}}, 2500.0, "ball");
  if (kind == 1) return templateFromPebbles(tbarPebbles(), 2500.0, "tbar");
  return std::make_shared<const ClumpTemplate>(makeSpherocylinderTemplate("capsule", 1e-3, 4e-3, 2700.0));
}

struct Pair {
  BodyInit a, b;
};

// Two bodies about `center` approaching along `u`, off-centre, turned and spinning.
Pair approaching(const ClumpTemplate& t, const Vec3& center, const Vec3& u) {
  SplitMix64 rng(11);
  const Vec3 side = u.cross(Vec3(0.3, -0.5, 0.8)).normalized();
  const double gap = 2.0 * t.boundingRadius + 0.5e-3;
  Pair p;
  p.a = {0, center - 0.5 * gap * u + 0.2 * t.boundingRadius * side, randomRotation(rng),
         0.4 * u + 0.02 * side, Vec3(30, -20, 10)};
  p.b = {0, center + 0.5 * gap * u - 0.2 * t.boundingRadius * side, randomRotation(rng), -0.4 * u,
         Vec3(-10, 25, 15)};
  return p;
}

std::unique_ptr<World> pairWorld(IntegratorKind kind, const TemplatePtr& t, const PeriodicBox& box,
                                 const ContactModel& contact, const Pair& pair,
                                 const std::vector<Wall>& walls = {}) {
  WorldSettings s = freeSpace(kind, 1e-5);
  s.periodic = box;
  auto world = std::make_unique<World>(s, contact, walls, std::vector<TemplatePtr>{t});
  world->addBody(pair.a);
  world->addBody(pair.b);
  return world;
}

double kineticPlusElastic(World& w) {
  const EnergyReport e = w.energy();
  return e.keTranslational + e.keRotational + e.peElastic;
}

double angleBetween(const Quat& p, const Quat& q) {
  return 2.0 * std::asin(std::min(1.0, (p.conjugate() * q).vec().norm()));
}

}  // namespace

class PeriodicContactsTest : public QObject {
  Q_OBJECT
 private slots:
  void acrossAFaceAsInTheMiddle_data();
  void acrossAFaceAsInTheMiddle();
  void slidingAcrossAFaceKeepsTheSpring_data();
  void slidingAcrossAFaceKeepsTheSpring();
  void wrappingNeitherTriggersNorHidesRebuilds();
  void fieldPairsUseTheMinimumImage();
  void uniformFieldAndGravityEnergiesAreContinuous();
};

void PeriodicContactsTest::acrossAFaceAsInTheMiddle_data() {
  QTest::addColumn<IntegratorKind>("kind");
  QTest::addColumn<int>("shapeKind");
  QTest::addColumn<int>("face");  // 0 x, 1 y, 2 z, 3 the corner (x, y and z)
  const char* shapes[] = {"spheres", "T-bars", "spherocylinders"};
  const char* faces[] = {"x face", "y face", "z face", "corner"};
  for (const IntegratorKind k : allIntegrators()) {
    for (int s = 0; s < 3; ++s) {
      for (int f = 0; f < 4; ++f) {
        QTest::newRow((std::string(integratorName(k)) + ", " + shapes[s] + ", " + faces[f]).c_str())
            << k << s << f;
      }
    }
  }
}

void PeriodicContactsTest::acrossAFaceAsInTheMiddle() {
  QFETCH(IntegratorKind, kind);
  QFETCH(int, shapeKind);
  QFETCH(int, face);
  const TemplatePtr t = shape(shapeKind);
  std::array<bool, 3> axes = {face == 0 || face == 3, face == 1 || face == 3, face == 2 || face == 3};
  const PeriodicBox box = periodicOn(axes);
  Vec3 u = face == 3 ? Vec3(1, 1, 1).normalized() : Vec3::Unit(face);
  // The pair meets at the box's centre in the open world and, shifted by half the box along the
  // periodic axes, on the face (or corner) in the periodic one: one body on each side of it.
  const Vec3 center = kLower + 0.5 * kLength;
  Vec3 shift = Vec3::Zero();
  for (int a = 0; a < 3; ++a) shift[a] = axes[a] ? 0.5 * kLength[a] : 0.0;
  const Pair middle = approaching(*t, center, u);
  Pair across = middle;
  across.a.position += shift;
  across.b.position += shift;
  const ContactModel elastic = linearContact(1e3, 1.0, 0.0);
  auto open = pairWorld(kind, t, PeriodicBox{}, elastic, middle);
  auto periodic = pairWorld(kind, t, box, elastic, across);
  // Both start inside the box, on opposite sides of the face(s).
  for (int a = 0; a < 3; ++a) {
    if (!axes[a]) continue;
    const Vec3 xa = periodic->bodies().position[0], xb = periodic->bodies().position[1];
    QVERIFY2(std::abs(xa[a] - xb[a]) > 0.5 * kLength[a], "the bodies start on opposite sides of the face");
  }

  const double e0 = kineticPlusElastic(*open);
  const Vec3 p0 = open->energy().momentum;
  const double pScale = t->mass * 0.4;
  double forceScale = 0.0, forceError = 0.0, torqueError = 0.0, worstMomentum = 0.0;
  bool touchedAcross = false;
  // Until 50 steps after the collision is over.
  for (int n = 0, after = 0; after < 50; ++n) {
    QVERIFY2(n < 5000, "the collision did not end");
    after += forceScale > 0.0 && open->state().pebbleContacts == 0 ? 1 : 0;
    QVERIFY(open->step());
    QVERIFY(periodic->step());
    QCOMPARE(periodic->state().pebbleContacts, open->state().pebbleContacts);
    const BodyState &o = open->bodies(), &p = periodic->bodies();
    for (std::size_t b = 0; b < 2; ++b) {
      forceScale = std::max(forceScale, o.force[b].norm());
      forceError = std::max(forceError, (p.force[b] - o.force[b]).norm());
      torqueError = std::max(torqueError, (p.torque[b] - o.torque[b]).norm());
      // Centres inside the primary box after every step.
      for (int a = 0; a < 3; ++a) {
        if (!axes[a]) continue;
        QVERIFY(p.position[b][a] >= kLower[a] && p.position[b][a] < kLower[a] + kLength[a]);
      }
    }
    if (periodic->state().pebbleContacts > 0) {
      const Vec3 image = box.imageShift(p.position[1] - p.position[0]);
      bool allAxes = true;
      for (int a = 0; a < 3; ++a) allAxes = allAxes && (!axes[a] || image[a] != 0.0);
      touchedAcross = touchedAcross || allAxes;
    }
    worstMomentum = std::max(worstMomentum, (periodic->energy().momentum - p0).norm());
  }
  QVERIFY2(forceScale > 0.0, "the bodies never touched");
  QVERIFY2(touchedAcross, "the contact did not happen through the periodic face(s)");
  QVERIFY2(open->state().pebbleContacts == 0, "the collision is over");
  // Forces and torques as in the middle (to round-off of the positions' 0.05 m magnitude).
  QVERIFY2(forceError < 1e-8 * forceScale,
           qPrintable(QString("force error %1 of %2").arg(forceError).arg(forceScale)));
  QVERIFY2(torqueError < 1e-8 * forceScale * t->boundingRadius,
           qPrintable(QString("torque error %1 of %2").arg(torqueError).arg(forceScale * t->boundingRadius)));
  // Trajectories: the periodic positions are the middle ones shifted by whole box lengths.
  for (std::size_t b = 0; b < 2; ++b) {
    const BodyState &o = open->bodies(), &p = periodic->bodies();
    const Vec3 offset = box.minimumImage(p.position[b] - (o.position[b] + shift));
    QVERIFY2(offset.norm() < 1e-12, qPrintable(QString("position off by %1 m").arg(offset.norm())));
    QVERIFY((p.velocity[b] - o.velocity[b]).norm() < 1e-9 * 0.4);
    QVERIFY((p.angularVelocity[b] - o.angularVelocity[b]).norm() < 1e-7);
    QVERIFY(angleBetween(p.orientation[b], o.orientation[b]) < 1e-9);
    QVERIFY((o.velocity[b] - (b == 0 ? middle.a.velocity : middle.b.velocity)).norm() > 0.1);  // they bounced
  }
  // Momentum to round-off; energy as the open world conserves it (the integrator's error).
  QVERIFY2(worstMomentum < 1e-13 * pScale, qPrintable(QString("momentum change %1").arg(worstMomentum)));
  const double eOpen = kineticPlusElastic(*open), ePeriodic = kineticPlusElastic(*periodic);
  QVERIFY2(std::abs(eOpen - e0) < 1e-3 * e0, qPrintable(QString("energy error %1").arg((eOpen - e0) / e0)));
  QVERIFY2(std::abs(ePeriodic - eOpen) < 1e-9 * e0,
           qPrintable(QString("energy differs from the open world's by %1").arg((ePeriodic - eOpen) / e0)));
}

void PeriodicContactsTest::slidingAcrossAFaceKeepsTheSpring_data() {
  QTest::addColumn<IntegratorKind>("kind");
  for (const IntegratorKind k : allIntegrators()) QTest::newRow(integratorName(k).data()) << k;
}

void PeriodicContactsTest::slidingAcrossAFaceKeepsTheSpring() {
  // A ball spinning on top of another ball, both on a frictional floor, drifting along x across the
  // periodic face: the top ball slides on the lower one (a Coulomb-limited tangential spring) while
  // first one, then the other wraps. The pair behaves as the same pair in the middle.
  QFETCH(IntegratorKind, kind);
  const double r = 5e-3;
  const TemplatePtr ball = templateFromPebbles({{Vec3::Zero(), r}}, 2500.0, "ball");
  const PeriodicBox box = periodicOn({true, false, false});
  const std::vector<Wall> floor = {Wall::plane(Vec3(0, 0, kLower.z()), Vec3::UnitZ())};
  const ContactModel contact = linearContact(2e3, 0.5, 0.4);
  const auto place = [&](double x) {
    Pair p;
    const double lowZ = kLower.z() + r - 0.5 * ball->mass * 9.81 / 2e3;
    p.b = {0, Vec3(x, 0.0, lowZ), Quat::Identity(), Vec3(0.5, 0, 0), Vec3::Zero()};
    p.a = {0, Vec3(x + 1e-4, 0.0, lowZ + 2.0 * r - 2e-5), Quat::Identity(), Vec3(0.5, 0, 0), Vec3(0, 60, 0)};
    return p;
  };
  const double faceX = kLower.x() + kLength.x();
  WorldSettings s = freeSpace(kind, 1e-5);
  s.gravity = Vec3(0, 0, -9.81);
  World open(s, contact, floor, {ball});
  s.periodic = box;
  World periodic(s, contact, floor, {ball});
  const Pair middle = place(0.0), across = place(faceX - 4e-3);
  open.addBody(middle.a);
  open.addBody(middle.b);
  periodic.addBody(across.a);
  periodic.addBody(across.b);
  const double shift = across.a.position.x() - middle.a.position.x();

  const auto springOf = [](const World& w) -> Vec3 {
    const auto& pairs = w.state().contactHistory.pairs;
    for (std::size_t k = 0; k < pairs.size(); ++k) return w.state().contactHistory.pairSprings[k];
    return Vec3::Zero();
  };
  double springScale = 0.0, springError = 0.0, forceScale = 0.0, forceError = 0.0;
  bool straddled = false;
  for (int n = 0; n < 1600; ++n) {
    QVERIFY(open.step());
    QVERIFY(periodic.step());
    QCOMPARE(periodic.state().pebbleContacts, open.state().pebbleContacts);
    QCOMPARE(open.state().contactHistory.pairs.size(), std::size_t(1));
    QCOMPARE(periodic.state().contactHistory.pairs.size(), std::size_t(1));
    const Vec3 so = springOf(open), sp = springOf(periodic);
    springScale = std::max(springScale, so.norm());
    springError = std::max(springError, (sp - so).norm());
    for (std::size_t b = 0; b < 2; ++b) {
      forceScale = std::max(forceScale, open.bodies().force[b].norm());
      forceError = std::max(forceError, (periodic.bodies().force[b] - open.bodies().force[b]).norm());
    }
    const BodyState& p = periodic.bodies();
    // One ball wrapped, the other not, while they touch with a loaded spring.
    if (std::abs(p.position[0].x() - p.position[1].x()) > 0.5 * kLength.x() && so.norm() > 0.0 &&
        periodic.state().pebbleContacts > 0)
      straddled = true;
  }
  QVERIFY2(straddled, "the touching pair never straddled the face");
  QVERIFY2(springScale > 0.0, "the tangential spring never loaded");
  QVERIFY2(springError < 1e-8 * springScale,
           qPrintable(QString("spring differs by %1 of %2").arg(springError).arg(springScale)));
  QVERIFY2(forceError < 1e-8 * forceScale, qPrintable(QString("force differs by %1").arg(forceError)));
  for (std::size_t b = 0; b < 2; ++b) {
    const Vec3 offset =
        box.minimumImage(periodic.bodies().position[b] - open.bodies().position[b] - Vec3(shift, 0, 0));
    QVERIFY2(offset.norm() < 1e-12, qPrintable(QString("position off by %1 m").arg(offset.norm())));
    QVERIFY((periodic.bodies().angularVelocity[b] - open.bodies().angularVelocity[b]).norm() < 1e-7);
  }
  // Friction did work: the top ball lost spin, and the same dissipated energy was booked.
  QVERIFY(open.bodies().angularVelocity[0].y() < 55.0);
  CLUMPLAB_COMPARE_REL(periodic.state().ledger.dissipated, open.state().ledger.dissipated, 1e-8);
}

void PeriodicContactsTest::wrappingNeitherTriggersNorHidesRebuilds() {
  // Two balls drifting together across the x face (touching nothing): their displacement is far
  // below the skin, so no rebuild may happen, although their positions jump by a box length.
  const double r = 2e-3;
  const TemplatePtr ball = templateFromPebbles({{Vec3::Zero(), r}}, 2500.0, "ball");
  WorldSettings s = freeSpace(IntegratorKind::Leapfrog, 1e-5);
  s.periodic = periodicOn({true, true, true});
  World world(s, linearContact(1e3, 1.0, 0.0), {}, {ball});
  const double skin = world.neighbors().skin();
  const double faceX = kLower.x() + kLength.x();
  const Vec3 v(0.2 * skin / (100 * 1e-5), 0, 0);  // 0.2 skin in 100 steps
  world.addBody({0, Vec3(faceX - 0.05 * skin, 0, 0.02), Quat::Identity(), v, Vec3::Zero()});
  world.addBody(
      {0, Vec3(faceX - 0.05 * skin - 2 * r - 0.3 * skin, 0, 0.02), Quat::Identity(), v, Vec3::Zero()});
  QVERIFY(world.step());
  const std::size_t built = world.neighbors().rebuildCount();
  QCOMPARE(world.state().contactHistory.pairs.size(), std::size_t(1));
  for (int n = 0; n < 100; ++n) QVERIFY(world.step());
  QVERIFY2(world.bodies().position[0].x() < kLower.x() + skin, "the leading ball wrapped");
  QCOMPARE(world.neighbors().rebuildCount(), built);
  QCOMPARE(world.state().contactHistory.pairs.size(), std::size_t(1));
  // A ball moving on across the face to meet a resting one on the other side: rebuilds happen as
  // its displacement asks, and the contact through the face is found.
  World meet(s, linearContact(1e3, 1.0, 0.0), {}, {ball});
  meet.addBody({0, Vec3(faceX - 3 * r, 0, 0.02), Quat::Identity(), Vec3(0.5, 0, 0), Vec3::Zero()});
  meet.addBody({0, Vec3(kLower.x() + 2 * r, 0, 0.02), Quat::Identity(), Vec3::Zero(), Vec3::Zero()});
  bool met = false;
  for (int n = 0; n < 3000 && !met; ++n) {
    QVERIFY(meet.step());
    met = meet.state().pebbleContacts > 0;
  }
  QVERIFY2(met, "the balls met through the face");
  QVERIFY(meet.neighbors().rebuildCount() > 1);
}

void PeriodicContactsTest::fieldPairsUseTheMinimumImage() {
  // Two charged balls near opposite x faces feel each other as if they were the short distance
  // apart (through the face), not across the box.
  const TemplatePtr ball = templateFromPebbles({{Vec3::Zero(), 1e-3}}, 2500.0, "ball");
  WorldSettings s = freeSpace(IntegratorKind::Leapfrog, 1e-5);
  PointProperties q;
  q.charge = 1e-9;
  World open(s, linearContact(1e3, 1.0, 0.0), {}, {ball});
  open.addBody({0, Vec3(-0.004, 0, 0.02), Quat::Identity(), Vec3::Zero(), Vec3::Zero()}, q);
  open.addBody({0, Vec3(0.004, 0.001, 0.02), Quat::Identity(), Vec3::Zero(), Vec3::Zero()}, q);
  s.periodic = periodicOn({true, false, false});
  World periodic(s, linearContact(1e3, 1.0, 0.0), {}, {ball});
  const double faceX = kLower.x() + kLength.x();
  periodic.addBody({0, Vec3(faceX - 0.004, 0, 0.02), Quat::Identity(), Vec3::Zero(), Vec3::Zero()}, q);
  periodic.addBody({0, Vec3(kLower.x() + 0.004, 0.001, 0.02), Quat::Identity(), Vec3::Zero(), Vec3::Zero()},
                   q);
  open.refreshForces();
  periodic.refreshForces();
  for (std::size_t b = 0; b < 2; ++b) {
    const Vec3 fo = open.bodies().force[b], fp = periodic.bodies().force[b];
    QVERIFY2((fp - fo).norm() < 1e-12 * fo.norm(),
             qPrintable(QString("force %1 vs %2").arg(fp.x()).arg(fo.x())));
  }
  QVERIFY(open.bodies().force[0].x() < 0.0);  // repelled away from the partner
  CLUMPLAB_COMPARE_REL(periodic.energy().peFields, open.energy().peFields, 1e-12);
}

void PeriodicContactsTest::uniformFieldAndGravityEnergiesAreContinuous() {
  // A charge accelerated by E along periodic x, and a ball falling along periodic z, wrap several
  // times: the potential energy follows the continuous path (-q E.x, -m g.x), so kinetic plus
  // potential energy stays constant (the leapfrog is exact for a uniform force) instead of jumping.
  const TemplatePtr ball = templateFromPebbles({{Vec3::Zero(), 1e-3}}, 2500.0, "ball");
  WorldSettings s = freeSpace(IntegratorKind::Leapfrog, 1e-4);
  s.fields.electric = Vec3(2e5, 0, 0);
  s.gravity = Vec3(0, 0, -9.81);
  s.periodic = periodicOn({true, false, true});
  World world(s, linearContact(1e3, 1.0, 0.0), {}, {ball});
  PointProperties q;
  q.charge = 1e-9;
  world.addBody({0, Vec3(0, 0, 0.03), Quat::Identity(), Vec3::Zero(), Vec3::Zero()}, q);
  const auto total = [&] {
    const EnergyReport e = world.energy();
    return e.keTranslational + e.keRotational + e.peGravity + e.peFields;
  };
  const double e0 = total();
  int wrapsX = 0, wrapsZ = 0;
  Vec3 last = world.bodies().position[0];
  double worst = 0.0, keEnd = 0.0;
  for (int n = 0; n < 4000; ++n) {
    QVERIFY(world.step());
    const Vec3 x = world.bodies().position[0];
    wrapsX += std::abs(x.x() - last.x()) > 0.5 * kLength.x() ? 1 : 0;
    wrapsZ += std::abs(x.z() - last.z()) > 0.5 * kLength.z() ? 1 : 0;
    last = x;
    keEnd = world.energy().keTranslational;
    worst = std::max(worst, std::abs(total() - e0));
  }
  QVERIFY2(wrapsX >= 2 && wrapsZ >= 2,
           qPrintable(QString("wraps: %1 in x, %2 in z").arg(wrapsX).arg(wrapsZ)));
  QVERIFY2(worst < 1e-9 * keEnd, qPrintable(QString("energy jumps by %1 J of %2 J").arg(worst).arg(keEnd)));
}

QTEST_GUILESS_MAIN(PeriodicContactsTest)
#include "tst_periodic_contacts.moc"
