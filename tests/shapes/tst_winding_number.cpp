// The generalized winding number (Jacobson, Kavan and Sorkine-Hornung, "Robust inside-outside
// segmentation using generalized winding numbers") and the solid it encloses: exact on a closed
// cube, the hierarchical evaluation against the exact sum on random points, and the inside test,
// spans and mass properties of surfaces that are not closed manifolds: a cube with a face missing,
// a sphere with a hole, overlapping shells, non-manifold edges; a single triangle bounds nothing.
#include <QtTest>
#include <chrono>
#include <cmath>
#include <numbers>
#include <random>

#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "shapes/MeshImport.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/MeshSolid.hpp"
#include "shapes/Primitives.hpp"
#include "shapes/WindingNumber.hpp"

using namespace clumplab;
using namespace clumplab::shapes;

namespace {
std::shared_ptr<const TriangleMesh> shared(TriangleMesh m) {
  return std::make_shared<const TriangleMesh>(std::move(m));
}

// The box [0, a]^3 without its face z = 0 (boxMesh's first two triangles).
TriangleMesh openCube(double a) {
  TriangleMesh m = boxMesh(Vec3::Zero(), Vec3::Constant(a));
  m.triangles.erase(m.triangles.begin(), m.triangles.begin() + 2);
  return m;
}

// A UV sphere of radius 1 without its south cap (the first `slices` triangles: a hole of about 45
// degrees around the pole).
TriangleMesh sphereWithHole(int slices, int stacks) {
  TriangleMesh m = uvSphereMesh(Vec3::Zero(), 1.0, slices, stacks);
  m.triangles.erase(m.triangles.begin(), m.triangles.begin() + slices);
  return m;
}

// The mesh with vertices at equal positions merged (as prepareMesh welds them).
TriangleMesh welded(const TriangleMesh& m) {
  TriangleMesh out;
  std::vector<std::uint32_t> index;
  for (const Vec3& v : m.vertices) {
    const auto same = std::find(out.vertices.begin(), out.vertices.end(), v);
    index.push_back(static_cast<std::uint32_t>(same - out.vertices.begin()));
    if (same == out.vertices.end()) out.vertices.push_back(v);
  }
  for (auto t : m.triangles) {
    for (auto& v : t) v = index[v];
    out.triangles.push_back(t);
  }
  return out;
}

double seconds(const std::function<void()>& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

class WindingNumberTest : public QObject {
  Q_OBJECT
 private slots:
  void closedCubeIsOneInsideAndZeroOutside() {
    const TriangleMesh cube = boxMesh(Vec3::Zero(), Vec3::Ones());
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> u(-1.0, 2.0);
    int inside = 0;
    for (int k = 0; k < 2000; ++k) {
      const Vec3 p(u(rng), u(rng), u(rng));
      const bool in = (p.array() > 0.0).all() && (p.array() < 1.0).all();
      inside += in;
      const double w = exactWindingNumber(cube, p);
      QVERIFY2(std::abs(w - (in ? 1.0 : 0.0)) < 1e-12, qPrintable(QString::number(w, 'g', 17)));
    }
    QVERIFY(inside > 50);
    // One triangle seen from behind, head-on and from the side: +2 pi near it, 0 in its plane.
    const Vec3 a(1, 0, 0), b(0, 1, 0), c(-1, -1, 0);
    QVERIFY(std::abs(triangleSolidAngle(a - Vec3(0, 0, -1e-9), b - Vec3(0, 0, -1e-9), c - Vec3(0, 0, -1e-9)) -
                     2.0 * std::numbers::pi) < 1e-6);
    QCOMPARE(triangleSolidAngle(a - Vec3(5, 5, 0), b - Vec3(5, 5, 0), c - Vec3(5, 5, 0)), 0.0);
  }

  // The product of complex numbers against the sum of arctangents it replaces: random triangles
  // around the point, so that the running sum passes +-pi many times (nested closed shells wind
  // several times), triangles nearly edge-on (half-angles near +-pi), and ones in the point's plane.
  void solidAngleSumAgreesWithTheSumOfArctangents() {
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    double largest = 0.0;
    int wound = 0;
    for (int trial = 0; trial < 400; ++trial) {
      SolidAngleSum product;
      double sum = 0.0;
      const int count = 1 + trial % 60;
      for (int k = 0; k < count; ++k) {
        Vec3 a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng)), c(u(rng), u(rng), u(rng));
        if (k % 7 == 3) c = -0.5 * (a + b) + 1e-9 * c;  // the point almost on the triangle
        if (k % 11 == 5) c = 2.0 * a - b;               // the point in the triangle's plane: 0
        if (trial % 3 == 0 && k % 2 == 1) std::swap(b, c);
        sum += triangleSolidAngle(a, b, c);
        product.add(a, b, c);
      }
      wound += std::abs(sum) > 2.0 * std::numbers::pi;
      largest = std::max(largest, std::abs(product.steradians() - sum));
    }
    // A cube around the point three times over: 12 pi, and -12 pi turned inside out.
    const TriangleMesh cube = boxMesh(Vec3::Constant(-1.0), Vec3::Ones());
    for (const double side : {1.0, -1.0}) {
      SolidAngleSum product;
      for (int times = 0; times < 3; ++times) {
        for (std::size_t t = 0; t < cube.size(); ++t) {
          if (side > 0.0) {
            product.add(cube.corner(t, 0), cube.corner(t, 1), cube.corner(t, 2));
          } else {
            product.add(cube.corner(t, 0), cube.corner(t, 2), cube.corner(t, 1));
          }
        }
      }
      CLUMPLAB_VERIFY_LESS(std::abs(product.steradians() - side * 12.0 * std::numbers::pi), 1e-12);
    }
    qInfo("largest |product - sum of arctangents| over 400 sets: %.2g; %d sets wound past 2 pi", largest,
          wound);
    QVERIFY(wound > 50);
    CLUMPLAB_VERIFY_LESS(largest, 1e-12);
  }

