// World::timeSteps against the largest stable step found by bisection, for the modes the
// estimate is built from: a body on a floor by a flat face (its pebbles' springs and dashpots in
// parallel), by an edge and by a corner, and a pebble pinched between two walls, under each contact
// law and integrator. The estimate must never be above the measured step, and not far below it
// for the cases it is made for (a face, a pinched pebble): an estimate too timid costs every run.
#include <QtTest>

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "TestSupport.hpp"

using namespace clumplab;
using namespace clumplab::test;

Q_DECLARE_METATYPE(clumplab::ContactModel)

namespace {

constexpr double kRadius = 0.05;  // [m]
constexpr double kDensity = 1000.0;
constexpr double kGravity = 9.81;

// A 4 x 4 x 4 grid of touching pebbles: a cube of side 0.4 m whose faces hold 16 pebbles each.
TemplatePtr cube() {
  std::vector<Pebble> pebbles;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      for (int k = 0; k < 4; ++k) {
        pebbles.push_back({Vec3(i - 1.5, j - 1.5, k - 1.5) * 2.0 * kRadius, kRadius});
      }
    }
  }
  return templateFromPebbles(pebbles, kDensity, "cube");
}

TemplatePtr ball() {
  return templateFromPebbles({Pebble{Vec3::Zero(), kRadius}}, kDensity, "ball");
}

enum class Pose { Face, Edge, Corner, Pinched };

// How a body meets the walls, and what the test expects of the estimate: how many times the
// largest stable step it may be at most below it (the face and the pinched pebble are the modes the
// estimate is made of; an edge or a corner is softer, and the estimate need only be below it).
struct Setup {
  std::unique_ptr<World> world;
  double energyScale;  // [J] the run is unstable when total + dissipated moves by 1% of it
};

Setup makeSetup(Pose pose, const ContactModel& law, IntegratorKind integrator, double dt) {
  WorldSettings settings;
  settings.timeStep = dt;
  settings.integrator = integrator;
  std::vector<Wall> walls{Wall::plane(Vec3::Zero(), Vec3::UnitZ())};
  const TemplatePtr shape = pose == Pose::Pinched ? ball() : cube();
  // The pebbles' mutual squeeze at rest: the body's weight on the contacts of its pose.
  const double contacts = pose == Pose::Face ? 16.0 : pose == Pose::Edge ? 4.0 : 1.0;
  const double stiffness = law.kind == ContactModel::Kind::Linear ? law.linear.stiffness : 1e7;
  const double squeeze = std::min(0.02 * kRadius, shape->mass * kGravity / (contacts * stiffness));
  if (pose == Pose::Pinched) {
    settings.gravity = Vec3::Zero();
    walls.push_back(Wall::plane(Vec3(0.0, 0.0, 2.0 * kRadius - 2.0 * squeeze), -Vec3::UnitZ()));
  }
  auto world = std::make_unique<World>(settings, law, walls, std::vector<TemplatePtr>{shape});
  // The template's input axes along the world's, then turned onto an edge or a corner.
  Quat orientation = shape->rotationFromInput.conjugate();
  if (pose == Pose::Edge) orientation = Quat(Eigen::AngleAxisd(M_PI / 4.0, Vec3::UnitX())) * orientation;
  if (pose == Pose::Corner) {
    orientation = Quat::FromTwoVectors(Vec3(-1.0, -1.0, -1.0).normalized(), -Vec3::UnitZ()) * orientation;
  }
  orientation.normalize();
  // The lowest point of the body at the squeeze below the floor.
  double lowest = std::numeric_limits<double>::infinity();
  for (const Pebble& p : shape->pebbles) lowest = std::min(lowest, (orientation * p.center).z() - p.radius);
  BodyInit body;
  body.orientation = orientation;
  body.position = Vec3(0.0, 0.0, (pose == Pose::Pinched ? kRadius - squeeze : -lowest - squeeze));
  // A small kick into every mode.
  body.velocity = Vec3(1e-3, -2e-3, 3e-3);
  body.angularVelocity = Vec3(2e-3, 1e-3, -3e-3);
  world->addBody(body);
  return {std::move(world), shape->mass * kGravity * kRadius};
}

