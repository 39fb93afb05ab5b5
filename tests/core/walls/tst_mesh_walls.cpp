// Mesh walls: a tessellated floor acts exactly as a plane wherever a pebble sits (faces,
// edges, vertices), folds give the contacts two planes or an edge would, nothing is counted twice,
// elastic bounces keep their energy, moving walls book their work so that total + dissipated -
// wall work is conserved, and springs survive sliding across triangles.
#include <QtTest>
#include <chrono>

#include "MeshWallSupport.hpp"
#include "TestSupport.hpp"
#include "core/collision/MeshWallContacts.hpp"
#include "core/world/Snapshot.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

constexpr double kRadius = 0.01;  // [m]
constexpr double kDensity = 1000.0;

TemplatePtr ball() {
  return templateFromPebbles({{Vec3::Zero(), kRadius}}, kDensity, "ball");
}

ContactModel frictionalLinear() {
  ContactModel c = linearContact(1e4, 0.5, 0.5);
  c.linear.tangentialDamping = 0.1;
  return c;
}

std::unique_ptr<World> worldWith(std::vector<Wall> walls, const ContactModel& contact, const Vec3& gravity,
                                 IntegratorKind kind = IntegratorKind::Leapfrog, double dt = 1e-5) {
  WorldSettings s = freeSpace(kind, dt);
  s.gravity = gravity;
  return std::make_unique<World>(s, contact, std::move(walls), std::vector<TemplatePtr>{ball()});
}

BodyInit bodyAt(const Vec3& x, const Vec3& v = Vec3::Zero(), const Vec3& w = Vec3::Zero()) {
  BodyInit b;
  b.position = x;
  b.velocity = v;
  b.angularVelocity = w;
  return b;
}

double relativeDifference(const Vec3& a, const Vec3& b) {
  return (a - b).norm() / std::max(b.norm(), 1e-300);
}

std::size_t meshContacts(const World& world) {
  std::size_t n = 0;
  const MeshWallContacts& c = world.state().meshContacts;
  for (std::size_t k = 0; k < c.chunkCount(); ++k) n += c.chunks()[k].wallContacts;
  return n;
}

double conserved(World& world) {
  const EnergyReport e = world.energy();
  return e.total() + e.dissipated - e.externalWork - e.wallWork;
}

}  // namespace

class MeshWallsTest : public QObject {
  Q_OBJECT
 private slots:
  // The view's contact overlay shows what the contact count counts, mesh-wall contacts included:
  // three balls pressed into a tessellated floor, two of them touching each other.
  void snapshotShowsMeshWallContacts() {
    auto world = worldWith({meshWall(gridFloor(5, 0.05))}, frictionalLinear(), Vec3(0, 0, -9.81));
    const double z = 0.8 * kRadius;
    world->addBody(bodyAt(Vec3(-0.02, 0.003, z)));
    world->addBody(bodyAt(Vec3(0.01, 0.0, z)));
    world->addBody(bodyAt(Vec3(0.01 + 1.9 * kRadius, 0.0, z)));
    world->refreshForces();
    Snapshot snapshot;
    captureSnapshot(*world, world->energy(), snapshot);
    QCOMPARE(world->contactCount(), std::size_t(4));
    QCOMPARE(snapshot.contactPoints.size(), std::size_t(4));
    int onFloor = 0, between = 0;
    for (const Vec3& p : snapshot.contactPoints) {
      // A floor contact sits in the middle of its overlap, z = -0.1 r; the pair's at the balls' height.
      if (std::abs(p.z() + 0.1 * kRadius) < 1e-12) ++onFloor;
      if (std::abs(p.z() - z) < 1e-12 && std::abs(p.x() - (0.01 + 0.95 * kRadius)) < 1e-12) ++between;
    }
    QCOMPARE(onFloor, 3);
    QCOMPARE(between, 1);
  }

