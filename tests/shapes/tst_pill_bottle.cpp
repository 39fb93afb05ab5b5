// The pill-bottle example scene (after Woo's bottle), run as clumplab-cli runs it
// (the STL read by the shapes library's wall reader): an inlet fills the bottle with capsules, the
// bottle is lifted and tipped over along its keyframes, and the capsules pour out onto the floor.
// Claims: the inlet is done with its count (150 capsules, their mass within one capsule of the
// count's) before the bottle moves, and until then every pebble is inside the bottle's cavity; no
// pebble centre ever comes near the glass (the 2 mm wall's inside is within 1 mm of its surface)
// or below the floor; after the pour nearly every capsule lies outside the bottle on the floor; and
// total + dissipated - wall work - inserted energy holds to the integrator's error.
// Sized for the build (BuildSize.hpp): the scene's 150 capsules in an optimised build; 15 under the
// sanitizers (the inlet is then done at ~0.1 s, and the same bottle motion pours them out), where
// the 150 took 5 minutes and more (15: 48 s under ASan, 30: 65 s: the 1e5 steps cost the rest).
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>

#include "BuildSize.hpp"
#include "TestPaths.hpp"
#include "TestSupport.hpp"
#include "core/scene/Scene.hpp"
#include "core/walls/MeshWall.hpp"
#include "shapes/SceneLoading.hpp"
#include "shapes/WallMeshReader.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

// The bottle as resources/meshes/make_pill_bottle.py writes it (frame: origin at the centre of the
// outer bottom, axis z) [m].
constexpr double kWall = 0.002;           // glass thickness
constexpr double kInnerRadius = 0.030;    // inside of the body
constexpr double kHeight = 0.100;         // outer bottom to the lip
constexpr double kInnerBodyTop = 0.0791;  // inside of the body, up to the inner shoulder's foot (79.17 mm)
// How far from a pebble centre the glass is looked for [m]: the claim is about centres nearer than a
// pebble radius (3.2 mm); a search over the whole bottle per pebble and sample took half the test's time.
constexpr double kGlassSearch = 0.010;

Scene loadWithMeshes(const std::string& path) {
  return loadScene(path, shapes::sceneLoadOptions());
}

// A point in the bottle's frame where its motion has it at time t.
Vec3 inBottleFrame(const Wall& bottle, const Vec3& x, double t) {
  const WallPose pose = bottle.mesh->poseAt(t);
  return pose.orientation.conjugate() * (x - pose.position);
}

}  // namespace

class PillBottleTest : public QObject {
  Q_OBJECT
 private slots:
  // The committed bottle is what make_pill_bottle.py writes: 48 sectors of a 16-point profile (two
  // fans and 14 bands: 1344 triangles, 674 vertices), closed (every edge on two triangles), 64 mm
  // wide and 100 mm high.
  void committedBottle() {
    const TriangleMesh soup = shapes::wallMeshReader()(std::string(CLUMPLAB_MESHES_DIR) + "/pill-bottle.stl");
    QCOMPARE(soup.size(), std::size_t(1344));
    const MeshWallShape shape(soup);
    QCOMPARE(shape.mesh().vertices.size(), std::size_t(674));
    for (std::size_t e = 0; e < shape.edgeCount(); ++e)
      QCOMPARE(shape.edgeTriangles(e).size(), std::size_t(2));
    CLUMPLAB_COMPARE_REL(shape.upper().x(), 0.032, 1e-7);  // float coordinates
    CLUMPLAB_COMPARE_REL(shape.lower().y(), -0.032, 1e-7);
    CLUMPLAB_COMPARE_REL(shape.upper().z(), kHeight, 1e-7);
    QVERIFY(std::abs(shape.lower().z()) < 1e-12);
  }

