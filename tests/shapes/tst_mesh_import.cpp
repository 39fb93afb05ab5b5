// Mesh import and checks: binary and ASCII STL and OBJ through Assimp, scale, the report, and
// every broken-file case with its message (empty, truncated, NaN, huge, flat, inside out,
// inconsistent, several shells, a cavity, seams, holes closed with repair); open and non-manifold
// surfaces bound the solid of their generalized winding number, with warnings.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cstring>
#include <limits>

#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "shapes/MeshImport.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/Primitives.hpp"

using namespace clumplab;
using namespace clumplab::shapes;

namespace {
using Corners = std::array<Vec3, 3>;

std::vector<Corners> soupOf(const TriangleMesh& m) {
  std::vector<Corners> out;
  for (std::size_t t = 0; t < m.size(); ++t) out.push_back({m.corner(t, 0), m.corner(t, 1), m.corner(t, 2)});
  return out;
}

// Binary STL bytes; `count` overrides the header's triangle count when >= 0.
QByteArray binaryStl(const std::vector<Corners>& triangles, long long count = -1) {
  QByteArray b(80, ' ');
  const auto n = static_cast<std::uint32_t>(count >= 0 ? count : static_cast<long long>(triangles.size()));
  b.append(reinterpret_cast<const char*>(&n), 4);
  for (const Corners& t : triangles) {
    const float normal[3] = {0, 0, 0};
    b.append(reinterpret_cast<const char*>(normal), 12);
    for (const Vec3& v : t) {
      const float f[3] = {static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())};
      b.append(reinterpret_cast<const char*>(f), 12);
    }
    b.append(2, '\0');
  }
  return b;
}

QByteArray asciiStl(const std::vector<Corners>& triangles) {
  QByteArray s = "solid test\n";
  for (const Corners& t : triangles) {
    s += " facet normal 0 0 0\n  outer loop\n";
    for (const Vec3& v : t)
      s += QByteArray("   vertex ") + QByteArray::number(v.x(), 'g', 17) + " " +
           QByteArray::number(v.y(), 'g', 17) + " " + QByteArray::number(v.z(), 'g', 17) + "\n";
    s += "  endloop\n endfacet\n";
  }
  return s + "endsolid test\n";
}

QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
  QFile f(dir.filePath(name));
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write");
  f.write(bytes);
  return f.fileName();
}

TriangleMesh unitCube() {
  return boxMesh(Vec3::Zero(), Vec3::Ones());
}
}  // namespace

class MeshImportTest : public QObject {
  Q_OBJECT
 private slots:
  void readsBinaryAsciiAndObjWithScale() {
    QTemporaryDir dir;
    const TriangleMesh cube = boxMesh(Vec3(0, 0, 0), Vec3(10, 20, 30));  // mm
    const QString bin = write(dir, "box.stl", binaryStl(soupOf(cube)));
    const QString text = write(dir, "box_ascii.stl", asciiStl(soupOf(cube)));
    QByteArray obj;
    for (const Vec3& v : cube.vertices)
      obj += "v " + QByteArray::number(v.x()) + " " + QByteArray::number(v.y()) + " " +
             QByteArray::number(v.z()) + "\n";
    for (const auto& t : cube.triangles)
      obj += "f " + QByteArray::number(t[0] + 1) + " " + QByteArray::number(t[1] + 1) + " " +
             QByteArray::number(t[2] + 1) + "\n";
    const QString objFile = write(dir, "box.obj", obj);
    QByteArray ply =
        "ply\nformat ascii 1.0\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\n"
        "element face 12\nproperty list uchar int vertex_indices\nend_header\n";
    for (const Vec3& v : cube.vertices)
      ply += QByteArray::number(v.x()) + " " + QByteArray::number(v.y()) + " " + QByteArray::number(v.z()) +
             "\n";
    for (const auto& t : cube.triangles)
      ply += "3 " + QByteArray::number(t[0]) + " " + QByteArray::number(t[1]) + " " +
             QByteArray::number(t[2]) + "\n";
    const QString plyFile = write(dir, "box.ply", ply);
    for (const QString& file : {bin, text, objFile, plyFile}) {
      const PreparedMesh m = importMesh(file.toStdString(), {.scale = 0.001});
      QCOMPARE(m.report.triangles, std::size_t(12));
      QCOMPARE(m.report.vertices, std::size_t(8));
      QCOMPARE(m.report.shells, std::size_t(1));
      CLUMPLAB_COMPARE_REL(m.report.volume, 6e-6, 1e-12);
      CLUMPLAB_COMPARE_REL(m.report.area, 2.2e-3, 1e-12);
      QVERIFY((m.report.upper - Vec3(0.01, 0.02, 0.03)).norm() < 1e-15);
      QVERIFY(m.report.warnings.empty());
    }
    QCOMPARE(importMesh(bin.toStdString()).report.format, std::string("binary STL"));
    QCOMPARE(importMesh(text.toStdString()).report.format, std::string("ASCII STL"));
  }