  // A ball pressed into a tessellated floor at a face, on edges (axis-aligned and diagonal) and on
  // vertices (4 and 8 edges) gets one contact and the force and torque of the plane z = 0.
  void flatFloorActsAsThePlane() {
    const TriangleMesh floor = gridFloor(5, 0.05);
    const Vec3 v(0.3, -0.2, -0.1), w(1.0, 2.0, 3.0);
    std::vector<Vec3> where = {Vec3(0.0123, -0.0071, 0), Vec3(-0.01, 0.005, 0), Vec3(0.003, 0.01, 0)};
    for (std::size_t k : {7u, 8u, 14u, 15u, 21u}) where.push_back(floor.vertices[k]);  // vertices
    where.push_back(0.5 * (floor.vertices[7] + floor.vertices[8]));                    // grid edge
    where.push_back(0.5 * (floor.vertices[7] + floor.vertices[13]));                   // grid edge
    where.push_back(0.5 * (floor.vertices[7] + floor.vertices[14]));                   // diagonal
    where.push_back(0.25 * floor.vertices[8] + 0.75 * floor.vertices[15]);             // diagonal
    double worst = 0.0;
    for (const Vec3& xy : where) {
      const Vec3 x(xy.x(), xy.y(), 0.8 * kRadius);
      auto mesh = worldWith({meshWall(floor)}, frictionalLinear(), Vec3(0, 0, -9.81));
      auto plane =
          worldWith({Wall::plane(Vec3::Zero(), Vec3::UnitZ())}, frictionalLinear(), Vec3(0, 0, -9.81));
      mesh->addBody(bodyAt(x, v, w));
      plane->addBody(bodyAt(x, v, w));
      mesh->refreshForces();
      plane->refreshForces();
      QVERIFY2(meshContacts(*mesh) == 1,
               qPrintable(QString("%1 contacts at (%2, %3)").arg(meshContacts(*mesh)).arg(x.x()).arg(x.y())));
      const double df = relativeDifference(mesh->bodies().force[0], plane->bodies().force[0]);
      const double dt = relativeDifference(mesh->bodies().torque[0], plane->bodies().torque[0]);
      worst = std::max({worst, df, dt});
      QVERIFY2(df <= 1e-12 && dt <= 1e-12,
               qPrintable(QString("at (%1, %2): force differs by %3, torque by %4 relative (tolerance 1e-12)")
                              .arg(x.x(), 0, 'g', 17)
                              .arg(x.y(), 0, 'g', 17)
                              .arg(df)
                              .arg(dt)));
      // The elastic energy is the plane's too.
      CLUMPLAB_COMPARE_REL(mesh->energy().peElastic, plane->energy().peElastic, 1e-12);
    }
    qInfo("%zu positions: largest relative difference of force or torque from the plane %.3g", where.size(),
          worst);
  }

  // A spinning ball sliding with friction across many triangles, edges and vertices follows the plane
  // wall's trajectory: one contact every step, and the spring carried across features.
  void slidingAcrossTrianglesFollowsThePlane() {
    const TriangleMesh floor = gridFloor(8, 0.08);
    const Vec3 x0(-0.06, -0.045, kRadius - 9.81 * 4.19e-3 / 1e4), v0(1.5, 1.1, 0), w0(0, 0, 30);
    auto mesh = worldWith({meshWall(floor)}, frictionalLinear(), Vec3(0, 0, -9.81));
    auto plane = worldWith({Wall::plane(Vec3::Zero(), Vec3::UnitZ())}, frictionalLinear(), Vec3(0, 0, -9.81));
    mesh->addBody(bodyAt(x0, v0, w0));
    plane->addBody(bodyAt(x0, v0, w0));
    std::size_t steps = 0, oneContact = 0;
    for (; steps < 6000; ++steps) {
      QVERIFY(mesh->step());
      QVERIFY(plane->step());
      oneContact += meshContacts(*mesh) == plane->state().wallContacts;
    }
    const double travelled = (plane->bodies().position[0] - x0).norm();
    const double dx = (mesh->bodies().position[0] - plane->bodies().position[0]).norm();
    const double dv = (mesh->bodies().velocity[0] - plane->bodies().velocity[0]).norm();
    const double dw = (mesh->bodies().angularVelocity[0] - plane->bodies().angularVelocity[0]).norm();
    qInfo(
        "slid %.4g m over 8x8 cells in %zu steps: |dx| = %.3g m, |dv| = %.3g m/s, |dw| = %.3g rad/s; "
        "dissipated %.6g J (mesh) vs %.6g J (plane)",
        travelled, steps, dx, dv, dw, mesh->state().ledger.dissipated, plane->state().ledger.dissipated);
    QCOMPARE(oneContact, steps);
    QVERIFY(travelled > 0.05);
    CLUMPLAB_VERIFY_LESS(dx, 1e-12 * travelled);
    CLUMPLAB_VERIFY_LESS(dv, 1e-12 * v0.norm());
    CLUMPLAB_VERIFY_LESS(dw, 1e-12 * w0.norm());
    CLUMPLAB_COMPARE_REL(mesh->state().ledger.dissipated, plane->state().ledger.dissipated, 1e-10);
  }