  void hierarchyAgreesWithTheExactSum() {
    // A torus (18 432 triangles) and the sphere with a hole: random points in and around the box,
    // and points near the surface, where the nodes' expansions are used most. The default beta = 2
    // stays within 1e-2 of the exact sum (measured 4.5e-3); beta = 4 is far more accurate (the
    // second-order expansion's error falls faster than beta^-3: measured 1.6e-4).
    const TriangleMesh torus = torusMesh(Vec3(0.1, 0, 0), 1.0, 0.35, 192, 48);
    const TriangleMesh holed = sphereWithHole(64, 32);
    for (const TriangleMesh* mesh : {&torus, &holed}) {
      const TriangleBvh bvh(shared(*mesh));
      double largest[2] = {0.0, 0.0};
      for (int b = 0; b < 2; ++b) {
        const WindingNumberTree tree(bvh, b == 0 ? 2.0 : 4.0);
        std::mt19937_64 rng(5);
        std::uniform_real_distribution<double> u(-1.6, 1.6);
        for (int k = 0; k < 3000; ++k) {
          Vec3 p(u(rng), u(rng), u(rng));
          if (k % 2 == 1) {  // near the surface: a corner moved off it by up to 1% of the size
            p = mesh->vertices[static_cast<std::size_t>(k) % mesh->vertices.size()] +
                0.01 * Vec3(u(rng), u(rng), u(rng));
          }
          largest[b] = std::max(largest[b], std::abs(tree.at(p) - exactWindingNumber(*mesh, p)));
        }
      }
      qInfo("largest |hierarchical - exact| over 3000 points, %zu triangles: %.2g (beta 2), %.2g (beta 4)",
            mesh->size(), largest[0], largest[1]);
      CLUMPLAB_VERIFY_LESS(largest[0], 1e-2);
      CLUMPLAB_VERIFY_LESS(largest[1], largest[0] / 8.0);
    }
    // Speed: 2e5 queries on the torus (reported; the corpus test bounds the time of whole fills).
    const TriangleBvh bvh(shared(torus));
    const WindingNumberTree tree(bvh);
    std::mt19937_64 rng(9);
    std::uniform_real_distribution<double> u(-1.6, 1.6);
    double sum = 0.0;
    const double s = seconds([&] {
      for (int k = 0; k < 200000; ++k) sum += tree.at(Vec3(u(rng), u(rng), 0.3 * u(rng)));
    });
    qInfo("2e5 hierarchical queries on %zu triangles: %.3f s (mean w %.3f)", torus.size(), s, sum / 2e5);
  }

