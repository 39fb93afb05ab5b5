// Spherocylinders (Meland et al., Cluster integration method): mass and inertia against Monte Carlo and the
// sphere limit; elastic capsule-capsule collisions conserve energy, momentum and angular momentum; contact
// torques are the paper's lever arms; a capsule dropped on a floor comes to rest flat.
#include <QtTest>
#include <random>

#include "TestSupport.hpp"
#include "core/clump/ShaftDistance.hpp"
#include "core/clump/Spherocylinder.hpp"
#include "core/scene/SceneOverlap.hpp"
#include "core/scene/SphereSwitch.hpp"
#include "core/world/Generation.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

constexpr double kRadius = 1e-3, kShaft = 4e-3, kDensity = 2700.0;  // the paper's particles

TemplatePtr capsule(double radius = kRadius, double shaft = kShaft) {
  return std::make_shared<const ClumpTemplate>(
      makeSpherocylinderTemplate("capsule", radius, shaft, kDensity));
}

// An orientation (principal frame -> world) that turns the capsule's shaft onto `axis`.
Quat shaftAlong(const ClumpTemplate& t, const Vec3& axis) {
  return Quat::FromTwoVectors(t.pebbles.front().axis, axis.normalized());
}

Vec3 worldAxis(const World& w, std::size_t body) {
  const ClumpTemplate& t = *w.model().templates[w.bodies().templateIndex[body]];
  return w.bodies().orientation[body] * t.pebbles.front().axis;
}

struct Totals {
  double energy;  // kinetic + elastic [J]
  Vec3 momentum, angularMomentum;
};

Totals totals(World& w) {
  const EnergyReport e = w.energy();
  return {e.keTranslational + e.keRotational + e.peElastic, e.momentum, e.angularMomentum};
}

}  // namespace

class SpherocylindersTest : public QObject {
  Q_OBJECT
 private slots:
  void massAndInertiaMatchMonteCarlo_data();
  void massAndInertiaMatchMonteCarlo();
  void shortShaftTendsToTheSphere();
  void templateFrameTurnsTheShaftOntoE1();
  void elasticCollisionsConserve_data();
  void elasticCollisionsConserve();
  void capsuleContactTorqueIsTheLeverArm();
  void endOnFloorTorqueIsTheLeverArm();
  void droppedTiltedComesToRestFlat_data();
  void droppedTiltedComesToRestFlat();
  void capsuleAmongSpheresInABox();
  void sphereSwitch();
  void initialOverlapOfShafts();
};

void SpherocylindersTest::massAndInertiaMatchMonteCarlo_data() {
  QTest::addColumn<double>("shaft");
  QTest::newRow("l = 4 r (the paper's)") << 4e-3;
  QTest::newRow("l = r / 2 (short, fat)") << 0.5e-3;
  QTest::newRow("l = 20 r (needle)") << 20e-3;
}

void SpherocylindersTest::massAndInertiaMatchMonteCarlo() {
  QFETCH(double, shaft);
  const double r = kRadius, h = 0.5 * shaft;
  // Uniform samples in the box around the capsule (shaft along z), kept if within r of the shaft.
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> x(-r, r), z(-h - r, h + r);
  const int n = 2000000;
  double inside = 0.0, izz = 0.0, ixx = 0.0, ixy = 0.0;
  for (int k = 0; k < n; ++k) {
    const Vec3 p(x(rng), x(rng), z(rng));
    const double along = std::clamp(p.z(), -h, h);
    if ((p - Vec3(0, 0, along)).squaredNorm() > r * r) continue;
    inside += 1.0;
    izz += p.x() * p.x() + p.y() * p.y();
    ixx += p.y() * p.y() + p.z() * p.z();
    ixy -= p.x() * p.y();
  }
  const double boxVolume = 4.0 * r * r * (2.0 * (h + r));
  const double cell = kDensity * boxVolume / n;  // mass per sample
  const SpherocylinderMass m = spherocylinderMass(r, shaft, kDensity);
  // 2e6 samples: statistical errors ~1e-3 relative; the tolerance is about 4 sigma.
  CLUMPLAB_COMPARE_REL(inside * cell, m.mass, 3e-3);
  CLUMPLAB_COMPARE_REL(izz * cell, m.axialMoment, 4e-3);
  CLUMPLAB_COMPARE_REL(ixx * cell, m.transverseMoment, 4e-3);
  QVERIFY(std::abs(ixy * cell) < 4e-3 * m.axialMoment);
  // The template carries them, ascending.
  const TemplatePtr t = capsule(r, shaft);
  QCOMPARE(t->mass, m.mass);
  QCOMPARE(t->principalMoments, Vec3(m.axialMoment, m.transverseMoment, m.transverseMoment));
  CLUMPLAB_COMPARE_REL(t->boundingRadius, r + h, 1e-15);
}

