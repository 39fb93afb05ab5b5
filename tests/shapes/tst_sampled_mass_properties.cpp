// Sampled mass properties (MercuryDPM rigid clumps, eq. 6-10, Mutze, Polyspherical grains, eq. 29-31): the
// voxel error falls with N at the expected order, N chosen from an error budget meets it, Monte Carlo lands
// within 3 sigma of its own standard errors with both sequences, on pebble unions and on meshes.
#include <QtTest>
#include <cmath>
#include <numbers>
#include <random>

#include "TestSupport.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/MeshSolid.hpp"
#include "shapes/Primitives.hpp"

using namespace clumplab;
using namespace clumplab::shapes;

class SampledMassPropertiesTest : public QObject {
  Q_OBJECT
 private slots:
  void voxelErrorFallsAtTheExpectedOrder() {
    // A sphere's voxel volume error behaves like a lattice-point count, ~N^-1.5 in RMS over
    // random placements (Landau's bound for the sphere problem); the moment of inertia likewise.
    const double r = 1.0, exactV = 4.0 / 3.0 * std::numbers::pi, exactI = 0.4 * exactV * r * r;
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    std::vector<double> logN, logError;
    for (const int n : {16, 32, 64, 128, 256}) {
      double sum2 = 0.0;
      const int trials = 24;
      for (int k = 0; k < trials; ++k) {
        // The union's bounding box drives the voxel grid: a small second pebble moves it randomly.
        const std::vector<Pebble> p = {{Vec3::Zero(), r},
                                       {Vec3(1.0 + 0.2 * u(rng), 0.3 * u(rng), 0.3 * u(rng)), 1e-3}};
        const MassProperties m = massFromVoxels(p, 1.0, n);
        const double e =
            std::abs(m.volume - exactV) / exactV + std::abs(m.inertiaTensor(1, 1) - exactI) / exactI;
        sum2 += e * e;
      }
      logN.push_back(std::log(n));
      logError.push_back(0.5 * std::log(sum2 / trials));
    }
    // Least-squares slope of log(error) against log(N).
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < logN.size(); ++i) {
      mx += logN[i] / static_cast<double>(logN.size());
      my += logError[i] / static_cast<double>(logN.size());
    }
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < logN.size(); ++i) {
      sxy += (logN[i] - mx) * (logError[i] - my);
      sxx += (logN[i] - mx) * (logN[i] - mx);
    }
    const double order = -sxy / sxx;
    QVERIFY2(order > 1.2 && order < 2.2, qPrintable(QString("fitted order %1").arg(order)));
  }

  void voxelBudgetIsMet_data() {
    QTest::addColumn<double>("angle");
    QTest::addColumn<double>("budget");
    // An axis-aligned box is the hard case: its faces can sit on the grid for every N.
    QTest::newRow("aligned box, 1e-2") << 0.0 << 1e-2;
    QTest::newRow("aligned box, 3e-3") << 0.0 << 3e-3;
    QTest::newRow("turned box, 1e-3") << 0.5 << 1e-3;
    QTest::newRow("turned box, 1e-4") << 0.5 << 1e-4;
  }
  void voxelBudgetIsMet() {
    QFETCH(double, angle);
    QFETCH(double, budget);
    const TriangleMesh box =
        transformedMesh(boxMesh(Vec3(0.0, 0.0, 0.0), Vec3(0.013, 0.021, 0.034)),
                        Quat(Eigen::AngleAxisd(angle, Vec3(1, 2, 3).normalized())), Vec3::Zero());
    const MassProperties exact = meshMassProperties(box, 1000.0);
    const MeshSolid solid(std::make_shared<const TriangleMesh>(box));
    const MassProperties m = massFromVoxelsWithinBudget(solid, 1000.0, budget, 4096);
    const double error =
        std::max(std::abs(m.volume - exact.volume) / exact.volume,
                 (m.inertiaTensor - exact.inertiaTensor).norm() / exact.inertiaTensor.norm());
    QVERIFY2(error < budget, qPrintable(QString("N %1, error %2").arg(m.voxelsPerSide).arg(error)));
    // On a shape not aligned with the grid the estimate tracks the error (within a factor 10).
    const double estimate = m.volumeError / m.volume,
                 volumeError = std::abs(m.volume - exact.volume) / exact.volume;
    QVERIFY(estimate < budget);
    if (angle != 0.0) {
      QVERIFY2(estimate > 0.1 * volumeError,
               qPrintable(QString("estimate %1, error %2").arg(estimate).arg(volumeError)));
    }
  }

  void monteCarloWithinThreeSigma_data() {
    QTest::addColumn<bool>("halton");
    QTest::newRow("Mutze, Polyspherical grains, eq. 30 (sine)") << false;
    QTest::newRow("Halton") << true;
  }
  void monteCarloWithinThreeSigma() {
    QFETCH(bool, halton);
    // A torus mesh (exact properties from its tetrahedra) and two overlapping pebbles (exact union
    // volume from the lens formula).
    const TriangleMesh torus = torusMesh(Vec3(0.01, 0.02, 0.0), 0.03, 0.012, 64, 32);
    const MassProperties exact = meshMassProperties(torus, 1000.0);
    const MeshSolid solid(std::make_shared<const TriangleMesh>(torus));
    const MassProperties m = massFromMonteCarlo(solid, 1000.0, 400000, halton);
    QVERIFY2(
        std::abs(m.volume - exact.volume) < 3.0 * m.volumeError,
        qPrintable(
            QString("volume %1, exact %2, sigma %3").arg(m.volume).arg(exact.volume).arg(m.volumeError)));
    for (int i = 0; i < 3; ++i) {
      QVERIFY(std::abs(m.centerOfMass[i] - exact.centerOfMass[i]) < 3.0 * m.centerOfMassError[i]);
      for (int j = 0; j < 3; ++j) {
        QVERIFY2(std::abs(m.inertiaTensor(i, j) - exact.inertiaTensor(i, j)) <
                     3.0 * m.inertiaTensorError(i, j) + 1e-12 * exact.inertiaTensor.norm(),
                 qPrintable(QString("I(%1,%2) = %3, exact %4, sigma %5")
                                .arg(i)
                                .arg(j)
                                .arg(m.inertiaTensor(i, j))
                                .arg(exact.inertiaTensor(i, j))
                                .arg(m.inertiaTensorError(i, j))));
      }
    }
    CLUMPLAB_VERIFY_LESS(m.statisticalError, 0.01);
    const std::vector<Pebble> pair = {{Vec3(0, 0, 0), 1.0}, {Vec3(1, 0, 0), 1.0}};
    const double lens = std::numbers::pi * 5.0 / 12.0, union2 = 8.0 / 3.0 * std::numbers::pi - lens;
    const MassProperties p = massFromMonteCarlo(pair, 1.0, 200000, halton);
    QVERIFY2(
        std::abs(p.volume - union2) < 3.0 * p.volumeError,
        qPrintable(QString("union %1, exact %2, sigma %3").arg(p.volume).arg(union2).arg(p.volumeError)));
  }
};

QTEST_GUILESS_MAIN(SampledMassPropertiesTest)
#include "tst_sampled_mass_properties.moc"