  void cubeWithAFaceMissing() {
    const MeshSolid solid(shared(openCube(1.0)));
    QCOMPARE(solid.insideRule(), MeshSolid::InsideRule::WindingNumber);
    QCOMPARE(solid.openEdges(), std::size_t(4));
    std::mt19937_64 rng(2);
    std::uniform_real_distribution<double> u(-1.0, 2.0);
    int inside = 0, outside = 0;
    for (int k = 0; k < 20000; ++k) {
      const Vec3 p(u(rng), u(rng), u(rng));
      const double depth = std::min({p.x(), 1 - p.x(), p.y(), 1 - p.y(), p.z(), 1 - p.z()});
      const double away = (p - p.cwiseMax(Vec3::Zero()).cwiseMin(Vec3::Ones())).norm();
      if (depth > 0.1 && p.z() > 0.25) {  // well inside, away from the missing face z = 0
        ++inside;
        QVERIFY2(solid.contains(p), qPrintable(QString("%1 %2 %3").arg(p.x()).arg(p.y()).arg(p.z())));
      } else if (away > 0.5) {
        ++outside;
        QVERIFY(!solid.contains(p));
      }
    }
    QVERIFY(inside > 200 && outside > 1000);
    // The centre of the missing face sees the other five as a half space: w = 1/2.
    QVERIFY(std::abs(exactWindingNumber(solid.mesh(), Vec3(0.5, 0.5, 0.0)) - 0.5) < 1e-12);
    // Spans across the missing face end near it, and through the walls exactly at them.
    std::vector<Span> spans;
    solid.spansAlongX(0.5, 0.5, spans);
    QCOMPARE(spans.size(), std::size_t(1));
    QCOMPARE(spans[0].begin, 0.0);
    QCOMPARE(spans[0].end, 1.0);
  }