  void brokenFilesAreRefusedWithAClearMessage_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");
    const std::vector<Corners> cube = soupOf(unitCube());
    QTest::newRow("empty") << QByteArray() << "a.stl"
                           << "the file is empty";
    QTest::newRow("too short") << QByteArray("abc") << "a.stl"
                               << "too short to be an STL file";
    QByteArray truncated = binaryStl(cube);
    truncated.chop(30);
    QTest::newRow("truncated binary") << truncated << "a.stl"
                                      << "announces 12 triangles (684 bytes) but the file has 654";
    QByteArray text = asciiStl(cube);
    text.truncate(text.indexOf("endfacet", text.size() / 2));
    QTest::newRow("truncated ASCII") << text << "a.stl"
                                     << "truncated ASCII STL";
    QTest::newRow("ASCII with NaN") << asciiStl(cube).replace("vertex 0 0 0", "vertex nan 0 0") << "a.stl"
                                    << "not a finite number";
    std::vector<Corners> nan = cube;
    nan[3][1].x() = std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("binary with NaN") << binaryStl(nan) << "a.stl"
                                     << "triangle 3 has a coordinate that is not a finite number";
    std::vector<Corners> huge = cube;
    huge[5][2].y() = 1e30;
    QTest::newRow("huge coordinate") << binaryStl(huge) << "a.stl"
                                     << "beyond 1e+09 m: check the scale";
    QTest::newRow("a single triangle") << binaryStl({cube[0]}) << "a.stl"
                                       << "bounds no solid: its generalized winding number never reaches 1/2 "
                                          "(it is a single triangle: a flat "
                                          "sheet encloses nothing)";
    QTest::newRow("a flat sheet")
        << binaryStl({cube[0], cube[1]}) << "a.stl"
        << "bounds no solid: its generalized winding number never reaches 1/2 (its 2 "
           "triangles lie in one plane";
    std::vector<Corners> flat = {{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0)}};
    QTest::newRow("all degenerate") << binaryStl(flat) << "a.stl"
                                    << "every triangle is degenerate";
    QTest::newRow("garbage obj") << QByteArray("this is not a mesh\x01\x02") << "a.obj"
                                 << "a.obj: ";
    QTest::newRow("no triangles") << binaryStl({}, 0) << "a.stl"
                                  << "holds no triangles";
  }
  void brokenFilesAreRefusedWithAClearMessage() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, name);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = write(dir, name, bytes);
    try {
      importMesh(path.toStdString());
      QFAIL("no error");
    } catch (const InputError& e) {
      const QString message = e.what();
      QVERIFY2(message.startsWith(path + ": "), qPrintable(message));
      QVERIFY2(message.contains(expected), qPrintable(message));
    }
  }

  void meshFilesAreEveryFormatTheImportReads() {
    // What the app's Open dialog lists and its drop accepts: STL and every format of Assimp's (an
    // OpenGEX or Q3D file dropped is read or refused with a message, never silently ignored).
    const std::vector<std::string>& known = shapes::meshFileExtensions();
    QVERIFY(std::is_sorted(known.begin(), known.end()));
    QVERIFY(std::adjacent_find(known.begin(), known.end()) == known.end());
    for (const char* file : {"a/Wuson.STL", "b.obj", "c.ply", "d.off", "e.3mf", "f.ogex", "g.q3o", "h.glb"})
      QVERIFY2(shapes::isMeshFileName(file), file);
    for (const char* file : {"scene.json", "notes.txt", "picture.png", "no-extension", "run.cltraj", "."})
      QVERIFY2(!shapes::isMeshFileName(file), file);
  }

  void missingFileAndTriangleLimit() {
    QVERIFY_THROWS_EXCEPTION(InputError, importMesh("/nonexistent/part.stl"));
    QTemporaryDir dir;
    const QString path = write(dir, "cube.stl", binaryStl(soupOf(unitCube())));
    try {
      importMesh(path.toStdString(), {.maxTriangles = 5});
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("12 triangles exceed the limit of 5 (raise it with --max-triangles "
                                          "N or CLUMPLAB_MAX_TRIANGLES=N)"),
               e.what());
    }
  }

  void openAndNonManifoldSurfacesBoundTheirWindingNumbersSolid() {
    // Refused before issue 37: now the solid their generalized winding number encloses, its mass
    // properties sampled, and warnings that say so.
    const std::vector<Corners> cube = soupOf(unitCube());
    std::vector<Corners> open = cube;
    open.erase(open.begin(), open.begin() + 2);  // one face missing
    std::vector<Corners> fin = cube;
    fin.push_back({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, -1, 0)});  // a third triangle on an edge
    QTemporaryDir dir;
    const PreparedMesh a = importMesh(write(dir, "open.stl", binaryStl(open)).toStdString());
    const PreparedMesh b = importMesh(write(dir, "fin.stl", binaryStl(fin)).toStdString());
    for (const PreparedMesh* p : {&a, &b}) {
      QVERIFY(!p->report.closed && p->sampledUnitMass);
      QCOMPARE(p->solid->insideRule(), MeshSolid::InsideRule::WindingNumber);
      QVERIFY(std::abs(p->report.volume - 1.0) <= p->report.volumeError);
      QCOMPARE(p->report.voxels, p->sampledUnitMass->voxelsPerSide);
      QVERIFY(std::any_of(p->report.warnings.begin(), p->report.warnings.end(), [](const std::string& w) {
        return w.starts_with(
            "mass properties from the solid its generalized winding number encloses, sampled on a ");
      }));
    }
    QCOMPARE(a.report.boundaryEdges, std::size_t(4));
    QCOMPARE(a.report.warnings[0],
             std::string("the mesh is open: 4 boundary edges (edges of only one triangle) around 1 hole; the "
                         "largest has 4 edges and a perimeter of 4 m, around (0.5, 0.5, 0) m"));
    QCOMPARE(b.report.nonManifoldEdges, std::size_t(1));
    QVERIFY(std::any_of(b.report.warnings.begin(), b.report.warnings.end(), [](const std::string& w) {
      return w.starts_with("1 edge is shared by more than two triangles (non-manifold), the first near (");
    }));
    // Its mass at a density: the sampled properties scaled, errors too.
    const MassProperties m = preparedMassProperties(a, 2000.0);
    CLUMPLAB_COMPARE_REL(m.mass, 2000.0 * a.report.volume, 1e-15);
    CLUMPLAB_COMPARE_REL(m.inertiaTensorError.norm(), 2000.0 * a.sampledUnitMass->inertiaTensorError.norm(),
                         1e-15);
  }

  void orientationIsRepairedWithWarnings() {
    // Inside out: the whole shell is turned; two triangles flipped: turned to agree.
    TriangleMesh inverted = unitCube();
    for (auto& t : inverted.triangles) std::swap(t[1], t[2]);
    const PreparedMesh a = prepareMesh(inverted, "inverted");
    QCOMPARE(a.report.shellsInverted, std::size_t(1));
    QCOMPARE(a.report.trianglesReoriented, std::size_t(0));
    CLUMPLAB_COMPARE_REL(a.report.volume, 1.0, 1e-14);
    QVERIFY(!a.report.warnings.empty());

    TriangleMesh mixed = unitCube();
    std::swap(mixed.triangles[4][1], mixed.triangles[4][2]);
    std::swap(mixed.triangles[9][1], mixed.triangles[9][2]);
    const PreparedMesh b = prepareMesh(mixed, "mixed");
    QCOMPARE(b.report.trianglesReoriented, std::size_t(2));
    QCOMPARE(b.report.shellsInverted, std::size_t(0));
    CLUMPLAB_COMPARE_REL(meshMassProperties(*b.mesh, 1.0).volume, 1.0, 1e-14);
  }

  void shellsAndCavities() {
    // Two separate boxes, both given inside out, and a box with a cavity whose inner shell faces
    // outwards: every shell is turned the right way (outer out, cavity in).
    TriangleMesh two = boxMesh(Vec3::Zero(), Vec3::Ones());
    appendMesh(two, boxMesh(Vec3(3, 0, 0), Vec3(4, 2, 1)));
    for (auto& t : two.triangles) std::swap(t[1], t[2]);
    const PreparedMesh a = prepareMesh(two, "two");
    QCOMPARE(a.report.shells, std::size_t(2));
    QCOMPARE(a.report.shellsInverted, std::size_t(2));
    CLUMPLAB_COMPARE_REL(a.report.volume, 3.0, 1e-14);

    TriangleMesh hollow = boxMesh(Vec3::Zero(), Vec3::Constant(3.0));
    appendMesh(hollow, boxMesh(Vec3::Ones(), Vec3::Constant(2.0)));  // wrongly facing out
    const PreparedMesh b = prepareMesh(hollow, "hollow");
    QCOMPARE(b.report.shells, std::size_t(2));
    QCOMPARE(b.report.shellsInverted, std::size_t(1));
    CLUMPLAB_COMPARE_REL(b.report.volume, 26.0, 1e-14);
  }

  void degenerateAndDuplicateTrianglesAreDropped() {
    TriangleMesh m = unitCube();
    m.vertices.push_back(Vec3(0.5, 0, 0));
    m.triangles.push_back({0, 1, 8});  // collinear corners: zero area
    m.triangles.push_back({2, 2, 3});  // a repeated corner
    m.triangles.push_back(m.triangles[0]);
    const PreparedMesh p = prepareMesh(m, "m");
    QCOMPARE(p.report.degenerateDropped, std::size_t(2));
    QCOMPARE(p.report.duplicatesDropped, std::size_t(1));
    QCOMPARE(p.report.triangles, std::size_t(12));
  }

  void repairClosesSmallHolesAndSeams() {
    // A UV sphere with one cap triangle fan removed: refused, then closed by repair.
    TriangleMesh sphere = uvSphereMesh(Vec3::Zero(), 1.0, 16, 8);
    const double exact = signedVolume(sphere);
    sphere.triangles.erase(sphere.triangles.begin(), sphere.triangles.begin() + 16);  // the south cap
    // Without repair (issue 37: refused before) the solid its winding number encloses: the level set
    // w = 1/2 spans the hole between the flat fan and the missing cap.
    const PreparedMesh spanned = prepareMesh(sphere, "open");
    QVERIFY(!spanned.report.closed && spanned.report.holesClosed.empty());
    const PreparedMesh p = prepareMesh(sphere, "open", {.repair = true});
    QVERIFY(p.report.closed && !p.sampledUnitMass);
    QVERIFY(spanned.report.volume > p.report.volume - spanned.report.volumeError &&
            spanned.report.volume < exact + spanned.report.volumeError);
    QCOMPARE(p.report.holesClosed.size(), std::size_t(1));
    QCOMPARE(p.report.holesClosed[0].edges, std::size_t(16));
    // The hole is closed by a flat fan in the ring's plane: the removed cone (ring polygon to pole) is
    // missing.
    const double ring = std::sin(M_PI / 8.0), height = 1.0 - std::cos(M_PI / 8.0);
    const double cone = (8.0 * ring * ring * std::sin(2.0 * M_PI / 16.0)) * height / 3.0;
    CLUMPLAB_COMPARE_REL(p.report.volume, exact - cone, 1e-12);
    // A seam whose vertices differ by round-off: welded by repair.
    TriangleMesh seam = unitCube();
    seam.vertices.push_back(Vec3(1, 1, 1) + Vec3::Constant(1e-12));
    // One triangle's copy of the corner (1, 1, 1) is slightly off.
    const auto uses = std::find_if(seam.triangles.begin(), seam.triangles.end(), [](const auto& t) {
      return std::find(t.begin(), t.end(), 7u) != t.end();
    });
    *std::find(uses->begin(), uses->end(), 7u) = 8;
    // Welded on every import (no --repair needed), with a warning that calls it a seam.
    for (const bool repair : {false, true}) {
      const PreparedMesh s = prepareMesh(seam, "seam", {.repair = repair});
      QCOMPARE(s.report.verticesMergedNearby, std::size_t(1));
      QVERIFY(s.report.holesClosed.empty());
      QCOMPARE(s.report.volume, 1.0);
      QVERIFY(std::any_of(s.report.warnings.begin(), s.report.warnings.end(),
                          [](const std::string& w) { return w.find("(seams)") != std::string::npos; }));
    }
    // A seam far beyond round-off (1e-3 of the size) is a hole, and the warning says so.
    TriangleMesh gap = unitCube();
    gap.vertices.push_back(Vec3(1, 1, 1) + Vec3::Constant(1e-3));
    const auto gapUses = std::find_if(gap.triangles.begin(), gap.triangles.end(), [](const auto& t) {
      return std::find(t.begin(), t.end(), 7u) != t.end();
    });
    *std::find(gapUses->begin(), gapUses->end(), 7u) = 8;
    const PreparedMesh g = prepareMesh(gap, "gap.stl");
    QCOMPARE(g.report.verticesMergedNearby, std::size_t(0));
    QVERIFY2(g.report.warnings[0].starts_with("the mesh is open: 4 boundary edges"),
             g.report.warnings[0].c_str());
    CLUMPLAB_COMPARE_REL(g.report.volume, 1.0, 0.01);
  }
};

QTEST_GUILESS_MAIN(MeshImportTest)
#include "tst_mesh_import.moc"