void SpherocylindersTest::shortShaftTendsToTheSphere() {
  const SpherocylinderMass zero = spherocylinderMass(kRadius, 0.0, kDensity);
  const double ballMass = kDensity * 4.0 / 3.0 * std::numbers::pi * std::pow(kRadius, 3);
  CLUMPLAB_COMPARE_REL(zero.mass, ballMass, 1e-15);
  CLUMPLAB_COMPARE_REL(zero.axialMoment, 0.4 * ballMass * kRadius * kRadius, 1e-15);
  CLUMPLAB_COMPARE_REL(zero.transverseMoment, 0.4 * ballMass * kRadius * kRadius, 1e-15);
  const SpherocylinderMass tiny = spherocylinderMass(kRadius, 1e-9, kDensity);
  CLUMPLAB_COMPARE_REL(tiny.transverseMoment, 0.4 * ballMass * kRadius * kRadius, 1e-5);
  CLUMPLAB_COMPARE_REL(tiny.axialMoment, 0.4 * ballMass * kRadius * kRadius, 1e-5);
  // l = 0 is an ordinary sphere pebble.
  const TemplatePtr ball = capsule(kRadius, 0.0);
  QVERIFY(ball->pebbles.front().isSphere());
  QCOMPARE(ball->boundingRadius, kRadius);
}

void SpherocylindersTest::templateFrameTurnsTheShaftOntoE1() {
  // I3 (about the shaft) < I1 = I2 for every l > 0, so the shaft is the body's first axis; the
  // frame as written (shaft along e3) maps onto it.
  for (const double shaft : {1e-6, 0.5e-3, 4e-3, 50e-3}) {
    const TemplatePtr t = capsule(kRadius, shaft);
    QVERIFY(t->principalMoments[0] < t->principalMoments[1]);
    QCOMPARE(t->pebbles.front().axis, Vec3(Vec3::UnitX()));
    QVERIFY((t->rotationFromInput * Vec3::UnitZ() - Vec3::UnitX()).norm() < 1e-15);
    QVERIFY(std::abs(t->rotationFromInput.norm() - 1.0) < 1e-15);
  }
}

void SpherocylindersTest::elasticCollisionsConserve_data() {
  QTest::addColumn<IntegratorKind>("kind");
  QTest::addColumn<int>("layout");
  for (const IntegratorKind k : allIntegrators()) {
    QTest::newRow((std::string(integratorName(k)) + ", head-on").c_str()) << k << 0;
    QTest::newRow((std::string(integratorName(k)) + ", off-centre").c_str()) << k << 1;
    QTest::newRow((std::string(integratorName(k)) + ", side by side").c_str()) << k << 2;
  }
}