  void sphereWithAHole() {
    const MeshSolid solid(shared(sphereWithHole(32, 16)));
    QCOMPARE(solid.insideRule(), MeshSolid::InsideRule::WindingNumber);
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-1.5, 1.5);
    for (int k = 0; k < 20000; ++k) {
      const Vec3 p(u(rng), u(rng), u(rng));
      if (p.norm() < 0.8) QVERIFY(solid.contains(p));
      if (p.norm() > 1.1) QVERIFY(!solid.contains(p));
    }
    const MassProperties m = solidMassProperties(solid, 1.0);
    const double closed = signedVolume(uvSphereMesh(Vec3::Zero(), 1.0, 32, 16));
    qInfo("sphere with a hole: volume %.6f against the closed sphere's %.6f (estimated error %.2g, N = %d)",
          m.volume, closed, m.volumeError, m.voxelsPerSide);
    CLUMPLAB_COMPARE_REL(m.volume, closed, 0.02);
  }

  void overlappingShellsMakeTheirUnion() {
    TriangleMesh two = boxMesh(Vec3::Zero(), Vec3::Constant(2.0));
    appendMesh(two, boxMesh(Vec3::Ones(), Vec3::Constant(3.0)));
    QVERIFY(std::abs(exactWindingNumber(two, Vec3::Constant(1.5)) - 2.0) < 1e-12);
    const MeshSolid solid(shared(two));
    QCOMPARE(solid.insideRule(), MeshSolid::InsideRule::WindingNumber);
    QCOMPARE(solid.openEdges(), std::size_t(0));
    for (const Vec3& p : {Vec3(0.5, 0.5, 0.5), Vec3(1.5, 1.5, 1.5), Vec3(2.5, 2.5, 2.5)})
      QVERIFY(solid.contains(p));
    QVERIFY(!solid.contains(Vec3(2.5, 0.5, 0.5)));
    // Their union, 8 + 8 - 1, not the divergence theorem's 16.
    CLUMPLAB_COMPARE_REL(signedVolume(two), 16.0, 1e-14);
    CLUMPLAB_COMPARE_REL(massFromVoxels(solid, 1.0, 96).volume, 15.0, 1e-12);  // voxels align with faces
    const MassProperties m = solidMassProperties(solid, 1.0);
    qInfo("overlapping boxes: %.6f, estimated error %.3g, N = %d", m.volume, m.volumeError, m.voxelsPerSide);
    QVERIFY(std::abs(m.volume - 15.0) <= m.volumeError && m.volumeError < 0.05 * 15.0);
    // Disjoint and nested shells keep the exact rule.
    TriangleMesh apart = boxMesh(Vec3::Zero(), Vec3::Ones());
    appendMesh(apart, boxMesh(Vec3(2, 0, 0), Vec3(3, 1, 1)));
    QCOMPARE(MeshSolid(shared(apart)).insideRule(), MeshSolid::InsideRule::Crossings);
  }

  void nonManifoldEdges() {
    // Two cubes sharing an edge (4 triangles on it, their uses cancel: no open edge, w is 0 or 1).
    TriangleMesh pair = boxMesh(Vec3::Zero(), Vec3::Ones());
    appendMesh(pair, boxMesh(Vec3(1, 1, 0), Vec3(2, 2, 1)));
    const MeshSolid edge(shared(welded(pair)));
    QCOMPARE(edge.insideRule(), MeshSolid::InsideRule::WindingNumber);
    QCOMPARE(edge.openEdges(), std::size_t(0));
    QVERIFY(edge.contains(Vec3(0.5, 0.5, 0.5)) && edge.contains(Vec3(1.5, 1.5, 0.5)));
    QVERIFY(!edge.contains(Vec3(1.5, 0.5, 0.5)));
    CLUMPLAB_COMPARE_REL(solidMassProperties(edge, 1.0).volume, 2.0, 1e-12);
    // A fin: a third triangle on an edge of a cube, and the same cube's seam duplicated with the
    // duplicate turned the other way: the fin and the seam are sheets; the cube stays the solid.
    TriangleMesh fin = boxMesh(Vec3::Zero(), Vec3::Ones());
    fin.vertices.push_back(Vec3(0.5, -1.0, 0.0));
    fin.triangles.push_back({0, 1, 8});
    const MeshSolid withFin(shared(fin));
    QCOMPARE(withFin.insideRule(), MeshSolid::InsideRule::WindingNumber);
    QVERIFY(withFin.contains(Vec3(0.5, 0.5, 0.5)));
    QVERIFY(!withFin.contains(Vec3(0.5, -0.5, 0.01)) && !withFin.contains(Vec3(0.5, -0.5, -0.01)));
    const MassProperties m = solidMassProperties(withFin, 1.0);
    qInfo("cube with a fin: volume %.6f (estimated error %.2g, N = %d)", m.volume, m.volumeError,
          m.voxelsPerSide);
    CLUMPLAB_COMPARE_REL(m.volume, 1.0, 0.01);
    // A duplicated seam: the two triangles along one edge of a cube repeated (that edge then shared
    // by four triangles, their other edges by three); the cube stays the solid.
    TriangleMesh seam = boxMesh(Vec3::Zero(), Vec3::Ones());
    for (std::size_t t = 0; t < 12; ++t) {
      const auto& tri = seam.triangles[t];
      const bool onEdge = std::count_if(tri.begin(), tri.end(), [&](std::uint32_t v) {
                            return seam.vertices[v].x() == 0.0 && seam.vertices[v].y() == 0.0;
                          }) == 2;
      if (onEdge) seam.triangles.push_back(tri);
    }
    QCOMPARE(seam.size(), std::size_t(14));
    const MeshSolid doubled(shared(seam));
    QCOMPARE(doubled.insideRule(), MeshSolid::InsideRule::WindingNumber);
    QVERIFY(doubled.contains(Vec3(0.5, 0.5, 0.5)) && doubled.contains(Vec3(0.05, 0.05, 0.5)));
    QVERIFY(!doubled.contains(Vec3(-0.05, -0.05, 0.5)) && !doubled.contains(Vec3(1.5, 0.5, 0.5)));
    const MassProperties d = solidMassProperties(doubled, 1.0);
    QVERIFY(std::abs(d.volume - 1.0) <= std::max(d.volumeError, 1e-12));
  }

  void openCubeMassPropertiesMatchTheClosedCube() {
    // A cube of side a = 0.2 m without its face z = 0, density 2500, turned off the axes (so that no
    // face lies on the voxels' grid): volume a^3, every principal moment m a^2 / 6, its centre where
    // the closed cube's is. The level set w = 1/2 spans the missing face close to its plane; the
    // voxels sample the rest. Stated tolerance: 1% (volume, moments), a / 100 (centre); the report's
    // own estimate covers the volume's error.
    const double a = 0.2, density = 2500.0;
    const Quat turn = Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
    const Vec3 shift(0.01, -0.02, 0.03);
    const PreparedMesh p = prepareMesh(transformedMesh(openCube(a), turn, shift), "open cube");
    QVERIFY(!p.report.closed);
    const MassProperties m = preparedMassProperties(p, density);
    const double volume = a * a * a, mass = density * volume, moment = mass * a * a / 6.0;
    const PrincipalFrame frame = principalFrame(m.inertiaTensor);
    const Vec3 centre = turn * Vec3::Constant(a / 2) + shift;
    const double momentError =
        (frame.moments.cwiseQuotient(Vec3::Constant(moment)) - Vec3::Ones()).cwiseAbs().maxCoeff();
    qInfo(
        "open cube: volume %.6g (error %.2g%%, estimated %.2g%%), centre off by %.2g a, moments off by "
        "%.2g%%, N = %d",
        m.volume, 100.0 * (m.volume / volume - 1.0), 100.0 * m.volumeError / volume,
        (m.centerOfMass - centre).norm() / a, 100.0 * momentError, m.voxelsPerSide);
    CLUMPLAB_COMPARE_REL(m.volume, volume, 0.01);
    QVERIFY(std::abs(m.volume - volume) <= m.volumeError);
    CLUMPLAB_COMPARE_REL(m.mass, mass, 0.01);
    CLUMPLAB_VERIFY_LESS((m.centerOfMass - centre).norm(), a / 100);
    CLUMPLAB_VERIFY_LESS(momentError, 0.01);
    // The closed cube keeps the exact path: no sampling, the divergence theorem's bits.
    const PreparedMesh closed = prepareMesh(boxMesh(Vec3::Zero(), Vec3::Constant(a)), "cube");
    QVERIFY(closed.report.closed && !closed.sampledUnitMass);
    QCOMPARE(preparedMassProperties(closed, density).inertiaTensor,
             meshMassProperties(*closed.mesh, density).inertiaTensor);
  }

  void aSingleTriangleBoundsNoSolid() {
    TriangleMesh one;
    one.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
    one.triangles = {{0, 1, 2}};
    try {
      prepareMesh(one, "triangle.stl");
      QFAIL("a single triangle was accepted");
    } catch (const InputError& e) {
      QCOMPARE(std::string(e.what()),
               std::string("triangle.stl: bounds no solid: its generalized winding number never reaches 1/2 "
                           "(it is a single triangle: a flat sheet encloses nothing)"));
    }
    // Nowhere near 1/2: its largest value on the side it faces away from is below 1/2.
    const TriangleBvh bvh(shared(one));
    const WindingNumberTree tree(bvh);
    for (const double h : {1e-6, 1e-3, 0.1}) QVERIFY(tree.at(Vec3(0.25, 0.25, -h)) < 0.5);
  }
};

QTEST_GUILESS_MAIN(WindingNumberTest)
#include "tst_winding_number.moc"
