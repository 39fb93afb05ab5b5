// Mass properties of pebble sets against hand-derived tensors (MercuryDPM rigid clumps, eq. 1-5) and
// principal frames (eq. 23-26); voxel (eq. 6-10) and Monte Carlo (Mutze, Polyspherical grains, eq. 29-31)
// against exact values.
#include <QtTest>
#include <random>

#include "TestSupport.hpp"
#include "core/clump/ClumpTemplate.hpp"

using namespace clumplab;

class MassPropertiesTest : public QObject {
  Q_OBJECT
 private slots:
  void oneSphere() {
    const double r = 0.01, rho = 2500;
    const MassProperties m =
        massFromPebbles(std::vector<Pebble>{{Vec3(1, 2, 3), r}}, std::vector<double>{rho});
    const double mass = rho * 4.0 / 3.0 * M_PI * r * r * r;
    CLUMPLAB_COMPARE_REL(m.mass, mass, 1e-14);
    QVERIFY((m.centerOfMass - Vec3(1, 2, 3)).norm() < 1e-15);
    QVERIFY((m.inertiaTensor - 0.4 * mass * r * r * Mat3::Identity()).norm() < 1e-14 * mass * r * r);
  }

  void twoSeparatedSpheres() {
    // Two equal spheres at (+-d, 0, 0): Ixx = 2 (2/5 m r^2), Iyy = Izz = 2 (2/5 m r^2 + m d^2).
    const double r = 0.5, d = 2.0, rho = 3.0;
    const std::vector<Pebble> p = {{Vec3(-d, 1, 1), r}, {Vec3(d, 1, 1), r}};
    const MassProperties m = massFromPebbles(p, std::vector<double>(2, rho));
    const double mj = rho * 4.0 / 3.0 * M_PI * r * r * r;
    Mat3 expected = Mat3::Zero();
    expected.diagonal() << 2 * 0.4 * mj * r * r, 2 * (0.4 * mj * r * r + mj * d * d),
        2 * (0.4 * mj * r * r + mj * d * d);
    QVERIFY((m.centerOfMass - Vec3(0, 1, 1)).norm() < 1e-14);
    QVERIFY2((m.inertiaTensor - expected).norm() < 1e-12 * expected.norm(), "two spheres tensor");
  }

  void asymmetricSet() {
    // Three unit-density spheres of radius 0.1 at (0,0,0), (1,0,0), (0,2,0) and one of radius 0.2
    // at (0,0,1): hand-derived tensor about the centre of mass with all products of inertia.
    const std::vector<Pebble> p = {
        {Vec3(0, 0, 0), 0.1}, {Vec3(1, 0, 0), 0.1}, {Vec3(0, 2, 0), 0.1}, {Vec3(0, 0, 1), 0.2}};
    const MassProperties m = massFromPebbles(p, std::vector<double>(4, 1.0));
    const double m1 = 4.0 / 3.0 * M_PI * 1e-3, m4 = 8.0 * m1;
    const double M = 3 * m1 + m4;
    const Vec3 c = (m1 * Vec3(1, 0, 0) + m1 * Vec3(0, 2, 0) + m4 * Vec3(0, 0, 1)) / M;
    Mat3 I = Mat3::Zero();
    const double masses[4] = {m1, m1, m1, m4};
    for (int j = 0; j < 4; ++j) {
      const Vec3 x = p[j].center - c;
      const double r = p[j].radius;
      Mat3 Ij;
      Ij << 0.4 * r * r + x.y() * x.y() + x.z() * x.z(), -x.x() * x.y(), -x.x() * x.z(), -x.x() * x.y(),
          0.4 * r * r + x.x() * x.x() + x.z() * x.z(), -x.y() * x.z(), -x.x() * x.z(), -x.y() * x.z(),
          0.4 * r * r + x.x() * x.x() + x.y() * x.y();
      I += masses[j] * Ij;
    }
    CLUMPLAB_COMPARE_REL(m.mass, M, 1e-14);
    QVERIFY((m.centerOfMass - c).norm() < 1e-14);
    QVERIFY2((m.inertiaTensor - I).norm() < 1e-12 * I.norm(), "asymmetric tensor");
    QVERIFY(std::abs(m.inertiaTensor(0, 1)) > 1e-4 * I.norm());  // products of inertia present
  }

