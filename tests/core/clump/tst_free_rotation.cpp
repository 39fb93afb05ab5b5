// Torque-free rigid bodies under each integrator: conservation of energy and |L|, the
// Dzhanibekov flip interval against Landau & Lifshitz §37, and the accuracy of the splitting.
#include <QtTest>

#include "TestSupport.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

std::unique_ptr<World> freeBody(IntegratorKind kind, double dt, TemplatePtr body, const Vec3& omegaBody,
                                const Quat& orientation = Quat::Identity()) {
  auto world = std::make_unique<World>(freeSpace(kind, dt), ContactModel{}, std::vector<Wall>{},
                                       std::vector<TemplatePtr>{body});
  BodyInit init;
  init.orientation = orientation;
  init.angularVelocity = orientation * omegaBody;
  world->addBody(init);
  return world;
}

// Times at which the body-frame omega_2 changes sign (linear interpolation between steps).
std::vector<double> signChanges(World& world, double duration) {
  FlipCounter flips;
  flips.add(world.time(), world.bodies().bodyAngularVelocity(0)[1]);
  const auto steps = static_cast<long>(std::llround(duration / world.model().settings.timeStep));
  for (long n = 0; n < steps; ++n) {
    test::mustStep(world);
    flips.add(world.time(), world.bodies().bodyAngularVelocity(0)[1]);
  }
  return flips.times();
}

// Four 1 kg spheres of radius 0.1 m at (+-1, 0, 0) and (0, +-0.5, 0) m.
TemplatePtr fourSpheres() {
  const double r = 0.1, rho = 1.0 / (4.0 / 3.0 * M_PI * r * r * r);
  return templateFromPebbles(
      {{Vec3(1, 0, 0), r}, {Vec3(-1, 0, 0), r}, {Vec3(0, 0.5, 0), r}, {Vec3(0, -0.5, 0), r}}, rho);
}

}  // namespace

