// The inside test of closed meshes (non-zero winding from exact, symbolically perturbed crossings):
// a torus and an L-shaped prism against analytic membership for 1e5 random points, lines through
// shared edges and vertices, several shells, a cavity, spans, and voxels of a mesh.
#include <QtTest>
#include <cmath>
#include <numbers>
#include <random>

#include "TestSupport.hpp"
#include "core/clump/MassProperties.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/MeshSolid.hpp"
#include "shapes/Primitives.hpp"

using namespace clumplab;
using namespace clumplab::shapes;

namespace {
std::shared_ptr<const TriangleMesh> shared(TriangleMesh m) {
  return std::make_shared<const TriangleMesh>(std::move(m));
}
}  // namespace

class InsideTest : public QObject {
  Q_OBJECT
 private slots:
  void torusAgainstAnalyticMembership() {
    // The polygonal torus lies within `band` of the smooth one; outside that band both must agree.
    const double R = 0.03, r = 0.01;
    const int nR = 96, nr = 48;
    const MeshSolid torus(shared(torusMesh(Vec3(0.001, -0.002, 0.003), R, r, nR, nr)));
    const double band =
        (R + r) * (1.0 - std::cos(std::numbers::pi / nR)) + r * (1.0 - std::cos(std::numbers::pi / nr));
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-0.045, 0.045);
    int checked = 0, inside = 0;
    for (int k = 0; k < 100000; ++k) {
      const Vec3 p(u(rng), u(rng), 0.4 * u(rng));
      const Vec3 q = p - Vec3(0.001, -0.002, 0.003);
      const double d = std::hypot(std::hypot(q.x(), q.y()) - R, q.z()) - r;  // signed distance
      if (std::abs(d) <= band) continue;
      ++checked;
      inside += d < 0.0;
      QVERIFY2(torus.contains(p) == (d < 0.0),
               qPrintable(QString("point %1 %2 %3, distance %4").arg(p.x()).arg(p.y()).arg(p.z()).arg(d)));
    }
    QVERIFY(checked > 97000);
    QVERIFY(inside > 5000);  // the hole through the middle is outside, the tube inside
    QVERIFY(!torus.contains(Vec3(0.001, -0.002, 0.003)));
  }

  void lShapedPrismAgainstAnalyticMembership() {
    const MeshSolid l(shared(prismMesh({{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, 0.0, 0.5)));
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-0.5, 2.5);
    int inside = 0;
    for (int k = 0; k < 100000; ++k) {
      const Vec3 p(u(rng), u(rng), 0.3 * u(rng));
      const bool expected = p.z() > 0.0 && p.z() < 0.5 && p.x() > 0.0 && p.y() > 0.0 &&
                            ((p.x() < 2.0 && p.y() < 1.0) || (p.x() < 1.0 && p.y() < 2.0));
      inside += expected;
      QCOMPARE(l.contains(p), expected);
    }
    QVERIFY(inside > 5000);
  }

  void linesThroughSharedEdgesAndVerticesCrossOnce() {
    // A unit cube: lines along x through face diagonals, edges and corners. Every span list is
    // empty or exactly [0, 1], never a double count.
    const MeshSolid cube(shared(boxMesh(Vec3::Zero(), Vec3::Ones())));
    std::vector<Span> spans;
    int full = 0;
    for (int j = -1; j <= 5; ++j) {
      for (int k = -1; k <= 5; ++k) {
        const double y = 0.25 * j, z = 0.25 * k;
        cube.spansAlongX(y, z, spans);
        QVERIFY(spans.empty() || (spans.size() == 1 && spans[0].begin == 0.0 && spans[0].end == 1.0));
        full += !spans.empty();
        if (y > 0.0 && y < 1.0 && z > 0.0 && z < 1.0) QCOMPARE(spans.size(), std::size_t(1));
        if (y < 0.0 || y > 1.0 || z < 0.0 || z > 1.0) QVERIFY(spans.empty());
      }
    }
    QVERIFY(full >= 9);
    // A UV sphere's poles and seams: lines exactly through vertices.
    const TriangleMesh sphere = uvSphereMesh(Vec3::Zero(), 1.0, 16, 8);
    const MeshSolid ball(shared(sphere));
    for (const Vec3& v : sphere.vertices) {
      ball.spansAlongX(v.y(), v.z(), spans);
      QVERIFY(spans.size() <= 1);
      QVERIFY(ball.bvh().windingNumber(Vec3(-2.0, v.y(), v.z())) == 0);
    }
  }

  void shellsCavitiesAndOverlaps() {
    // Two disjoint boxes, a box with a cavity (inner shell facing inwards), two overlapping boxes.
    TriangleMesh two = boxMesh(Vec3::Zero(), Vec3::Ones());
    appendMesh(two, boxMesh(Vec3(2, 0, 0), Vec3(3, 1, 1)));
    const MeshSolid pair(shared(two));
    QVERIFY(pair.contains(Vec3(0.5, 0.5, 0.5)) && pair.contains(Vec3(2.5, 0.5, 0.5)));
    QVERIFY(!pair.contains(Vec3(1.5, 0.5, 0.5)));

    TriangleMesh hollow = boxMesh(Vec3::Zero(), Vec3::Constant(3.0));
    TriangleMesh inner = boxMesh(Vec3::Ones(), Vec3::Constant(2.0));
    for (auto& t : inner.triangles) std::swap(t[1], t[2]);
    appendMesh(hollow, inner);
    const MeshSolid shell(shared(hollow));
    QVERIFY(shell.contains(Vec3(0.5, 1.5, 1.5)));
    QVERIFY(!shell.contains(Vec3(1.5, 1.5, 1.5)));
    CLUMPLAB_COMPARE_REL(meshMassProperties(hollow, 1.0).volume, 26.0, 1e-13);
    CLUMPLAB_COMPARE_REL(massFromVoxels(shell, 1.0, 96).volume, 26.0, 1e-12);  // voxels align with faces

    TriangleMesh overlap = boxMesh(Vec3::Zero(), Vec3::Constant(2.0));
    appendMesh(overlap, boxMesh(Vec3::Ones(), Vec3::Constant(3.0)));
    const MeshSolid both(shared(overlap));
    QVERIFY(both.contains(Vec3(1.5, 1.5, 1.5)));  // winding 2: still inside (non-zero rule)
    std::vector<Span> spans;
    both.spansAlongX(1.5, 1.5, spans);
    QCOMPARE(spans.size(), std::size_t(1));
    QCOMPARE(spans[0].begin, 0.0);
    QCOMPARE(spans[0].end, 3.0);
    CLUMPLAB_COMPARE_REL(massFromVoxels(both, 1.0, 96).volume, 15.0, 1e-12);  // 8 + 8 - 1
  }

  void voxelsOfAMeshConvergeToItsExactProperties() {
    const TriangleMesh torus = torusMesh(Vec3(0.01, 0.0, -0.02), 0.03, 0.012, 64, 32);
    const MassProperties exact = meshMassProperties(torus, 1000.0);
    const MeshSolid solid(shared(torus));
    const MassProperties v = massFromVoxels(solid, 1000.0, 256);
    CLUMPLAB_COMPARE_REL(v.volume, exact.volume, 2e-3);
    CLUMPLAB_VERIFY_LESS((v.inertiaTensor - exact.inertiaTensor).norm() / exact.inertiaTensor.norm(), 3e-3);
    const MassProperties mc = massFromMonteCarlo(solid, 1000.0, 200000, true);
    CLUMPLAB_COMPARE_REL(mc.volume, exact.volume, 5e-3);
  }

  void distanceToTheSurface() {
    const MeshSolid cube(shared(boxMesh(Vec3::Zero(), Vec3::Ones())));
    CLUMPLAB_COMPARE_REL(cube.distanceToSurface(Vec3(0.5, 0.5, 0.5)), 0.5, 1e-15);
    CLUMPLAB_COMPARE_REL(cube.distanceToSurface(Vec3(0.2, 0.5, 0.6)), 0.2, 1e-15);
    CLUMPLAB_COMPARE_REL(cube.distanceToSurface(Vec3(2.0, 2.0, 0.5)), std::sqrt(2.0), 1e-15);
    QVERIFY(std::isinf(cube.distanceToSurface(Vec3(0.5, 0.5, 0.5), 0.1)));
  }
};

QTEST_GUILESS_MAIN(InsideTest)
#include "tst_inside_test.moc"