  void principalFramesRightHandedAndAscending() {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int trial = 0; trial < 500; ++trial) {
      std::vector<Pebble> p;
      for (int k = 0; k < 1 + trial % 7; ++k)
        p.push_back({Vec3(u(rng), u(rng), u(rng)), 0.05 + 0.5 * std::abs(u(rng))});
      const MassProperties m = massFromPebbles(p, std::vector<double>(p.size(), 1000.0));
      const PrincipalFrame f = principalFrame(m.inertiaTensor);
      QVERIFY2(std::abs(f.axes.determinant() - 1.0) < 1e-12, "axes must be a proper rotation");
      QVERIFY(f.moments[0] <= f.moments[1] && f.moments[1] <= f.moments[2]);
      const Mat3 back = f.axes * f.moments.asDiagonal() * f.axes.transpose();
      QVERIFY2((back - m.inertiaTensor).norm() < 1e-10 * m.inertiaTensor.norm(), "I = Q D Q^T");
      // The template's pebbles, re-expressed in the principal frame, have a diagonal tensor there.
      const ClumpTemplate t = makeTemplate("t", p, m, "pebbles", 1000.0);
      const MassProperties mb = massFromPebbles(t.pebbles, std::vector<double>(p.size(), 1000.0));
      QVERIFY(mb.centerOfMass.norm() < 1e-12);
      QVERIFY2(
          (mb.inertiaTensor - Mat3(t.principalMoments.asDiagonal())).norm() < 1e-10 * mb.inertiaTensor.norm(),
          "pebbles in the principal frame");
      const Vec3 x0 = t.rotationFromInput.conjugate() * t.pebbles[0].center + t.centerOfMassInInput;
      QVERIFY((x0 - p[0].center).norm() < 1e-12);
    }
  }

  void voxelAndMonteCarloConvergeToTheSphere() {
    const std::vector<Pebble> sphere = {{Vec3(0.3, -0.2, 0.1), 1.0}};
    const double exactMass = 4.0 / 3.0 * M_PI, exactI = 0.4 * exactMass;
    const MassProperties v = massFromVoxels(sphere, 1.0, 200);
    CLUMPLAB_COMPARE_REL(v.mass, exactMass, 2e-3);
    CLUMPLAB_COMPARE_REL(v.inertiaTensor(0, 0), exactI, 4e-3);
    QVERIFY((v.centerOfMass - sphere[0].center).norm() < 1e-6);
    const MassProperties mcSine = massFromMonteCarlo(sphere, 1.0, 400000, false);
    const MassProperties mcHalton = massFromMonteCarlo(sphere, 1.0, 400000, true);
    CLUMPLAB_COMPARE_REL(mcSine.mass, exactMass, 5.0 * mcSine.statisticalError);
    CLUMPLAB_COMPARE_REL(mcHalton.mass, exactMass, 2e-3);
    CLUMPLAB_COMPARE_REL(mcHalton.inertiaTensor(2, 2), exactI, 5e-3);
  }

  void voxelCountsOverlapsOnce() {
    // Two spheres of radius 1 whose centres are 1 apart: union volume = 2 V - lens, lens =
    // pi (4 r + d)(2 r - d)^2 / 12 (closed form). Summation over pebbles counts the lens twice.
    const std::vector<Pebble> p = {{Vec3(0, 0, 0), 1.0}, {Vec3(1, 0, 0), 1.0}};
    const double lens = M_PI * (4.0 + 1.0) * 1.0 / 12.0;
    const double exact = 2.0 * 4.0 / 3.0 * M_PI - lens;
    CLUMPLAB_COMPARE_REL(massFromVoxels(p, 1.0, 240).volume, exact, 2e-3);
    CLUMPLAB_COMPARE_REL(massFromPebbles(p, std::vector<double>(2, 1.0)).volume, exact + lens, 1e-12);
  }
};

QTEST_GUILESS_MAIN(MassPropertiesTest)
#include "tst_mass_properties.moc"