void SpherocylindersTest::elasticCollisionsConserve() {
  QFETCH(IntegratorKind, kind);
  QFETCH(int, layout);
  // Linear spring, no dashpot, no friction.
  const ContactModel model = linearContact(5e3, 1.0, 0.0);
  const TemplatePtr t = capsule();
  World world(freeSpace(kind, 2e-7), model, {}, {t});
  const double v = 0.4;
  if (layout == 0) {  // end to end along x
    world.addBody({0, Vec3(-3.5e-3, 0, 0), shaftAlong(*t, Vec3::UnitX()), Vec3(v, 0, 0), Vec3::Zero()});
    world.addBody({0, Vec3(3.5e-3, 0, 0), shaftAlong(*t, Vec3::UnitX()), Vec3(-v, 0, 0), Vec3::Zero()});
  } else if (layout == 1) {  // crossed shafts, hit off the centre: both bodies start to spin
    world.addBody({0, Vec3(-1.5e-3, 0, 0), shaftAlong(*t, Vec3::UnitY()), Vec3(v, 0, 0), Vec3(0, 0, 30)});
    world.addBody({0, Vec3(1.5e-3, 1.2e-3, 0.8e-3), shaftAlong(*t, Vec3(0.3, 0.2, 1)), Vec3(-v, 0.05, 0),
                   Vec3(20, 0, -10)});
  } else {  // parallel shafts, offset along them (Fig. 2's parallel branch)
    world.addBody({0, Vec3(-1.5e-3, 0, 0), shaftAlong(*t, Vec3::UnitY()), Vec3(v, 0, 0), Vec3::Zero()});
    world.addBody({0, Vec3(1.5e-3, 2e-3, 0), shaftAlong(*t, Vec3::UnitY()), Vec3(-v, 0, 0), Vec3::Zero()});
  }
  const Totals before = totals(world);
  bool touched = false;
  double worstEnergy = 0.0;
  for (int n = 0; n < 200000; ++n) {
    QVERIFY(world.step());
    touched |= world.contactCount() > 0;
    if (n % 100 == 0)
      worstEnergy = std::max(worstEnergy, std::abs(totals(world).energy / before.energy - 1.0));
    if (touched && world.contactCount() == 0) break;
  }
  QVERIFY2(touched, "the capsules never met");
  QCOMPARE(world.contactCount(), std::size_t(0));
  const Totals after = totals(world);
  const double p0 = kDensity * 1e-8 * v;  // a momentum scale [N s]
  const double l0 = p0 * 5e-3;            // an angular momentum scale [N m s]
  // Energy during and after the contact (second order in dt), momenta to round-off.
  QVERIFY2(worstEnergy < 2e-5, qPrintable(QString("energy drift %1").arg(worstEnergy)));
  QVERIFY2((after.momentum - before.momentum).norm() < 1e-12 * p0,
           qPrintable(QString("momentum change %1").arg((after.momentum - before.momentum).norm())));
  const double dl = (after.angularMomentum - before.angularMomentum).norm();
  QVERIFY2(dl < 1e-9 * l0, qPrintable(QString("angular momentum change %1 (scale %2)").arg(dl).arg(l0)));
  // Something happened: the bodies bounced (and, off the centre, spin changed).
  QVERIFY(world.bodies().velocity[0].x() < 0.0);
  if (layout == 1) QVERIFY((world.bodies().angularVelocity[0] - Vec3(0, 0, 30)).norm() > 1.0);
}

void SpherocylindersTest::capsuleContactTorqueIsTheLeverArm() {
  // Two overlapping capsules, crossed and skew; no gravity, no dashpot, no friction. The torque on
  // each is rho x F with the paper's lever arm rho_i = lambda_i* u_i + r_i n.
  const double k = 5e3;
  const TemplatePtr t = capsule();
  World world(freeSpace(IntegratorKind::Leapfrog, 1e-6), linearContact(k, 1.0, 0.0), {}, {t});
  const Vec3 ui = Vec3(1, 0.2, 0).normalized(), uj = Vec3(0.1, 1, 0.3).normalized();
  const Vec3 ri(0, 0, 0), rj(0.7e-3, -0.4e-3, 1.9e-3);
  world.addBody({0, ri, shaftAlong(*t, ui), Vec3::Zero(), Vec3::Zero()});
  world.addBody({0, rj, shaftAlong(*t, uj), Vec3::Zero(), Vec3::Zero()});
  world.refreshForces();
  const ShaftClosestPoints c = closestShaftPoints(rj - ri, ui, 0.5 * kShaft, uj, 0.5 * kShaft);
  const double d = std::sqrt(c.distance2);
  QVERIFY(d < 2.0 * kRadius);
  const Vec3 n = (rj - ri + c.lambdaJ * uj - c.lambdaI * ui) / d;  // from i towards j
  const Vec3 forceOnI = -k * (2.0 * kRadius - d) * n;
  const Vec3 rhoI = c.lambdaI * ui + kRadius * n, rhoJ = c.lambdaJ * uj - kRadius * n;
  const BodyState& s = world.bodies();
  QVERIFY((s.force[0] - forceOnI).norm() < 1e-12 * forceOnI.norm());
  QVERIFY((s.force[1] + forceOnI).norm() < 1e-12 * forceOnI.norm());
  const double scale = forceOnI.norm() * kShaft;
  QVERIFY2((s.torque[0] - rhoI.cross(forceOnI)).norm() < 1e-12 * scale,
           qPrintable(QString("torque error %1").arg((s.torque[0] - rhoI.cross(forceOnI)).norm() / scale)));
  QVERIFY((s.torque[1] - rhoJ.cross(Vec3(-forceOnI))).norm() < 1e-12 * scale);
  QVERIFY(s.torque[0].norm() > 0.05 * scale);  // a real lever arm, not a central force
}