  // In a 90-degree valley a ball touches both faces: two contacts, the forces of the two planes
  // (normals (+-1, 0, 1)/sqrt 2); the edge at the bottom adds nothing.
  void concaveFoldGivesBothFaces() {
    const TriangleMesh valley = fold(0.05, 0.05, 1.0);
    const Vec3 n1 = Vec3(1, 0, 1).normalized(), n2 = Vec3(-1, 0, 1).normalized();
    for (const double x : {0.0, 0.002, -0.003}) {
      const Vec3 c(x, 0.001, 0.9 * kRadius * std::sqrt(2.0));
      auto mesh = worldWith({meshWall(valley)}, linearContact(1e4, 0.5, 0.0), Vec3::Zero());
      auto planes = worldWith({Wall::plane(Vec3::Zero(), n1), Wall::plane(Vec3::Zero(), n2)},
                              linearContact(1e4, 0.5, 0.0), Vec3::Zero());
      mesh->addBody(bodyAt(c, Vec3(0.1, 0, -0.2)));
      planes->addBody(bodyAt(c, Vec3(0.1, 0, -0.2)));
      mesh->refreshForces();
      planes->refreshForces();
      QCOMPARE(meshContacts(*mesh), planes->state().wallContacts);
      const double df = relativeDifference(mesh->bodies().force[0], planes->bodies().force[0]);
      qInfo("valley, x = %g: %zu contacts, force (%.6g, %.6g, %.6g) N, %.3g relative from two planes", x,
            meshContacts(*mesh), mesh->bodies().force[0].x(), mesh->bodies().force[0].y(),
            mesh->bodies().force[0].z(), df);
      if (x == 0.0) QCOMPARE(meshContacts(*mesh), std::size_t(2));  // off-centre, only the near face reaches
      CLUMPLAB_VERIFY_LESS(df, 1e-12);
    }
  }

  // Above a convex ridge the edge region gives one contact whose normal points from the closest
  // point of the edge to the centre; the faces beside it add nothing.
  void convexRidgeGivesOneEdgeContact() {
    const TriangleMesh ridge = fold(0.05, 0.05, -1.0);
    for (const double x : {0.0, 0.004, -0.005}) {
      const Vec3 c(x, 0.002, 0.008);
      auto mesh = worldWith({meshWall(ridge)}, linearContact(1e4, 0.5, 0.0), Vec3::Zero());
      mesh->addBody(bodyAt(c));
      mesh->refreshForces();
      QCOMPARE(meshContacts(*mesh), std::size_t(1));
      const Vec3 edgePoint(0.0, c.y(), 0.0);
      const Vec3 normal = (c - edgePoint).normalized();
      const Vec3 expected = 1e4 * (kRadius - (c - edgePoint).norm()) * normal;
      const double df = relativeDifference(mesh->bodies().force[0], expected);
      qInfo("ridge, x = %g: normal (%.6f, %.6f, %.6f), force %.3g relative from k (r - d) n", x, normal.x(),
            normal.y(), normal.z(), df);
      CLUMPLAB_VERIFY_LESS(df, 1e-12);
    }
    // Over the apex of a pyramid: the vertex alone, along +z.
    auto apex = worldWith({meshWall(pyramid(0.05))}, linearContact(1e4, 0.5, 0.0), Vec3::Zero());
    apex->addBody(bodyAt(Vec3(0, 0, 0.007)));
    apex->refreshForces();
    QCOMPARE(meshContacts(*apex), std::size_t(1));
    const double df = relativeDifference(apex->bodies().force[0], Vec3(0, 0, 1e4 * (kRadius - 0.007)));
    CLUMPLAB_VERIFY_LESS(df, 1e-12);
  }

