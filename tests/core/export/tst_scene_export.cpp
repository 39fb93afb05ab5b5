// The exporters (core/export/SceneExport.hpp): what each target refuses and flags, the mappings
// that carry numbers (Hertz's modulus, MercuryDPM's folders read back), and the wall pictures of
// the ParaView output. The engines themselves run in tests/export.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "ExportTestScenes.hpp"
#include "TestSupport.hpp"
#include "core/base/Errors.hpp"
#include "core/export/SceneExport.hpp"
#include "core/export/VtkSeriesWriter.hpp"
#include "core/export/WallSurfaces.hpp"
#include "core/scene/Scene.hpp"

using namespace clumplab;
using namespace clumplab::test;

class TestSceneExport : public QObject {
  Q_OBJECT

 private slots:
  // Features a target cannot express are errors naming the scene file, the JSON path and why.
  void refusals_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("scene");
    QTest::addColumn<QString>("expected");
    for (const RefusalCase& c : refusalCases()) {
      QTest::newRow(c.name.c_str()) << QString::fromStdString(c.target) << QString::fromStdString(c.scene)
                                    << QString::fromStdString(c.expected);
    }
  }
  void refusals() {
    QFETCH(QString, target);
    QFETCH(QString, scene);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const Exported e = exportTo(target.toStdString(), scene.toStdString(), dir.path().toStdString());
    QVERIFY2(
        e.error.find(expected.toStdString()) != std::string::npos,
        qPrintable(
            QString("error \"%1\" should contain \"%2\"").arg(QString::fromStdString(e.error), expected)));
    QVERIFY2(!std::filesystem::exists(std::filesystem::path(dir.path().toStdString()) / "in.clumplab"),
             "a refused export must not leave a deck behind");
  }

  void capsulesRefusedByMercury() {
    QTemporaryDir dir;
    const Exported e = exportTo("mercurydpm", capsuleScene(), dir.path().toStdString());
    QVERIFY2(e.error.find("templates.cap") != std::string::npos, e.error.c_str());
  }

  // Approximations are written but listed, one per feature.
  void warnings() {
    QTemporaryDir dir;
    const std::string folder = dir.path().toStdString();
    // Two masses under a restitution law: LIGGGHTS's and Yade's dashpots fit the mean mass only.
    Exported e = exportTo("liggghts", sceneText(kLinear, kFloor, midpointKey()), folder + "/l");
    QVERIFY2(e.error.empty(), e.error.c_str());
    QVERIFY(anyContains(e.result.warnings, "contact.restitution"));
    QVERIFY(anyContains(e.result.warnings, "integrator"));
    QVERIFY(anyContains(e.result.warnings, "bodies: LIGGGHTS-PUBLIC places"));
    QVERIFY(anyContains(e.result.warnings, "templates.ell"));  // union centroid != pebble-sum centre
    e = exportTo("yade", sceneText(kLinear, kFloor), folder + "/y");
    QVERIFY2(e.error.empty(), e.error.c_str());
    QVERIFY(anyContains(e.result.warnings, "contact.restitution"));
    QVERIFY(anyContains(e.result.warnings, "contact.limit_damping"));
    QVERIFY(!anyContains(e.result.warnings, "damping.local"));
    QVERIFY(fileText(std::filesystem::path(folder) / "y" / "clumplab_yade.py").find("DAMPING = 0 ") !=
            std::string::npos);
    // Cundall's local damping is Yade's NewtonIntegrator damping (with a warning about where the sign is
    // taken).
    e = exportTo("yade", sceneText(kLinear, kFloor, R"(, "damping": {"local": 0.3})"), folder + "/yl");
    QVERIFY2(e.error.empty(), e.error.c_str());
    QVERIFY(anyContains(e.result.warnings, "damping.local"));
    const std::string script = fileText(std::filesystem::path(folder) / "yl" / "clumplab_yade.py");
    QVERIFY(script.find("DAMPING = 0.3") != std::string::npos);
    QVERIFY(script.find("NewtonIntegrator(damping=DAMPING,") != std::string::npos);
    // A fixed dashpot maps exactly: no contact warning.
    e = exportTo("liggghts", dashpotScene(), folder + "/l2");
    QVERIFY2(e.error.empty(), e.error.c_str());
    QVERIFY(!anyContains(e.result.warnings, "contact."));
    const std::string deck = fileText(std::filesystem::path(folder) / "l2" / "in.clumplab");
    QVERIFY(deck.find("gamman_abs peratomtypepair 2 0.01 0.01 0.01 0.01") != std::string::npos);
    QVERIFY(deck.find("absolute_damping on limitForce on tangential_damping off") != std::string::npos);
    // Mutze's hysteresis and regularised friction under LIGGGHTS's Hertz.
    e = exportTo("liggghts", hertzScene(hysteresisKeys()), folder + "/h");
    QVERIFY2(e.error.empty(), e.error.c_str());
    QVERIFY(anyContains(e.result.warnings, "contact.restitution_squared"));
    QVERIFY(anyContains(e.result.warnings, "contact.friction"));
  }

  // LIGGGHTS's Hertz force (4/3) E* sqrt(R*) h^1.5, E* = E_L / (2 (1 - s^2)) for one material, with
  // the deck's E_L, equals Mutze's (sqrt3/2) E/(1-s^2) sqrt(2 r r'/(r + r')) h^1.5 for every pair.
  void hertzModulus() {
    QTemporaryDir dir;
    const double young = 5e8, poisson = 0.3;
    const Exported e = exportTo("liggghts", hertzScene(""), dir.path().toStdString());
    QVERIFY2(e.error.empty(), e.error.c_str());
    const std::string deck = fileText(std::filesystem::path(dir.path().toStdString()) / "in.clumplab");
    std::smatch m;
    QVERIFY(std::regex_search(deck, m, std::regex("youngsModulus peratomtype ([0-9.eE+-]+) ([0-9.eE+-]+)")));
    const double deckYoung = std::stod(m[1].str());
    QCOMPARE(m[1].str(), m[2].str());  // walls are the same material
    for (const auto& [r1, r2] : {std::pair{1e-3, 1e-3}, std::pair{1e-3, 3e-3}, std::pair{2e-3, 1e30}}) {
      const double h = 1e-5;
      const double reduced = r1 * r2 / (r1 + r2);
      const double mutze = std::sqrt(3.0) / 2.0 * young / (1 - poisson * poisson) * std::sqrt(2.0 * reduced) *
                           std::pow(h, 1.5);
      const double liggghts =
          4.0 / 3.0 * deckYoung / (2.0 * (1 - poisson * poisson)) * std::sqrt(reduced) * std::pow(h, 1.5);
      CLUMPLAB_COMPARE_REL(liggghts, mutze, 1e-14);
    }
  }

  // The MercuryDPM folders read back as templates (scene "file": FOLDER) with the same mass,
  // principal moments and pebbles.
  void mercuryRoundTrip() {
    QTemporaryDir dir;
    const std::string folder = dir.path().toStdString();
    const std::string text = sceneText(kLinear, kFloor);
    const Exported e = exportTo("mercurydpm", text, folder);
    QVERIFY2(e.error.empty(), e.error.c_str());
    QVERIFY(anyContains(e.result.files, "ell/Inertia/TOI.txt"));
    QVERIFY(std::filesystem::exists(std::filesystem::path(folder) / "scene.txt"));
    const Scene original = parseScene(text, "scene.json");
    const std::string again = templateFileScene(folder);
    const Scene read = parseScene(again, folder + "/again.json");
    const ClumpTemplate& a = *original.model.templates[original.model.templates[0]->name == "ell" ? 0 : 1];
    const ClumpTemplate& b = *read.model.templates[0];
    CLUMPLAB_COMPARE_REL(b.mass, a.mass, 1e-15);
    for (int k = 0; k < 3; ++k) CLUMPLAB_COMPARE_REL(b.principalMoments[k], a.principalMoments[k], 1e-14);
    QCOMPARE(b.pebbles.size(), a.pebbles.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < a.pebbles.size(); ++i) {
      worst = std::max(worst, (b.pebbles[i].center - a.pebbles[i].center).norm());
      CLUMPLAB_COMPARE_REL(b.pebbles[i].radius, a.pebbles[i].radius, 1e-15);
    }
    CLUMPLAB_VERIFY_LESS(worst, 1e-17);
  }

  // A mesh wall in the LIGGGHTS deck: its STL at the pose of time 0 (scale, position, orientation
  // applied), mesh/surface with the walls' type, the wall/gran mesh fix with the deck's model, and
  // its motion as move/mesh (linear before rotate, so the axis travels with the wall).
  void meshWallsLiggghts() {
    QTemporaryDir dir;
    const std::filesystem::path folder(dir.path().toStdString());
    Exported e = exportTo("liggghts", sceneText(kLinear, meshWall("")), (folder / "static").string());
    QVERIFY2(e.error.empty(), e.error.c_str());
    const std::string deck = fileText(folder / "static" / "in.clumplab");
    QVERIFY(deck.find("fix mesh0 all mesh/surface file meshes/wall0.stl type 2") != std::string::npos);
    QVERIFY(deck.find("fix meshwalls all wall/gran model hooke/stiffness tangential history mesh n_meshes 1 "
                      "meshes mesh0 tangential_damping off") != std::string::npos);
    QVERIFY(deck.find("move/mesh") == std::string::npos);
    QVERIFY(anyContains(e.result.files, "meshes/wall0.stl"));
    // The square [-1, 1]^2 x 0.01, turned 90 degrees about x, 2 cm down: (+-0.01, 0, +-0.01 - 0.02).
    const std::string stl = fileText(folder / "static" / "meshes" / "wall0.stl");
    const std::regex vertex("vertex ([^ ]+) ([^ ]+) ([^ \n]+)");
    int vertices = 0;
    double worst = 0.0;
    for (auto it = std::sregex_iterator(stl.begin(), stl.end(), vertex); it != std::sregex_iterator(); ++it) {
      const Vec3 v(std::stod((*it)[1]), std::stod((*it)[2]), std::stod((*it)[3]));
      const Vec3 expected(v.x() > 0 ? 0.01 : -0.01, 0.0, (v.z() > -0.02 ? 0.01 : -0.01) - 0.02);
      worst = std::max(worst, (v - expected).norm());
      ++vertices;
    }
    QCOMPARE(vertices, 6);
    CLUMPLAB_VERIFY_LESS(worst, 1e-17);

    e = exportTo("liggghts", sceneText(kLinear, meshWall(kSlide)), (folder / "slide").string());
    QVERIFY2(e.error.empty(), e.error.c_str());
    std::string moving = fileText(folder / "slide" / "in.clumplab");
    QVERIFY(moving.find("fix move0_linear all move/mesh mesh mesh0 linear 0.2 0.1 0\n") != std::string::npos);
    QVERIFY(moving.find("rotate origin") == std::string::npos);

    e = exportTo("liggghts", sceneText(kLinear, meshWall(kTurnAndSlide)), (folder / "both").string());
    QVERIFY2(e.error.empty(), e.error.c_str());
    moving = fileText(folder / "both" / "in.clumplab");
    std::smatch m;
    QVERIFY(std::regex_search(
        moving, m,
        std::regex("move/mesh mesh mesh0 rotate origin 0.001 0.002 0 axis 0 0 1 period ([^ \n]+)")));
    CLUMPLAB_COMPARE_REL(std::stod(m[1].str()), 2.0 * M_PI / 3.0, 1e-15);
    const std::size_t linear = moving.find("linear 0.2 0 0"), rotate = moving.find("rotate origin");
    QVERIFY(linear != std::string::npos && linear < rotate);
    QVERIFY(moving.find("dump meshes all mesh/stl 10 post/meshes_*.stl") != std::string::npos);
    // The domain holds the mesh wherever it turns and slides over the run (100 steps of 1e-5 s).
    QVERIFY(std::regex_search(
        moving, m, std::regex("region domain block ([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+) ")));
    const double reach = Vec3(0.011, 0.002, 0.03).norm();  // farthest corner from the axis point
    CLUMPLAB_VERIFY_LESS(std::stod(m[1].str()), 0.001 - reach);
    CLUMPLAB_VERIFY_LESS(0.001 + 0.2 * 1e-3 + reach, std::stod(m[2].str()));
    CLUMPLAB_VERIFY_LESS(std::stod(m[3].str()), 0.002 - reach);
    CLUMPLAB_VERIFY_LESS(0.002 + reach, std::stod(m[4].str()));
  }

  // Mesh walls in Yade: facets of the walls' material, a turn with a slide along its axis as a
  // CombinedKinematicEngine, and the facets' double contacts on shared edges as a warning.
  void meshWallsYade() {
    QTemporaryDir dir;
    const std::filesystem::path folder(dir.path().toStdString());
    const Exported e = exportTo("yade", sceneText(kLinear, meshWall(kTurnAlongAxis)), folder.string());
    QVERIFY2(e.error.empty(), e.error.c_str());
    const std::string script = fileText(folder / "clumplab_yade.py");
    QVERIFY(script.find("MESHES = [\n  (0, [") != std::string::npos);
    QVERIFY(script.find("], (0, 0, 0.2), (0, 0, 3), (0.001, 0.002, 0)),") != std::string::npos);
    QVERIFY(script.find("utils.facet(") != std::string::npos);
    QVERIFY(script.find("CombinedKinematicEngine(ids=ids, comb=movers)") != std::string::npos);
    std::size_t triangles = 0;
    for (std::size_t at = script.find("    (("); at != std::string::npos; at = script.find("    ((", at + 1))
      ++triangles;
    QCOMPARE(triangles, std::size_t(2));
    QVERIFY(anyContains(e.result.warnings, "walls[0]: Yade's facets each push"));
  }

  // An inlet in the LIGGGHTS deck: its region, the templates' shares by count, the count ClumpLab
  // reaches, the rate, the batch interval and ClumpLab's first-body time.
  void inletsLiggghts() {
    QTemporaryDir dir;
    const std::filesystem::path folder(dir.path().toStdString());
    const std::string text = sceneText(kLinear, kFloor, inletKey(kZCylinder));
    const Exported e = exportTo("liggghts", text, folder.string());
    QVERIFY2(e.error.empty(), e.error.c_str());
    const std::string deck = fileText(folder / "in.clumplab");
    std::smatch m;
    QVERIFY(std::regex_search(
        deck, m, std::regex("region inlet0 cylinder z 0.001 0.002 0.01 ([^ ]+) ([^ ]+) units box")));
    CLUMPLAB_COMPARE_REL(std::stod(m[1].str()), 0.02, 1e-15);
    CLUMPLAB_COMPARE_REL(std::stod(m[2].str()), 0.04, 1e-15);
    QVERIFY(std::regex_search(deck, std::regex("particledistribution/discrete/numberbased [0-9]+ 2 tpl[12] "
                                               "0.75 tpl[12] 0.25")));
    const Scene scene = parseWithMeshes(text);
    double ell = 0.0, dot = 0.0;
    for (const TemplatePtr& t : scene.model.templates) (t->name == "ell" ? ell : dot) = t->mass;
    const double mean = 0.75 * ell + 0.25 * dot;
    const long long count = static_cast<long long>(std::floor(0.005 / mean));
    const long long every = std::llround(mean / (0.01 * 1e-5));
    QVERIFY2(
        deck.find("nparticles " + std::to_string(count) + " massrate 0.01 insert_every " +
                  std::to_string(every) + " start " + std::to_string(every) +
                  " overlapcheck yes all_in yes maxattempt 100 vel constant 0 0 -0.1 orientation random") !=
            std::string::npos,
        deck.c_str());
    QVERIFY(anyContains(e.result.warnings, "inlets[0].max_mass: the templates' masses differ"));
    QVERIFY(anyContains(e.result.warnings, "inlets[0]: LIGGGHTS inserts at its own random points"));
    QVERIFY(deck.find("# APPROXIMATION inlets[0]: LIGGGHTS inserts") != std::string::npos);
    // A box region is a block.
    const Exported box =
        exportTo("liggghts", sceneText(kLinear, kFloor, inletKey(kBoxRegion)), (folder / "box").string());
    QVERIFY2(box.error.empty(), box.error.c_str());
    QVERIFY(fileText(folder / "box" / "in.clumplab")
                .find("region inlet0 block -0.01 0.01 -0.01 0.01 0.02 0.03") != std::string::npos);
  }

  // Periodic axes: boundary p there, and exactly the periodic box as the domain on those axes.
  void periodicLiggghts() {
    QTemporaryDir dir;
    const std::filesystem::path folder(dir.path().toStdString());
    const Exported e = exportTo("liggghts", sceneText(kLinear, "[]", periodicKey("xz")), folder.string());
    QVERIFY2(e.error.empty(), e.error.c_str());
    const std::string deck = fileText(folder / "in.clumplab");
    QVERIFY(deck.find("\nboundary p m p\n") != std::string::npos);
    std::smatch m;
    QVERIFY(std::regex_search(
        deck, m, std::regex("region domain block ([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+) ")));
    QCOMPARE(m[1].str(), std::string("-0.05"));
    QCOMPARE(m[2].str(), std::string("0.05"));
    QCOMPARE(m[5].str(), std::string("-0.03"));
    QCOMPARE(m[6].str(), std::string("0.03"));
    // y is shrink-wrapped about the bodies (at y = 0, pebbles up to 4 mm out).
    CLUMPLAB_VERIFY_LESS(std::stod(m[3].str()), -0.004);
    CLUMPLAB_VERIFY_LESS(0.004, std::stod(m[4].str()));
  }

  // MercuryDPM's scene.txt describes mesh walls (the STL beside it), inlets and blocked bodies.
  void mercuryMeshAndInlet() {
    QTemporaryDir dir;
    const std::filesystem::path folder(dir.path().toStdString());
    Exported e =
        exportTo("mercurydpm", sceneText(kLinear, meshWall(kTurn), inletKey(kBoxRegion)), folder.string());
    QVERIFY2(e.error.empty(), e.error.c_str());
    QVERIFY(std::filesystem::exists(folder / "meshes" / "wall0.stl"));
    std::string text = fileText(folder / "scene.txt");
    QVERIFY(text.find("wall 0 mesh file meshes/wall0.stl triangles 2 pose0 0 0 -0.02 ") != std::string::npos);
    QVERIFY(text.find(" motion velocity linear 0 0 0 angular 0 0 3 center 0.001 0.002 0\n") !=
            std::string::npos);
    QVERIFY(
        std::regex_search(text, std::regex("inlet 0 box min -0.01 -0.01 0.02 max 0.01 0.01 0.03 templates 2 "
                                           "(ell 3 dot 1|dot 1 ell 3) mass_rate 0.01 max_mass 0.005 "
                                           "max_count none velocity 0 0 -0.1 velocity_spread 0 seed 2")));
    e = exportTo("mercurydpm", sceneText(kLinear, meshWall(kKeyframes)), (folder / "keys").string());
    QVERIFY2(e.error.empty(), e.error.c_str());
    text = fileText(folder / "keys" / "scene.txt");
    QVERIFY(text.find(
                "motion interpolated keys 2\nwall 0 key 0 0 0 0 1 0 0 0\nwall 0 key 1 0 0 0.01 1 0 0 0\n") !=
            std::string::npos);
    // Blocked degrees of freedom, which the engine exports refuse, are described.
    e = exportTo("mercurydpm", blockedScene(), (folder / "blocked").string());
    QVERIFY2(e.error.empty(), e.error.c_str());
    QVERIFY(fileText(folder / "blocked" / "scene.txt").find("\nblocked 0 xyz\n") != std::string::npos);
  }

  // Planes cut to the drawing domain: a box's six planes give exactly its faces; an oblique plane
  // through the centre of a cube is a regular hexagon in the plane.
  void wallPictures() {
    const std::vector<Wall> box = Wall::box(Vec3(0, 0, 0), Vec3(0.1, 0.2, 0.3));
    const Box3 domain = wallDrawingDomain({Vec3(0.05, 0.1, 0.15), Vec3(0.09, 0.19, 0.29)}, 0.05, box);
    QVERIFY2(domain.min().isZero(1e-15) && (domain.max() - Vec3(0.1, 0.2, 0.3)).norm() < 1e-15,
             "the domain of a box wall is the box");
    double area = 0.0;
    for (const VtkSurface& s : wallSurfaces(box, domain)) {
      QCOMPARE(s.points.size(), std::size_t(4));
      area += ((s.points[1] - s.points[0]).cross(s.points[2] - s.points[0])).norm();
    }
    CLUMPLAB_COMPARE_REL(area, 2 * (0.1 * 0.2 + 0.2 * 0.3 + 0.1 * 0.3), 1e-12);
    const Vec3 n = Vec3(1, 1, 1).normalized();
    const auto hexagon = planeInBox(Vec3(0.5, 0.5, 0.5), n, Box3(Vec3::Zero(), Vec3::Ones()));
    QCOMPARE(hexagon.size(), std::size_t(6));
    for (std::size_t i = 0; i < 6; ++i) {
      CLUMPLAB_VERIFY_LESS(std::abs((hexagon[i] - Vec3(0.5, 0.5, 0.5)).dot(n)), 1e-15);
      CLUMPLAB_COMPARE_REL((hexagon[(i + 1) % 6] - hexagon[i]).norm(), std::sqrt(0.5), 1e-12);
    }
  }

  // The .pvd lists three parts per output step with their times; the files exist.
  void vtkSeriesIndex() {
    QTemporaryDir dir;
    const Scene scene = parseScene(sceneText(kLinear, kFloor), "scene.json");
    auto world = buildWorld(scene);
    VtkSeriesWriter writer(dir.path().toStdString() + "/out");
    writer.write(*world);
    for (int i = 0; i < 10; ++i) QVERIFY(world->step());
    writer.write(*world);
    QCOMPARE(writer.stepsWritten(), std::size_t(2));
    for (const std::string& f : writer.files())
      QVERIFY2(std::filesystem::exists(writer.folder() + "/" + f), f.c_str());
    const std::string pvd = fileText(writer.folder() + "/clumplab.pvd");
    const auto count = [&](const std::string& s) {
      std::size_t n = 0;
      for (std::size_t at = pvd.find(s); at != std::string::npos; at = pvd.find(s, at + 1)) ++n;
      return n;
    };
    QCOMPARE(count("<DataSet "), std::size_t(6));
    QCOMPARE(count("timestep=\"0.0001\""), std::size_t(3));
    // An added surface source (mesh walls) lands in the walls file.
    writer.addSurfaceSource([](const World&) {
      return std::vector<VtkSurface>{
          {"mesh", -1, {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, {{0, 1, 2}}}};
    });
    writer.write(*world);
    const std::string walls = fileText(writer.folder() + "/walls_000002.vtp");
    QVERIFY(walls.find("NumberOfPolys=\"2\"") != std::string::npos);
  }
};

QTEST_GUILESS_MAIN(TestSceneExport)
#include "tst_scene_export.moc"
