// Exact mass properties of meshes (MercuryDPM rigid clumps, eq. 11-22) against closed forms: a cube, a 1 x 2
// x 3 box rotated off-axis and shifted (the ordering of the products of inertia), tetrahedra (with Tonon's
// own worked example), an L-shaped prism, and UV spheres converging to (8/15) pi rho r^5.
#include <QtTest>
#include <cmath>
#include <numbers>

#include "TestSupport.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/Primitives.hpp"

using namespace clumplab;
using namespace clumplab::shapes;

namespace {
// Box of sides (a, b, c) about its centre: diag(b^2 + c^2, a^2 + c^2, a^2 + b^2) m / 12.
Mat3 boxTensor(double mass, const Vec3& sides) {
  const Vec3 s2 = sides.cwiseAbs2();
  return (mass / 12.0) * Vec3(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y()).asDiagonal();
}

Mat3 steiner(double mass, const Vec3& d) {
  return mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
}

double relativeDifference(const Mat3& a, const Mat3& b) {
  return (a - b).norm() / b.norm();
}
}  // namespace

class MeshMassPropertiesTest : public QObject {
  Q_OBJECT
 private slots:
  void cube() {
    const double rho = 2700.0;
    const MassProperties m = meshMassProperties(boxMesh(Vec3(1, 2, 3), Vec3(1.5, 2.5, 3.5)), rho);
    CLUMPLAB_COMPARE_REL(m.volume, 0.125, 1e-13);
    CLUMPLAB_COMPARE_REL(m.mass, rho * 0.125, 1e-13);
    QVERIFY((m.centerOfMass - Vec3(1.25, 2.25, 3.25)).norm() < 1e-13);
    CLUMPLAB_VERIFY_LESS(relativeDifference(m.inertiaTensor, boxTensor(m.mass, Vec3::Constant(0.5))), 1e-12);
  }

  void boxRotatedOffAxisAndShifted() {
    // A 1 x 2 x 3 box turned 0.7 rad about (1, 1, 1) and moved: I = R diag(...) R^T. Every product
    // of inertia is non-zero and distinct, so a swapped pair (eq. 15's misprint) cannot pass.
    const double rho = 1000.0;
    const Vec3 sides(1, 2, 3), shift(10.0, -3.0, 7.0);
    const Quat rotation(Eigen::AngleAxisd(0.7, Vec3(1, 1, 1).normalized()));
    const TriangleMesh mesh = transformedMesh(boxMesh(-0.5 * sides, 0.5 * sides), rotation, shift);
    const MassProperties m = meshMassProperties(mesh, rho);
    const Mat3 r = rotation.toRotationMatrix();
    const Mat3 expected = r * boxTensor(rho * 6.0, sides) * r.transpose();
    CLUMPLAB_COMPARE_REL(m.volume, 6.0, 1e-12);
    QVERIFY2((m.centerOfMass - shift).norm() < 1e-12 * shift.norm(), "centre of mass");
    const double diff = relativeDifference(m.inertiaTensor, expected);
    QVERIFY2(diff < 1e-12, qPrintable(QString("tensor differs by %1 relative").arg(diff)));
    QVERIFY(std::abs(expected(0, 1) - expected(0, 2)) > 0.1 * std::abs(expected(0, 1)));
    QVERIFY(std::abs(expected(0, 2) - expected(1, 2)) > 0.1 * std::abs(expected(0, 2)));
    // Swapping I_xy and I_xz (the misprint) would be caught by a margin of many orders of magnitude.
    Mat3 swapped = m.inertiaTensor;
    std::swap(swapped(0, 1), swapped(0, 2));
    swapped(1, 0) = swapped(0, 1);
    swapped(2, 0) = swapped(0, 2);
    QVERIFY(relativeDifference(swapped, expected) > 1e-3);
  }

  void unitTetrahedron() {
    // Corners 0, e1, e2, e3: V = 1/6, centre (1/4, 1/4, 1/4); about the centre I_xx = 1/80 and
    // I_xy = 1/480 (from int x^2 = 1/60, int xy = 1/120 over the tetrahedron).
    const MassProperties m =
        meshMassProperties(tetrahedronMesh(Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()), 1.0);
    CLUMPLAB_COMPARE_REL(m.volume, 1.0 / 6.0, 1e-14);
    QVERIFY((m.centerOfMass - Vec3::Constant(0.25)).norm() < 1e-15);
    Mat3 expected = Mat3::Constant(1.0 / 480.0);
    expected.diagonal().setConstant(1.0 / 80.0);
    CLUMPLAB_VERIFY_LESS(relativeDifference(m.inertiaTensor, expected), 1e-13);
  }