  // A ball dropped onto the pyramid's edge and off the floor's vertices with restitution 1 and no
  // friction keeps its energy (second order in dt: the contact's energy error while it lasts).
  void elasticBounceKeepsEnergy_data() { addIntegratorRows(); }
  void elasticBounceKeepsEnergy() {
    QFETCH(IntegratorKind, kind);
    auto world = worldWith({meshWall(pyramid(0.05)), meshWall(gridFloor(4, 0.2, -0.06))},
                           linearContact(1e4, 1.0, 0.0), Vec3(0, 0, -9.81), kind);
    world->addBody(bodyAt(Vec3(0.013, 0.002, 0.03)));
    const double e0 = conserved(*world);
    double worst = 0.0;
    int touches = 0;
    bool touching = false;
    for (int k = 0; k < 40000; ++k) {  // 0.4 s: the edge, then the floor
      QVERIFY(world->step());
      const bool now = world->state().wallContacts > 0;
      touches += now && !touching;
      touching = now;
      if (!now) worst = std::max(worst, std::abs(conserved(*world) - e0));
    }
    const double scale = world->bodies().mass[0] * 9.81 * 0.1;
    qInfo("%s: %d impacts, largest |E - E0| between contacts %.3g J of m g h = %.3g J (%.2e)",
          integratorName(kind).data(), touches, worst, scale, worst / scale);
    QVERIFY(touches >= 2);
    QVERIFY(world->bodies().position[0].x() > 0.02);  // the edge sent it sideways
    CLUMPLAB_VERIFY_LESS(worst, 1e-5 * scale);
  }