// Whether `steps` steps at dt keep total + dissipated within 1% of m g r (an unstable mode grows
// from the kick until it breaks that or the world reports a divergence).
bool stableAt(Pose pose, const ContactModel& law, IntegratorKind integrator, double dt, int steps) {
  Setup s = makeSetup(pose, law, integrator, dt);
  const double start = s.world->energy().balance();
  for (int k = 0; k < steps; ++k) {
    if (!s.world->step()) return false;
    if (k % 50 == 49 && !(std::abs(s.world->energy().balance() - start) < 0.01 * s.energyScale)) return false;
  }
  return std::abs(s.world->energy().balance() - start) < 0.01 * s.energyScale;
}

ContactModel hertzMindlin(double young, double e, double mu) {
  ContactModel c;
  c.kind = ContactModel::Kind::HertzMindlin;
  c.hertzMindlin = {young, 0.25, e, mu};
  return c;
}

}  // namespace

class TestStepEstimate : public QObject {
  Q_OBJECT

 private slots:
  void estimateIsBelowTheLargestStableStep_data() {
    QTest::addColumn<int>("pose");
    QTest::addColumn<ContactModel>("law");
    QTest::addColumn<IntegratorKind>("integrator");
    QTest::addColumn<double>("timidity");  // how far below the measured step the estimate may be
    const ContactModel damped = linearContact(1e6, 0.35, 0.4);
    const ContactModel elastic = linearContact(1e6, 1.0, 0.0);
    const ContactModel hm = hertzMindlin(1e8, 0.5, 0.5);
    const ContactModel mutze = frictionlessHertz(1e8);
    ContactModel mutzeLossy = mutze;  // unloading 1/delta = 4 times stiffer than loading
    mutzeLossy.hertz.restitutionSquared = 0.25;
    for (const IntegratorKind integrator : allIntegrators()) {
      const std::string name(integratorName(integrator));
      QTest::newRow((name + ", face, damped").c_str()) << int(Pose::Face) << damped << integrator << 3.5;
      QTest::newRow((name + ", edge, damped").c_str()) << int(Pose::Edge) << damped << integrator << 100.0;
      QTest::newRow((name + ", corner, damped").c_str())
          << int(Pose::Corner) << damped << integrator << 100.0;
      QTest::newRow((name + ", pinched, damped").c_str())
          << int(Pose::Pinched) << damped << integrator << 2.0;
      QTest::newRow((name + ", face, elastic").c_str()) << int(Pose::Face) << elastic << integrator << 3.5;
      QTest::newRow((name + ", pinched, elastic").c_str())
          << int(Pose::Pinched) << elastic << integrator << 2.0;
      QTest::newRow((name + ", face, hertz-mindlin").c_str()) << int(Pose::Face) << hm << integrator << 4.0;
      QTest::newRow((name + ", face, mutze").c_str()) << int(Pose::Face) << mutze << integrator << 3.5;
      QTest::newRow((name + ", face, mutze delta 0.25").c_str())
          << int(Pose::Face) << mutzeLossy << integrator << 100.0;
      QTest::newRow((name + ", pinched, mutze delta 0.25").c_str())
          << int(Pose::Pinched) << mutzeLossy << integrator << 100.0;
    }
  }

  void estimateIsBelowTheLargestStableStep() {
    QFETCH(int, pose);
    QFETCH(ContactModel, law);
    QFETCH(IntegratorKind, integrator);
    QFETCH(double, timidity);
    const Pose p = static_cast<Pose>(pose);
    const double estimate = makeSetup(p, law, integrator, 1e-6).world->timeSteps().critical;
    constexpr int kSteps = 3000;
    double lo = estimate / 8.0, hi = estimate * 64.0;
    QVERIFY2(stableAt(p, law, integrator, lo, kSteps), "the setup is unstable far below the estimate");
    QVERIFY2(!stableAt(p, law, integrator, hi, kSteps), "the setup is stable far above the estimate");
    for (int k = 0; k < 12; ++k) {
      const double mid = std::sqrt(lo * hi);
      (stableAt(p, law, integrator, mid, kSteps) ? lo : hi) = mid;
    }
    qInfo("estimate %.4g s, largest stable step %.4g s: %.2f x the estimate", estimate, lo, lo / estimate);
    CLUMPLAB_VERIFY_LESS(estimate, lo);
    CLUMPLAB_VERIFY_LESS(lo, timidity * estimate);
  }
};

QTEST_GUILESS_MAIN(TestStepEstimate)
#include "tst_step_estimate.moc"