  void tononsWorkedExample() {
    // Tonon (2005), the example of the paper: density 1, about the centroid, with his
    // a, b, c (moments) and a' = int yz, b' = int xz, c' = int xy. The paper prints its vertices to 5
    // decimals, so the agreement is ~1e-8, not round-off.
    const TriangleMesh mesh =
        tetrahedronMesh(Vec3(8.33220, -11.86875, 0.93355), Vec3(0.75523, 5.00000, 16.37072),
                        Vec3(52.61236, 5.00000, -5.38580), Vec3(2.00000, 5.00000, 3.00000));
    const MassProperties m = meshMassProperties(mesh, 1.0);
    const double a = 43520.33257, b = 194711.28938, c = 191168.76173;
    const double ap = 4417.66150, bp = -46343.16662, cp = 11996.20119;
    CLUMPLAB_COMPARE_REL(m.centerOfMass.x(), 15.92492, 1e-5);
    CLUMPLAB_COMPARE_REL(m.centerOfMass.y(), 0.78281, 1e-5);
    CLUMPLAB_COMPARE_REL(m.centerOfMass.z(), 3.72962, 1e-5);
    CLUMPLAB_COMPARE_REL(m.inertiaTensor(0, 0), a, 2e-7);
    CLUMPLAB_COMPARE_REL(m.inertiaTensor(1, 1), b, 2e-7);
    CLUMPLAB_COMPARE_REL(m.inertiaTensor(2, 2), c, 2e-7);
    CLUMPLAB_COMPARE_REL(m.inertiaTensor(1, 2), -ap, 1e-7);
    CLUMPLAB_COMPARE_REL(m.inertiaTensor(0, 2), -bp, 1e-7);
    CLUMPLAB_COMPARE_REL(m.inertiaTensor(0, 1), -cp, 1e-7);
  }

  void lShapedPrism() {
    // L = [0,2]x[0,1] + [0,1]x[1,2] in xy, extruded over z in [0, 0.5]: two boxes, Steiner-shifted.
    const double rho = 7.0, h = 0.5;
    const TriangleMesh mesh = prismMesh({{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, 0.0, h);
    const MassProperties m = meshMassProperties(mesh, rho);
    const double m1 = rho * 2.0 * h, m2 = rho * 1.0 * h;
    const Vec3 c1(1.0, 0.5, 0.5 * h), c2(0.5, 1.5, 0.5 * h);
    const Vec3 c = (m1 * c1 + m2 * c2) / (m1 + m2);
    const Mat3 expected = boxTensor(m1, Vec3(2, 1, h)) + steiner(m1, c1 - c) + boxTensor(m2, Vec3(1, 1, h)) +
                          steiner(m2, c2 - c);
    CLUMPLAB_COMPARE_REL(m.volume, 3.0 * h, 1e-13);
    QVERIFY((m.centerOfMass - c).norm() < 1e-13);
    CLUMPLAB_VERIFY_LESS(relativeDifference(m.inertiaTensor, expected), 1e-12);
    QVERIFY(std::abs(expected(0, 1)) > 0.01 * expected.norm());  // a real product of inertia
  }

  void uvSphereConverges() {
    // I = (8/15) pi rho r^5; the inscribed polyhedron's error falls as (1/stacks)^2.
    const double r = 0.02, rho = 2500.0;
    const double exact = 8.0 / 15.0 * std::numbers::pi * rho * std::pow(r, 5);
    double previous = 1.0;
    for (const int stacks : {8, 16, 32, 64, 128}) {
      const MassProperties m =
          meshMassProperties(uvSphereMesh(Vec3(0.1, 0.2, 0.3), r, 2 * stacks, stacks), rho);
      const double error = std::abs(m.inertiaTensor.trace() / 3.0 - exact) / exact;
      QVERIFY2(error < previous / 3.5,
               qPrintable(QString("stacks %1: error %2 after %3").arg(stacks).arg(error).arg(previous)));
      QVERIFY((m.centerOfMass - Vec3(0.1, 0.2, 0.3)).norm() < 1e-15);
      previous = error;
    }
    CLUMPLAB_VERIFY_LESS(previous, 1e-3);
  }

  void primitivesFaceOutwards() {
    QVERIFY(signedVolume(torusMesh(Vec3::Zero(), 1.0, 0.3, 48, 24)) > 0.0);
    QVERIFY(signedVolume(cylinderMesh(Vec3::Zero(), Vec3(1, 1, 0), 0.2, 24)) > 0.0);
    QVERIFY(signedVolume(capsuleMesh(Vec3::Zero(), Vec3(0, 0, 1), 0.2, 24)) > 0.0);
    // Torus volume 2 pi^2 R r^2 (the polygonal one slightly less), capsule pi r^2 (L + 4r/3).
    CLUMPLAB_COMPARE_REL(signedVolume(torusMesh(Vec3::Zero(), 1.0, 0.3, 256, 128)),
                         2.0 * std::numbers::pi * std::numbers::pi * 0.09, 1e-3);
    CLUMPLAB_COMPARE_REL(signedVolume(capsuleMesh(Vec3::Zero(), Vec3(0, 0, 1), 0.2, 256)),
                         std::numbers::pi * 0.04 * (1.0 + 0.8 / 3.0), 1e-3);
  }

  void emptyOrInsideOutIsRefused() {
    TriangleMesh inverted = boxMesh(Vec3::Zero(), Vec3::Ones());
    for (auto& t : inverted.triangles) std::swap(t[1], t[2]);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, meshMassProperties(inverted, 1.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, meshMassProperties(TriangleMesh{}, 1.0));
  }
};

QTEST_GUILESS_MAIN(MeshMassPropertiesTest)
#include "tst_mesh_mass_properties.moc"