void SpherocylindersTest::endOnFloorTorqueIsTheLeverArm() {
  // A capsule leaning 30 degrees from the vertical, its lower end pressed into the floor z = 0.
  // The paper: overlap r - d with d = (R - l/2 u - p) . n_w, force k (r - d) n_w, lever arm
  // rho = -l/2 u - r n_w; nothing from the upper end; no torque about the shaft.
  const double k = 5e3, sink = 0.2e-3;
  const TemplatePtr t = capsule();
  WorldSettings settings = freeSpace(IntegratorKind::Leapfrog, 1e-6);
  settings.gravity = Vec3(0, 0, -9.81);
  World world(settings, linearContact(k, 1.0, 0.0), {Wall::plane(Vec3::Zero(), Vec3::UnitZ())}, {t});
  const Vec3 u = Vec3(std::sin(0.5236), 0.0, std::cos(0.5236)).normalized();
  const double h = 0.5 * kShaft;
  const Vec3 x = Vec3(0.3e-3, -0.2e-3, kRadius - sink) + h * u;  // lower end at depth `sink`
  world.addBody({0, x, shaftAlong(*t, u), Vec3::Zero(), Vec3::Zero()});
  world.refreshForces();
  const double d = (x - h * u).dot(Vec3::UnitZ());
  const Vec3 f = k * (kRadius - d) * Vec3::UnitZ();
  const Vec3 rho = -h * u - kRadius * Vec3::UnitZ();
  const BodyState& s = world.bodies();
  QCOMPARE(world.state().wallContacts, std::size_t(1));
  QVERIFY((s.force[0] - (f + t->mass * settings.gravity)).norm() < 1e-12 * f.norm());
  QVERIFY((s.torque[0] - rho.cross(f)).norm() < 1e-12 * f.norm() * h);
  QVERIFY(std::abs(s.torque[0].dot(u)) < 1e-15 * f.norm() * h);
  QVERIFY(s.torque[0].norm() > 0.3 * f.norm() * h);  // it tips the capsule over
}

void SpherocylindersTest::droppedTiltedComesToRestFlat_data() {
  QTest::addColumn<double>("tilt");
  QTest::addColumn<double>("friction");
  QTest::newRow("flat, friction") << 0.0 << 0.5;
  QTest::newRow("tilted, no friction") << 0.3 << 0.0;
  QTest::newRow("tilted, friction") << 0.3 << 0.5;
}

void SpherocylindersTest::droppedTiltedComesToRestFlat() {
  QFETCH(double, tilt);
  QFETCH(double, friction);
  const TemplatePtr t = capsule(5e-3, 15e-3);
  WorldSettings settings = freeSpace(IntegratorKind::Leapfrog, 2e-5);
  settings.gravity = Vec3(0, 0, -9.81);
  World world(settings, linearContact(1e3, 0.3, friction), {Wall::plane(Vec3::Zero(), Vec3::UnitZ())}, {t});
  const Vec3 u = Vec3(std::cos(tilt), 0.0, std::sin(tilt));
  const Vec3 start(0.01, -0.02, 0.03);
  world.addBody({0, start, shaftAlong(*t, u), Vec3::Zero(), Vec3::Zero()});
  while (world.time() < 3.0) QVERIFY(world.step());
  const Vec3 axis = worldAxis(world, 0);
  const double angle = std::asin(std::min(1.0, std::abs(axis.z())));
  QVERIFY2(angle < 1e-6, qPrintable(QString("axis %1 rad off the horizontal").arg(angle)));
  QVERIFY2(world.bodies().velocity[0].norm() < 1e-6 && world.bodies().angularVelocity[0].norm() < 1e-4,
           qPrintable(QString("still moving: v %1, w %2")
                          .arg(world.bodies().velocity[0].norm())
                          .arg(world.bodies().angularVelocity[0].norm())));
  // Resting on both hemispheres: each end carries half the weight, k (r - z) = m g / 2.
  const double z = 5e-3 - t->mass * 9.81 / (2.0 * 1e3);
  QVERIFY2(std::abs(world.bodies().position[0].z() - z) < 1e-9,
           qPrintable(QString("height %1, expected %2").arg(world.bodies().position[0].z()).arg(z)));
  QCOMPARE(world.state().wallContacts, std::size_t(2));
  if (tilt == 0.0) {  // a flat drop does not wander
    const Vec3 drift = world.bodies().position[0] - start;
    QVERIFY2(std::hypot(drift.x(), drift.y()) < 1e-12, qPrintable(QString("drift %1").arg(drift.norm())));
  }
}