  void capsulesPourOut() {
    Scene scene = loadWithMeshes(std::string(CLUMPLAB_SCENES_DIR) + "/pill-bottle.json");
    QCOMPARE(scene.inlets.size(), std::size_t(1));
    QCOMPARE(scene.inlets[0].settings().maxCount, std::uint64_t(150));
    InletSettings sized = scene.inlets[0].settings();
    sized.maxCount = sizedForBuild<std::uint64_t>(150, 15);
    scene.inlets[0] = Inlet(sized);
    auto world = buildWorld(scene);
    QCOMPARE(world->bodies().size(), std::size_t(0));
    QCOMPARE(world->state().inlets.size(), std::size_t(1));
    const auto bottleIt = std::find_if(world->model().walls.begin(), world->model().walls.end(),
                                       [](const Wall& w) { return w.kind == Wall::Kind::Mesh; });
    QVERIFY(bottleIt != world->model().walls.end());
    const Wall& bottle = *bottleIt;
    QCOMPARE(bottle.mesh->motion.kind, WallMotion::Kind::Interpolated);
    const double moveAt = bottle.mesh->motion.times.front();  // the bottle rests until its first key
    const InletSettings& inlet = world->state().inlets[0].settings();
    const std::uint64_t count = inlet.maxCount;
    const double dt = scene.model.settings.timeStep;
    const auto steps = static_cast<long>(std::lround(scene.duration / dt));
    const auto stepsBeforeMove = static_cast<long>(std::lround(moveAt / dt));

    const double b0 = world->energy().balance();
    double worstBalance = 0.0, nearestGlass = std::numeric_limits<double>::infinity();
    double lowest = std::numeric_limits<double>::infinity(), widestBeforeMove = 0.0;
    double lowestBeforeMove = std::numeric_limits<double>::infinity(), highestBeforeMove = 0.0;
    double pebbleRadius = 0.0;
    for (long k = 1; k <= steps; ++k) {
      QVERIFY2(world->step(), world->state().divergence.message.c_str());
      if (k % 100 != 0 && k != stepsBeforeMove) continue;
      const double t = world->time();
      const BodyState& s = world->bodies();
      for (std::size_t b = 0; b < s.size(); ++b) {
        for (const Pebble& p : world->model().templates[s.templateIndex[b]]->pebbles) {
          pebbleRadius = std::max(pebbleRadius, p.radius);
          const Vec3 x = s.position[b] + s.orientation[b] * p.center;
          nearestGlass = std::min(nearestGlass, bottle.clearance(x, t, kGlassSearch));
          lowest = std::min(lowest, x.z());
          if (k > stepsBeforeMove) continue;
          const Vec3 local = inBottleFrame(bottle, x, t);
          widestBeforeMove = std::max(widestBeforeMove, std::hypot(local.x(), local.y()));
          lowestBeforeMove = std::min(lowestBeforeMove, local.z());
          highestBeforeMove = std::max(highestBeforeMove, local.z());
        }
      }
      const EnergyReport e = world->energy();
      worstBalance = std::max(worstBalance, std::abs(e.balance() - b0));
      if (k == stepsBeforeMove) {
        // Filled before the bottle moves: the inlet is done with its count, their mass within one
        // capsule of count x the capsule's mass (one template, so exactly that).
        const InletProgress& progress = world->state().inlets[0].progress();
        qInfo("t = %.3g s: inlet %s at t = %.4g s with %llu capsules, %.4g g", t,
              inletStateName(progress.state), progress.finishedAt,
              static_cast<unsigned long long>(progress.insertedCount), progress.insertedMass * 1e3);
        QCOMPARE(progress.state, InletState::Done);
        QVERIFY(progress.finishedAt < moveAt);
        QCOMPARE(progress.insertedCount, count);
        QCOMPARE(s.size(), std::size_t(count));
        const double capsuleMass = world->model().templates[0]->mass;
        QVERIFY(std::abs(progress.insertedMass - static_cast<double>(count) * capsuleMass) < capsuleMass);
      }
    }

    // After the pour: capsules outside the bottle (their centres out of its body cylinder, in its
    // frame where it ended) and down on the floor, below the mouth (its centre ends 76 mm up).
    const double t = world->time();
    const BodyState& s = world->bodies();
    std::size_t outside = 0, onFloor = 0;
    double fastest = 0.0;
    for (std::size_t b = 0; b < s.size(); ++b) {
      const Vec3 local = inBottleFrame(bottle, s.position[b], t);
      const bool inBottle =
          std::hypot(local.x(), local.y()) < kInnerRadius + kWall && local.z() > 0.0 && local.z() < kHeight;
      outside += !inBottle;
      onFloor += !inBottle && s.position[b].z() < 0.03;
      fastest = std::max(fastest, s.velocity[b].norm());
    }
    const EnergyReport e = world->energy();
    qInfo(
        "pill bottle, %.3g s: before the move pebble centres within r < %.4g mm, %.4g < z < %.4g mm of the "
        "bottle "
        "(cavity r < 30, 2 < z < 79 mm); after: %zu of %zu capsules outside the bottle, %zu on the floor "
        "(z < 30 mm), fastest %.3g m/s; nearest pebble centre to the glass %.4g mm (pebble radius %.3g mm), "
        "lowest %.4g mm; inserted %.4g J, wall work %.4g J, dissipated %.4g J, largest |balance drift| %.3g "
        "J "
        "(%.2e of inserted + wall work)",
        t, widestBeforeMove * 1e3, lowestBeforeMove * 1e3, highestBeforeMove * 1e3, outside, s.size(),
        onFloor, fastest, nearestGlass * 1e3, pebbleRadius * 1e3, lowest * 1e3, e.inserted, e.wallWork,
        e.dissipated, worstBalance, worstBalance / (e.inserted + e.wallWork));
    // Before the move every pebble centre is in the cavity: inside the body's inner radius, above the
    // inner bottom and below the shoulder's foot.
    CLUMPLAB_VERIFY_LESS(widestBeforeMove, kInnerRadius);
    CLUMPLAB_VERIFY_LESS(kWall, lowestBeforeMove);
    CLUMPLAB_VERIFY_LESS(highestBeforeMove, kInnerBodyTop);
    // No escape through the glass: a centre inside the 2 mm wall would be within 1 mm of its
    // surface; the centres keep at least 0.8 r (overlaps below 20% of r; measured 3.11 mm of 3.2).
    CLUMPLAB_VERIFY_LESS(0.8 * pebbleRadius, nearestGlass);
    CLUMPLAB_VERIFY_LESS(0.8 * pebbleRadius, lowest);  // the floor likewise
    // The bottle ends tipped 160 degrees with its mouth's centre 76 mm above the floor: all 150 capsules
    // came out in the measured run (and all 15 of the reduced case); 95% (143 of 150) leaves room for
    // a few caught in the shoulder (none of 15).
    QVERIFY2(100 * onFloor >= 95 * count,
             qPrintable(QString("%1 of %2 capsules on the floor").arg(onFloor).arg(count)));
    // The pour is over: capsules fall from the mouth (76 mm) at about 1.2 m/s; at the end the
    // fastest, still rolling on the floor, is at 4.3 cm/s.
    CLUMPLAB_VERIFY_LESS(fastest, 0.1);
    // The balance drifts by the leapfrog's error in the impacts (dt = 5e-5 s): 8.0e-4 J of the
    // 0.127 J the inlet and the bottle brought in (6.4e-3) measured, 2.0e-4 J at dt/2 (second order).
    CLUMPLAB_VERIFY_LESS(worstBalance, 1e-2 * (e.inserted + e.wallWork));
    QVERIFY(e.wallWork > 0.0);
  }
};

QTEST_GUILESS_MAIN(PillBottleTest)
#include "tst_pill_bottle.moc"