class FreeRotationTest : public QObject {
  Q_OBJECT
 private slots:
  void conservation_data() {
    QTest::addColumn<IntegratorKind>("kind");
    QTest::addColumn<double>("energyBound");
    QTest::addColumn<double>("momentumBound");
    // Bounds on the largest relative deviation over 1e5 steps of dt = 1e-3 (|w| ~ 1.2 rad/s).
    // Midpoint and splitting conserve L exactly: what remains is round-off over 1e5 steps.
    QTest::newRow("leapfrog") << IntegratorKind::Leapfrog << 1e-6 << 1e-6;
    QTest::newRow("midpoint") << IntegratorKind::Midpoint << 1e-6 << 1e-9;
    QTest::newRow("splitting") << IntegratorKind::Splitting << 1e-6 << 1e-9;
  }
  void conservation() {
    QFETCH(IntegratorKind, kind);
    QFETCH(double, energyBound);
    QFETCH(double, momentumBound);
    const Vec3 moments(1.0, 2.0, 3.0);
    auto world = freeBody(kind, 1e-3, rigidBody(1.0, moments), Vec3(0.4, 1.0, -0.5),
                          Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized())));
    const EnergyReport e0 = world->energy();
    double worstE = 0.0, worstL = 0.0;
    for (int n = 0; n < 100000; ++n) {
      test::mustStep(*world);
      if (n % 100 == 99) {
        const EnergyReport e = world->energy();
        worstE = std::max(worstE, std::abs(e.total() / e0.total() - 1.0));
        worstL = std::max(worstL, std::abs(e.angularMomentum.norm() / e0.angularMomentum.norm() - 1.0));
      }
    }
    qInfo("%s: max |dE/E| = %.3g, max |d|L|/|L|| = %.3g", QTest::currentDataTag(), worstE, worstL);
    CLUMPLAB_VERIFY_LESS(worstE, energyBound);
    CLUMPLAB_VERIFY_LESS(worstL, momentumBound);
  }

  void dzhanibekov_data() {
    QTest::addColumn<IntegratorKind>("kind");
    QTest::addColumn<int>("body");  // 0: I = (1, 2, 3); 1: four spheres
    QTest::addColumn<double>("dt");
    for (IntegratorKind k : allIntegrators()) {
      const QString name = QString::fromLatin1(integratorName(k).data());
      QTest::newRow(qPrintable(name + " I=(1,2,3)")) << k << 0 << 1e-3;
      QTest::newRow(qPrintable(name + " four spheres")) << k << 1 << 1e-4;
    }
  }
  void dzhanibekov() {
    QFETCH(IntegratorKind, kind);
    QFETCH(int, body);
    QFETCH(double, dt);
    const TemplatePtr t = body == 0 ? rigidBody(1.0, Vec3(1, 2, 3)) : fourSpheres();
    // Four spheres: Iyy = 2.016 is the intermediate axis; the template's body axis 2 is y.
    const Vec3 w0 = body == 0 ? Vec3(0, 1, 0.001) : Vec3(0, 10, 0.01);
    // Express the spin in the template's principal frame (axes ascending).
    const Vec3 omegaBody = body == 0 ? w0 : Vec3(0.01, 10, 0);
    const double halfPeriod = predictFlips(t->principalMoments, omegaBody).halfPeriod;
    auto world = freeBody(kind, dt, t, omegaBody);
    const std::vector<double> crossings = signChanges(*world, 0.5 * halfPeriod + 3.2 * halfPeriod);
    QVERIFY2(crossings.size() >= 4, qPrintable(QString("only %1 flips seen").arg(crossings.size())));
    for (std::size_t i = 1; i < crossings.size(); ++i) {
      CLUMPLAB_COMPARE_REL(crossings[i] - crossings[i - 1], halfPeriod, 0.01);
    }
    // The first sign change comes after a quarter period (omega_1 = 0 at t = 0: cn(K) = 0).
    CLUMPLAB_COMPARE_REL(crossings[0], 0.5 * halfPeriod, 0.01);
  }

  void ellipticIntegralKnownValues() {
    // K(0) = pi/2; K(1/sqrt 2) = Gamma(1/4)^2 / (4 sqrt(pi)); K ~ ln(4/k') as k' -> 0.
    CLUMPLAB_COMPARE_REL(ellipticK(1.0), M_PI / 2.0, 1e-15);
    CLUMPLAB_COMPARE_REL(ellipticK(std::sqrt(0.5)), std::pow(std::tgamma(0.25), 2) / (4.0 * std::sqrt(M_PI)),
                         1e-14);
    CLUMPLAB_COMPARE_REL(ellipticK(1e-8), std::log(4.0 / 1e-8), 1e-12);
    QVERIFY(std::isinf(ellipticK(0.0)));
  }

  void flipPredictionLimits() {
    const Vec3 I(1.0, 2.0, 3.0);
    // Exactly about a principal axis: no flip. Moments not distinct: none predicted.
    QVERIFY(std::isinf(predictFlips(I, Vec3(0, 1, 0)).halfPeriod));
    QVERIFY(std::isinf(predictFlips(Vec3(1, 1, 3), Vec3(0.1, 1, 0.1)).halfPeriod));
    // Both sides of the separatrix: perturbed towards axis 3 the tip circles axis 3, towards axis 1
    // it circles axis 1; both flip.
    const FlipPrediction towards3 = predictFlips(I, perturbedSpin(1, 2.0, 1e-3));
    QVERIFY(towards3.circlesLargestAxis);
    const FlipPrediction towards1 = predictFlips(I, Vec3(2e-3, 2.0, 0.0));
    QVERIFY(!towards1.circlesLargestAxis);
    QVERIFY(std::isfinite(towards1.halfPeriod) && std::isfinite(towards3.halfPeriod));
    // The small-epsilon form converges to the exact one: the error falls like epsilon^2.
    double previous = 1.0;
    for (double eps : {1e-2, 1e-3, 1e-4, 1e-6}) {
      const double exact = predictFlips(I, perturbedSpin(1, 2.0, eps)).halfPeriod;
      const double approx = smallPerturbationHalfPeriod(I, 2.0, eps);
      const double error = std::abs(approx / exact - 1.0);
      qInfo("eps %.0e: T/2 = %.6f s exact, %.6f s small-eps (rel. error %.2e)", eps, exact, approx, error);
      QVERIFY(error < 0.5 * previous || error < 1e-9);
      previous = error;
    }
    CLUMPLAB_VERIFY_LESS(previous, 1e-9);
    // Spin about a stable axis: perturbedSpin tilts it towards the intermediate axis.
    QVERIFY(perturbedSpin(0, 3.0, 0.1).isApprox(Vec3(3.0, 0.3, 0.0), 1e-15));
    QVERIFY(perturbedSpin(2, 3.0, 0.1).isApprox(Vec3(0.0, 0.3, 3.0), 1e-15));
  }

  void flipCounterInterpolates() {
    FlipCounter c;
    c.add(0.0, 1.0);
    c.add(1.0, -3.0);  // crosses at 0.25
    c.add(2.0, -1.0);
    c.add(3.0, 1.0);  // crosses at 2.5
    c.add(4.0, 0.5);
    QCOMPARE(c.count(), std::size_t(2));
    QCOMPARE(c.times()[0], 0.25);
    QCOMPARE(c.times()[1], 2.5);
    QCOMPARE(c.meanInterval(), 2.25);
    c.clear();
    c.add(5.0, -1.0);
    QCOMPARE(c.count(), std::size_t(0));
  }

  void fourSpheresPrincipalMoments() {
    const TemplatePtr t = fourSpheres();
    // I = sum m d^2 + 4 (2/5 m r^2): about x 2 (0.5)^2 + 0.016, about y 2 + 0.016, about z 2.5 + 0.016.
    CLUMPLAB_COMPARE_REL(t->principalMoments[0], 0.516, 1e-12);
    CLUMPLAB_COMPARE_REL(t->principalMoments[1], 2.016, 1e-12);
    CLUMPLAB_COMPARE_REL(t->principalMoments[2], 2.516, 1e-12);
  }

  void splittingBeatsLeapfrog() {
    // Trajectory error after 20 s against a 64x finer reference, same step for both schemes.
    const Vec3 moments(1.0, 2.0, 3.0), w0(0.4, 1.0, -0.5);
    const auto finalOrientation = [&](IntegratorKind kind, double dt) {
      auto world = freeBody(kind, dt, rigidBody(1.0, moments), w0);
      const long steps = std::lround(20.0 / dt);
      for (long n = 0; n < steps; ++n) test::mustStep(*world);
      return world->bodies().orientation[0];
    };
    const Quat reference = finalOrientation(IntegratorKind::Splitting, 1e-2 / 64);
    const double errSplit = finalOrientation(IntegratorKind::Splitting, 1e-2).angularDistance(reference);
    const double errLeap = finalOrientation(IntegratorKind::Leapfrog, 1e-2).angularDistance(reference);
    const double errMid = finalOrientation(IntegratorKind::Midpoint, 1e-2).angularDistance(reference);
    qInfo("orientation error after 20 s at dt = 0.01: splitting %.3g, leapfrog %.3g, midpoint %.3g rad",
          errSplit, errLeap, errMid);
    CLUMPLAB_VERIFY_LESS(errSplit, 0.1 * errLeap);
  }

  void changingTheTimeStepKeepsTimeContinuous() {
    // World::setTimeStep (e.g. "halve the time step" after a divergence) rebases the clock: no jump,
    // no accumulated round-off, and a free body keeps its uniform motion.
    auto world = freeBody(IntegratorKind::Leapfrog, 1e-3, rigidBody(1.0, Vec3(1, 2, 3)), Vec3(0, 1, 0));
    world->bodies().velocity[0] = Vec3(0.5, 0, 0);
    world->stateChanged();
    for (int n = 0; n < 100; ++n) test::mustStep(*world);
    world->editModel([&](EditableModel& m) { m.timeStep = 5e-4; });
    for (int n = 0; n < 100; ++n) test::mustStep(*world);
    QCOMPARE(world->time(), 0.15);
    CLUMPLAB_COMPARE_REL(world->bodies().position[0].x(), 0.5 * 0.15, 1e-12);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             world->editModel([&](EditableModel& m) { m.timeStep = 0.0; }));
  }

  void noGyroscopicTermNoFlip() {
    // Without omega x I omega the spin about the intermediate axis never flips (the game-engine bug).
    WorldSettings s = freeSpace(IntegratorKind::Leapfrog, 1e-3);
    s.gyroscopic = false;
    World world(s, ContactModel{}, {}, {rigidBody(1.0, Vec3(1, 2, 3))});
    BodyInit init;
    init.angularVelocity = Vec3(0, 1, 0.001);
    world.addBody(init);
    QCOMPARE(signChanges(world, 60.0).size(), std::size_t(0));
  }
};

QTEST_GUILESS_MAIN(FreeRotationTest)
#include "tst_free_rotation.moc"