void SpherocylindersTest::capsuleAmongSpheresInABox() {
  // Capsules and spheres poured into a box: every capsule stays inside (its shaft ends at least
  // half a radius from every wall) and no pair sinks into another by more than half a radius.
  const TemplatePtr c = capsule(), ball = templateFromPebbles({{Vec3::Zero(), 1.5e-3}}, kDensity, "ball");
  WorldSettings settings = freeSpace(IntegratorKind::Leapfrog, 2e-6);
  settings.gravity = Vec3(0, 0, -9.81);
  World world(settings, linearContact(5e3, 0.3, 0.3), Wall::box(Vec3(-6e-3, -6e-3, 0), Vec3(6e-3, 6e-3, 0.1)),
              {c, ball});
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> xy(-2e-3, 2e-3);
  SplitMix64 turns(7);
  for (int k = 0; k < 12; ++k) {
    const Vec3 x(xy(rng), xy(rng), 4e-3 + 6e-3 * k);
    world.addBody({static_cast<std::uint32_t>(k % 2), x, randomRotation(turns), Vec3::Zero(), Vec3::Zero()});
  }
  while (world.time() < 0.3) QVERIFY2(world.step(), world.state().divergence.message.c_str());
  for (std::size_t b = 0; b < world.bodies().size(); ++b) {
    const ClumpTemplate& t = *world.model().templates[world.bodies().templateIndex[b]];
    const Pebble& p = t.pebbles.front();
    const Vec3 x = world.bodies().position[b],
               shaft = p.halfLength * (world.bodies().orientation[b] * p.axis);
    for (const Wall& w : world.model().walls) {
      QVERIFY(w.clearance(x + shaft) > 0.5 * p.radius);
      QVERIFY(w.clearance(x - shaft) > 0.5 * p.radius);
    }
  }
  QVERIFY(world.state().worstOverlapRatio < 0.5);
}

void SpherocylindersTest::sphereSwitch() {
  // PaLa's switch (Mutze, Polyspherical grains, §1 (ii)): the bounding sphere reaches the caps' tips, r +
  // l/2; the volume-equivalent sphere has the capsule's volume pi r^2 l + 4/3 pi r^3. Same mass.
  const TemplatePtr t = capsule();
  const ClumpTemplate bounding = sphereTemplate(*t, SphereKind::Bounding);
  const ClumpTemplate volume = sphereTemplate(*t, SphereKind::VolumeEquivalent);
  QCOMPARE(bounding.pebbles.front().radius, kRadius + 0.5 * kShaft);
  const double v =
      std::numbers::pi * kRadius * kRadius * kShaft + 4.0 / 3.0 * std::numbers::pi * std::pow(kRadius, 3);
  CLUMPLAB_COMPARE_REL(volume.pebbles.front().radius, std::cbrt(3.0 * v / (4.0 * std::numbers::pi)), 1e-14);
  QVERIFY(bounding.pebbles.front().isSphere() && volume.pebbles.front().isSphere());
  QCOMPARE(volume.mass, t->mass);
}

void SpherocylindersTest::initialOverlapOfShafts() {
  // What the 2D and spheres switches report: end to end along x, the caps overlap by 0.2 r (the
  // centres are 2.4 shaft-halves apart, far beyond twice the radius); a floor cuts one end by 0.5 r.
  Scene scene;
  scene.model.templates = {capsule()};
  const Quat alongX = shaftAlong(*scene.model.templates[0], Vec3::UnitX());
  const double gap = kShaft + 2.0 * kRadius - 0.2 * kRadius;
  scene.bodies = {{0, Vec3(0, 0, 0.01), alongX, Vec3::Zero(), Vec3::Zero()},
                  {0, Vec3(gap, 0, 0.01), alongX, Vec3::Zero(), Vec3::Zero()}};
  CLUMPLAB_COMPARE_REL(worstInitialOverlap(scene), 0.2, 1e-9);
  scene.model.walls = {Wall::plane(Vec3::Zero(), Vec3::UnitZ())};
  const Quat tilted = shaftAlong(*scene.model.templates[0], Vec3(1, 0, -1));
  scene.bodies.push_back(
      {0, Vec3(0.05, 0, 0.5 * kShaft / std::sqrt(2.0) + 0.5 * kRadius), tilted, Vec3::Zero(), Vec3::Zero()});
  CLUMPLAB_COMPARE_REL(worstInitialOverlap(scene), 0.5, 1e-9);
}

QTEST_GUILESS_MAIN(SpherocylindersTest)
#include "tst_spherocylinders.moc"