  // A tessellated wall moving at constant velocity pushes a ball along a floor with friction and
  // damping: the wall's work closes the energy balance, and the impulses the walls took close the
  // momentum balance with gravity.
  void movingWallWorkIsBooked_data() { addIntegratorRows(); }
  void movingWallWorkIsBooked() {
    QFETCH(IntegratorKind, kind);
    TriangleMesh pusher = gridFloor(3, 0.03);  // in the xy plane; turned to face +x below
    WallMotion motion;
    motion.kind = WallMotion::Kind::Velocity;
    motion.orientation = Quat(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitY()));
    motion.position = Vec3(-0.012, 0, 0.01);
    motion.linear = Vec3(0.05, 0.0, 0.0);
    motion.center = motion.position;
    auto world = worldWith({Wall::plane(Vec3::Zero(), Vec3::UnitZ()), meshWall(pusher, motion)},
                           frictionalLinear(), Vec3(0, 0, -9.81), kind);
    world->addBody(bodyAt(Vec3(0, 0.004, kRadius)));
    const Vec3 p0 = world->bodies().mass[0] * world->bodies().velocity[0];
    const double e0 = conserved(*world);
    double worst = 0.0;
    for (int k = 0; k < 30000; ++k) {
      QVERIFY(world->step());
      worst = std::max(worst, std::abs(conserved(*world) - e0));
    }
    const double m = world->bodies().mass[0];
    const Vec3 dp = m * world->bodies().velocity[0] - p0;
    const Vec3 gravityImpulse = m * Vec3(0, 0, -9.81) * world->time();
    const Vec3 impulses = world->state().wallImpulse[0] + world->state().wallImpulse[1];
    const double mismatch = (dp + impulses - gravityImpulse).norm();
    const double work = world->state().ledger.wallWork, dissipated = world->state().ledger.dissipated;
    qInfo(
        "%s: ball pushed to x = %.4g m; wall work %.6g J, dissipated %.6g J, largest |balance| %.3g J "
        "(%.2e of the work); |dP + sum J - m g t| = %.3g N s of |J_mesh| = %.3g",
        integratorName(kind).data(), world->bodies().position[0].x(), work, dissipated, worst, worst / work,
        mismatch, world->state().wallImpulse[1].norm());
    QVERIFY(world->bodies().position[0].x() > 0.01);  // pushed along
    QVERIFY(work > 0.0 && dissipated > 0.0);
    CLUMPLAB_VERIFY_LESS(worst, 1e-3 * work);
    CLUMPLAB_VERIFY_LESS(mismatch, 1e-10 * world->state().wallImpulse[1].norm());
  }

  // A drum turning about its axis drags a ball up its side by friction (the ball's rotations are
  // blocked, so it slides instead of rolling, up to where tan(angle) = friction): the turning wall's
  // work closes the balance.
  void rotatingDrumWorkIsBooked() {
    WallMotion motion;
    motion.kind = WallMotion::Kind::Velocity;
    motion.angular = Vec3(0, 3.0, 0);  // [rad/s]
    auto world = worldWith({meshWall(drum(0.05, 0.02, 48), motion)}, frictionalLinear(), Vec3(0, 0, -9.81));
    BodyInit b = bodyAt(Vec3(0, 0, -0.05 + kRadius));
    b.blocked = 0b111000;  // "XYZ"
    world->addBody(b);
    const double e0 = conserved(*world);
    double worst = 0.0, highest = -1.0;
    for (int k = 0; k < 50000; ++k) {
      QVERIFY(world->step());
      worst = std::max(worst, std::abs(conserved(*world) - e0));
      highest = std::max(highest, world->bodies().position[0].z());
    }
    const double work = std::abs(world->state().ledger.wallWork);
    qInfo(
        "drum: ball rose to z = %.4g m (bottom -0.04 m); wall work %.6g J, dissipated %.6g J, largest "
        "|balance| %.3g J (%.2e of the work)",
        highest, world->state().ledger.wallWork, world->state().ledger.dissipated, worst, worst / work);
    // Slipping sets in at atan(0.5) = 26.6 degrees from the bottom: z = -0.04 cos 26.6 = -0.0358 m.
    QVERIFY(highest > -0.037);
    CLUMPLAB_VERIFY_LESS(worst, 1e-3 * work);
  }

  // Woo's InterpolatedMotion: the keys exactly at their times, the linear and slerp midpoints
  // between them, rest before the first key and after the last, and the pose's velocities.
  void interpolatedMotionHitsItsKeys() {
    WallMotion m;
    m.kind = WallMotion::Kind::Interpolated;
    m.times = {0.5, 1.0, 2.0};
    m.positions = {Vec3(0, 0, 0), Vec3(0.1, 0.2, -0.3), Vec3(0.4, 0.2, 0.0)};
    m.orientations = {Quat::Identity(), Quat(Eigen::AngleAxisd(0.8, Vec3(1, 2, 3).normalized())),
                      Quat(Eigen::AngleAxisd(2.5, Vec3(0, 1, 0)))};
    for (std::size_t i = 0; i < m.times.size(); ++i) {
      const WallPose p = m.poseAt(m.times[i]);
      QVERIFY(p.position == m.positions[i]);
      CLUMPLAB_VERIFY_LESS(p.orientation.angularDistance(m.orientations[i]), 1e-14);
    }
    for (std::size_t i = 0; i + 1 < m.times.size(); ++i) {
      const double t = 0.5 * (m.times[i] + m.times[i + 1]);
      const WallPose p = m.poseAt(t);
      const Vec3 mid = 0.5 * (m.positions[i] + m.positions[i + 1]);
      const Quat slerp = m.orientations[i].slerp(0.5, m.orientations[i + 1]);
      const double dq = p.orientation.angularDistance(slerp);
      qInfo("midpoint %zu: |x - lerp| = %.3g m, angle to Eigen's slerp %.3g rad", i,
            (p.position - mid).norm(), dq);
      CLUMPLAB_VERIFY_LESS((p.position - mid).norm(), 1e-15);
      CLUMPLAB_VERIFY_LESS(dq, 1e-14);
      // Velocities: the key difference over the span, and the rotation vector over the span.
      CLUMPLAB_VERIFY_LESS(relativeDifference(p.linearVelocity, (m.positions[i + 1] - m.positions[i]) /
                                                                    (m.times[i + 1] - m.times[i])),
                           1e-14);
      const double h = 1e-6;
      const Quat ahead = m.poseAt(t + h).orientation, behind = m.poseAt(t - h).orientation;
      const Eigen::AngleAxisd turn(ahead * behind.conjugate());
      const Vec3 omega = turn.angle() / (2 * h) * turn.axis();
      CLUMPLAB_VERIFY_LESS(relativeDifference(p.angularVelocity, omega), 1e-6);
    }
    const WallPose before = m.poseAt(-3.0), after = m.poseAt(7.0);
    QVERIFY(before.position == m.positions.front() && before.linearVelocity == Vec3::Zero());
    QVERIFY(after.position == m.positions.back() && after.angularVelocity == Vec3::Zero());
    QVERIFY(after.orientation.coeffs() == m.orientations.back().coeffs());

    // A constant velocity: turned by w t about w through the moving centre, shifted by v t.
    WallMotion v;
    v.kind = WallMotion::Kind::Velocity;
    v.position = Vec3(1, 0, 0);
    v.center = Vec3(0, 0, 0);
    v.linear = Vec3(0, 0, 2);
    v.angular = Vec3(0, 0, std::numbers::pi);  // half a turn a second
    const WallPose p = v.poseAt(0.5);          // a quarter turn: (1, 0, 0) -> (0, 1, 0), up by 1
    CLUMPLAB_VERIFY_LESS((p.position - Vec3(0, 1, 1)).norm(), 1e-15);
    CLUMPLAB_VERIFY_LESS((p.surfaceVelocity(p.position) - Vec3(-std::numbers::pi, 0, 2)).norm(), 1e-14);
  }

  // A mesh wall moving with an interpolated path pushes a ball: the work closes there too, and the
  // ball feels the wall where the keys put it.
  void interpolatedWallPushes() {
    WallMotion m;
    m.kind = WallMotion::Kind::Interpolated;
    m.times = {0.0, 0.1, 0.3};
    m.positions = {Vec3(0, 0, -0.02), Vec3(0, 0, -0.02), Vec3(0, 0, 0.01)};
    const Quat tilt(Eigen::AngleAxisd(0.1, Vec3::UnitX()));
    m.orientations = {Quat::Identity(), Quat::Identity(), tilt};
    auto world = worldWith({meshWall(gridFloor(4, 0.1), m)}, frictionalLinear(), Vec3(0, 0, -9.81));
    world->addBody(bodyAt(Vec3(0.005, 0.0, -0.02 + kRadius)));
    const double e0 = conserved(*world);
    double worst = 0.0;
    for (int k = 0; k < 40000; ++k) {
      QVERIFY(world->step());
      worst = std::max(worst, std::abs(conserved(*world) - e0));
    }
    const double work = world->state().ledger.wallWork;
    qInfo(
        "lifted to z = %.5g m (the floor's final height under it about %.4g m); wall work %.6g J, largest "
        "|balance| %.3g J (%.2e)",
        world->bodies().position[0].z(), 0.01, work, worst, worst / work);
    QVERIFY(world->bodies().position[0].z() > 0.01);
    CLUMPLAB_VERIFY_LESS(worst, 1e-3 * work);
  }

  // The broad phase: on a floor of 20 000 triangles a pebble's query returns a handful of them (not
  // a share of the mesh), and a step with 1000 pebbles on it costs about what it costs on 32.
  void largeMeshBroadPhase() {
    const MeshWallShape big(gridFloor(100, 0.5)), small(gridFloor(4, 0.5));
    QCOMPARE(big.mesh().size(), std::size_t(20000));
    std::vector<std::uint32_t> near;
    std::size_t most = 0;
    for (int k = 0; k < 1000; ++k) {
      const Vec3 c(-0.49 + 0.98 * radicalInverse(k, 2), -0.49 + 0.98 * radicalInverse(k, 3), 0.004);
      big.nearTriangles(c, 0.005, near);
      most = std::max(most, near.size());
    }
    qInfo("largest candidate set of 1000 queries (r = 5 mm, cells of 10 mm): %zu of 20000 triangles", most);
    CLUMPLAB_VERIFY_LESS(static_cast<double>(most), 25.0);
    const auto seconds = [&](const MeshWallShape& shape) {
      auto wall = std::make_shared<MeshWall>();
      wall->shape = std::make_shared<const MeshWallShape>(shape.mesh());
      auto world = worldWith({Wall::meshWall(wall)}, frictionalLinear(), Vec3(0, 0, -9.81));
      for (int i = 0; i < 1000; ++i) {
        world->addBody(bodyAt(Vec3(-0.48 + 0.03 * (i % 32), -0.48 + 0.03 * (i / 32), 0.0099)));
      }
      const auto t0 = std::chrono::steady_clock::now();
      for (int k = 0; k < 200; ++k) test::mustStep(*world);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    const double tBig = seconds(big), tSmall = seconds(small);
    qInfo("200 steps of 1000 pebbles resting on the floor: %.3g s on 20000 triangles, %.3g s on 32", tBig,
          tSmall);
  }

  // The per-pebble lists (MeshWallShape::near, nearFrom) give touch's candidates and contacts to the
  // bit while the sphere stays within the list's reach: on a closed cylinder of fans and bands (a
  // bottle: 64 triangles at each fan's centre vertex), spheres inside it, in its walls and outside,
  // moved by up to all of the skin; and a list is refused (it would miss triangles) beyond it.
  void nearListsGiveWhatTheHierarchyGives() {
    TriangleMesh m;
    const int segments = 64, bands = 12;
    const double radius = 0.03, height = 0.1;
    const auto ring = [&](int band, int s) {
      return static_cast<std::uint32_t>(2 + band * segments + s % segments);
    };
    m.vertices = {Vec3(0, 0, 0), Vec3(0, 0, height)};
    for (int band = 0; band <= bands; ++band) {
      for (int s = 0; s < segments; ++s) {
        const double a = 2.0 * std::numbers::pi * s / segments;
        m.vertices.emplace_back(radius * std::cos(a), radius * std::sin(a), height * band / bands);
      }
    }
    for (int s = 0; s < segments; ++s) {
      m.triangles.push_back({0, ring(0, s + 1), ring(0, s)});
      m.triangles.push_back({1, ring(bands, s), ring(bands, s + 1)});
      for (int band = 0; band < bands; ++band) {
        m.triangles.push_back({ring(band, s), ring(band, s + 1), ring(band + 1, s + 1)});
        m.triangles.push_back({ring(band, s), ring(band + 1, s + 1), ring(band + 1, s)});
      }
    }
    const MeshWallShape shape(m);
    std::vector<MeshWallShape::NearTriangle> list;
    std::vector<std::uint32_t> direct, fromList;
    std::vector<MeshTouch> touchesDirect, touchesFromList;
    std::size_t compared = 0, touching = 0, mostTouches = 0;
    for (int k = 0; k < 4000; ++k) {
      const double r = 0.002 + 0.004 * radicalInverse(k, 5);
      const Vec3 c0(-0.036 + 0.072 * radicalInverse(k, 2), -0.036 + 0.072 * radicalInverse(k, 3),
                    -0.006 + 0.112 * radicalInverse(k, 7));
      const double reach = MeshWallShape::nearReach(r);
      shape.near(c0, reach, list);
      // Moved within the skin (the last of each ten by all of it, to the margin), along a direction.
      const Vec3 direction =
          Vec3(radicalInverse(k, 11) - 0.5, radicalInverse(k, 13) - 0.5, radicalInverse(k, 17) - 0.5)
              .normalized();
      const double moved =
          (k % 10 == 9 ? 1.0 : radicalInverse(k, 19)) * (MeshWallShape::kNearReachUsable * reach - r);
      const Vec3 c = c0 + moved * direction;
      shape.nearTriangles(c, r, direct);
      std::erase_if(direct, [&](std::uint32_t t) {
        return std::abs(shape.triangleNormal(t).dot(c - shape.mesh().corner(t, 0))) >= r;
      });
      shape.nearFrom(list, c, r, fromList);
      QCOMPARE(fromList, direct);
      shape.touch(c, r, touchesDirect, direct);
      shape.touchCandidates(c, r, touchesFromList, fromList);
      QCOMPARE(touchesFromList.size(), touchesDirect.size());
      for (std::size_t i = 0; i < touchesDirect.size(); ++i) {
        QCOMPARE(touchesFromList[i].feature.key(), touchesDirect[i].feature.key());
        QCOMPARE(touchesFromList[i].normal, touchesDirect[i].normal);
        QCOMPARE(touchesFromList[i].distance, touchesDirect[i].distance);
      }
      ++compared;
      touching += !touchesDirect.empty();
      mostTouches = std::max(mostTouches, touchesDirect.size());
    }
    qInfo("%zu spheres: %zu touch the cylinder, up to %zu features at once", compared, touching, mostTouches);
    QVERIFY(touching > 400);
    QVERIFY(mostTouches >= 2);  // the inside's concave folds (bottom and side)
    // Beyond the reach a list misses what the hierarchy finds: a sphere on the bottom, its list made
    // 2 r above it.
    const double r = 0.004;
    shape.near(Vec3(0.01, 0.0, r + 2.0 * r), MeshWallShape::nearReach(r), list);
    shape.nearFrom(list, Vec3(0.01, 0.0, 0.5 * r), r, fromList);
    shape.nearTriangles(Vec3(0.01, 0.0, 0.5 * r), r, direct);
    QVERIFY(fromList.empty() && !direct.empty());
  }

  // Spherocylinders and cim are refused with mesh walls, naming the wall and what to do.
  void unsupportedCombinationsAreRefused() {
    WorldSettings s = freeSpace(IntegratorKind::Cim, 1e-5);
    try {
      World w(s, frictionlessHertz(), {meshWall(gridFloor(2, 0.1))}, {ball()});
      QFAIL("cim with a mesh wall was accepted");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("wall 0 (a mesh)") && QString(e.what()).contains("leapfrog"),
               e.what());
    }
    ClumpTemplate capsule = *ball();
    capsule.pebbles[0].halfLength = 0.01;
    capsule.pebbles[0].axis = Vec3::UnitZ();
    World w(freeSpace(IntegratorKind::Leapfrog, 1e-5), frictionlessHertz(), {meshWall(gridFloor(2, 0.1))},
            {ball()});
    try {
      w.addTemplate(std::make_shared<const ClumpTemplate>(capsule));
      QFAIL("a spherocylinder was accepted with a mesh wall");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("spherocylinder"), e.what());
    }
    QCOMPARE(w.model().templates.size(), std::size_t(1));
  }

  // A checkpoint restores the springs of the mesh contacts: the same steps give the same bits.
  void checkpointRestoresMeshHistory() {
    auto world = worldWith({meshWall(gridFloor(6, 0.06))}, frictionalLinear(), Vec3(0, 0, -9.81));
    world->addBody(bodyAt(Vec3(-0.03, -0.02, 0.0099), Vec3(0.8, 0.5, 0), Vec3(0, 0, 20)));
    for (int k = 0; k < 500; ++k) QVERIFY(world->step());
    const WorldCheckpoint c = world->checkpoint();
    for (int k = 0; k < 800; ++k) QVERIFY(world->step());
    const std::uint64_t first = stateHash(*world);
    world->restore(c);
    for (int k = 0; k < 800; ++k) QVERIFY(world->step());
    QCOMPARE(stateHash(*world), first);
  }
};

QTEST_GUILESS_MAIN(MeshWallsTest)
#include "tst_mesh_walls.moc"
