// The stages of a step (core/step) on their own, against what each computes in closed form: the
// body forces (weight, global damping, a load off the centre, Cundall's local damping), the 2D plane's and
// the blocked degrees of freedom's shares, and the work booking's shares of a step for the leapfrog's f = 1
// and the midpoint's f = 1/2 (Mutze, Polyspherical grains, §8: total + dissipated is conserved).
#include <QtTest>

#include "core/base/ThreadPool.hpp"
#include "core/clump/BodyState.hpp"
#include "core/collision/MeshWallContacts.hpp"
#include "core/energy/EnergyLedger.hpp"
#include "core/forces/ExternalLoad.hpp"
#include "core/integrate/BlockedDofs.hpp"
#include "core/model/WorldModel.hpp"
#include "core/step/BodyForces.hpp"
#include "core/step/WorkBooking.hpp"

using namespace clumplab;

namespace {

// Two bodies: masses 2 and 3 kg, principal frames turned (so that I omega is not diagonal in the
// world frame), moving and spinning.
BodyState twoBodies() {
  BodyState s;
  const auto add = [&](double m, const Vec3& moments, const Vec3& x, const Quat& q, const Vec3& v,
                       const Vec3& w) {
    s.templateIndex.push_back(0);
    s.mass.push_back(m);
    s.moments.push_back(moments);
    s.position.push_back(x);
    s.orientation.push_back(q);
    s.velocity.push_back(v);
    s.angularVelocity.push_back(w);
    s.force.push_back(Vec3::Zero());
    s.torque.push_back(Vec3::Zero());
    s.point.emplace_back();
    s.blocked.push_back(0);
  };
  add(2.0, {0.1, 0.2, 0.3}, {0.0, 0.0, 1.0}, Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized())),
      {1.0, -2.0, 0.5}, {3.0, 1.0, -2.0});
  add(3.0, {0.4, 0.5, 0.6}, {1.0, 2.0, 0.0}, Quat::Identity(), {-0.5, 0.0, 2.0}, {0.0, -1.0, 4.0});
  return s;
}

// I omega in the world frame, from the principal moments: R diag(I) R^T omega.
Vec3 spinMomentum(const BodyState& s, std::size_t b) {
  const Mat3 r = s.orientation[b].toRotationMatrix();
  return r * s.moments[b].asDiagonal() * r.transpose() * s.angularVelocity[b];
}

void compareVectors(const Vec3& actual, const Vec3& expected, double tolerance = 1e-13) {
  QVERIFY2((actual - expected).norm() <= tolerance * std::max(1.0, expected.norm()),
           qPrintable(QStringLiteral("(%1 %2 %3) against (%4 %5 %6)")
                          .arg(actual.x())
                          .arg(actual.y())
                          .arg(actual.z())
                          .arg(expected.x())
                          .arg(expected.y())
                          .arg(expected.z())));
}

}  // namespace

class StepStagesTest : public QObject {
  Q_OBJECT

 private slots:
  // F = m g - gamma m v (+ the load on its body), T = -gamma_rot I omega (+ (p - x) x F_load); the
  // damping's parts are the dissipative ones, the load's torque is kept per load.
  void bodyForcesAreWeightDampingAndLoads() {
    BodyState s = twoBodies();
    WorldSettings settings;
    settings.gravity = {0.0, 0.0, -9.81};
    settings.linearDamping = 0.5;
    settings.angularDamping = 0.2;
    const ExternalLoad load{1, {4.0, 0.0, -1.0}, {1.5, 2.0, 0.5}};  // body, force [N], point [m]
    DissipativeParts dissipative;
    std::vector<Vec3> loadTorque;
    s.force[0] = {7.0, 7.0, 7.0};  // what the last evaluation left: replaced, not added to
    setGravityDampingAndLoads(settings, {load}, s, dissipative, loadTorque);
    QCOMPARE(loadTorque.size(), std::size_t{1});
    const Vec3 arm = load.point - s.position[1];
    compareVectors(loadTorque[0], arm.cross(load.force));
    for (std::size_t b = 0; b < 2; ++b) {
      const Vec3 damping = -0.5 * s.mass[b] * s.velocity[b];
      const Vec3 spinDamping = -0.2 * spinMomentum(s, b);
      compareVectors(dissipative.force[b], damping);
      compareVectors(dissipative.torque[b], spinDamping);
      const Vec3 loadForce = b == 1 ? load.force : Vec3::Zero();
      const Vec3 loadTorqueHere = b == 1 ? loadTorque[0] : Vec3::Zero();
      compareVectors(s.force[b], s.mass[b] * settings.gravity + damping + loadForce);
      compareVectors(s.torque[b], spinDamping + loadTorqueHere);
    }
  }

  // The 2D plane (normal z) takes the out-of-plane force and the in-plane torque; blocked DOFs take
  // their force components and the torque about blocked axes, the dissipative parts alike; the
  // state keeps no velocity along them.
  void thePlaneAndBlockedDofsTakeTheirShares() {
    BodyState s = twoBodies();
    const Vec3 f0(1.0, 2.0, 3.0), t0(4.0, 5.0, 6.0);
    s.force = {f0, f0};
    s.torque = {t0, t0};
    DissipativeParts dissipative{{f0, f0}, {t0, t0}};
    PlaneConstraint plane;
    plane.enabled = true;
    projectForcesOnPlane(plane, s, dissipative);
    for (std::size_t b = 0; b < 2; ++b) {
      compareVectors(s.force[b], {1.0, 2.0, 0.0});
      compareVectors(s.torque[b], {0.0, 0.0, 6.0});
      compareVectors(dissipative.force[b], {1.0, 2.0, 0.0});
      compareVectors(dissipative.torque[b], {0.0, 0.0, 6.0});
    }
    s = twoBodies();
    s.force = {f0, f0};
    s.torque = {t0, t0};
    dissipative = {{f0, f0}, {t0, t0}};
    std::uint8_t mask = 0;
    std::string problem;
    QVERIFY(parseBlockedDofs("yXY", mask, problem));
    s.blocked[1] = mask;
    removeBlockedForces(s, dissipative);
    compareVectors(s.force[0], f0);  // body 0 is free
    compareVectors(s.torque[0], t0);
    compareVectors(s.force[1], {1.0, 0.0, 3.0});
    compareVectors(s.torque[1], {0.0, 0.0, 6.0});
    compareVectors(dissipative.force[1], {1.0, 0.0, 3.0});
    compareVectors(dissipative.torque[1], {0.0, 0.0, 6.0});
    confineBlockedState(s);
    compareVectors(s.velocity[0], twoBodies().velocity[0]);
    compareVectors(s.velocity[1], {-0.5, 0.0, 2.0});
    compareVectors(s.angularVelocity[1], {0.0, 0.0, 4.0});
  }

  // Cundall's local damping (as Woo and Yade apply it): each world component scaled by
  // 1 - lambda sign(F_i v_i); its change is dissipative and its power -lambda sum |F_i| |v_i|; a
  // component with no velocity (or no force) is not touched; lambda 0 touches nothing.
  void localDampingScalesEachComponentAgainstTheMotion() {
    BodyState s = twoBodies();  // body 0: v (1, -2, 0.5), w (3, 1, -2); body 1: v (-0.5, 0, 2), w (0, -1, 4)
    const Vec3 f0(3.0, -4.0, -1.0), t0(-2.0, 0.5, 0.0);
    s.force = {f0, f0};
    s.torque = {t0, t0};
    const Vec3 dissipativeBefore(0.25, 0.0, -0.5);
    DissipativeParts dissipative{{dissipativeBefore, Vec3::Zero()}, {Vec3::Zero(), Vec3::Zero()}};
    applyLocalDamping(0.0, s, dissipative);
    compareVectors(s.force[0], f0);
    compareVectors(dissipative.force[0], dissipativeBefore);
    applyLocalDamping(0.3, s, dissipative);
    // Body 0: F_x v_x > 0 (driving: x 0.7), F_y v_y > 0 (x 0.7), F_z v_z < 0 (braking: x 1.3); T_x w_x < 0
    // (x 1.3), T_y w_y > 0 (x 0.7), T_z = 0.
    compareVectors(s.force[0], {2.1, -2.8, -1.3});
    compareVectors(s.torque[0], {-2.6, 0.35, 0.0});
    compareVectors(dissipative.force[0], dissipativeBefore + Vec3(-0.9, 1.2, -0.3));
    compareVectors(dissipative.torque[0], {-0.6, -0.15, 0.0});
    // Body 1: F_x v_x < 0 (x 1.3), v_y = 0 (untouched), F_z v_z < 0 (x 1.3); w_x = 0, T_y w_y < 0 (x 1.3).
    compareVectors(s.force[1], {3.9, -4.0, -1.3});
    compareVectors(s.torque[1], {-2.0, 0.65, 0.0});
    for (std::size_t b = 0; b < 2; ++b) {
      const Vec3 part = s.force[b] - f0, spinPart = s.torque[b] - t0;
      const double power = part.dot(s.velocity[b]) + spinPart.dot(s.angularVelocity[b]);
      const double expected = -0.3 * (f0.cwiseAbs().dot(s.velocity[b].cwiseAbs()) +
                                      t0.cwiseAbs().dot(s.angularVelocity[b].cwiseAbs()));
      QVERIFY(power < 0.0);
      QVERIFY2(std::abs(power - expected) <= 1e-13 * std::abs(expected),
               qPrintable(QStringLiteral("power %1, expected %2").arg(power).arg(expected)));
    }
  }

  // Leapfrog (f = 1): the last evaluation's forces over the first half of the step at the step-start
  // velocities, the new ones over the second half at the end velocities; the end powers are kept
  // for the next step's first half until forget().
  void theLeapfrogBooksHalfStepsAtTheSynchronousVelocities() {
    ThreadPool pool(1);
    BodyState s = twoBodies();
    DissipativeParts dissipative{{Vec3(-1.0, 0.5, 0.0), Vec3(0.0, 0.0, -2.0)},
                                 {Vec3(0.0, -0.3, 0.1), Vec3(0.2, 0.0, 0.0)}};
    const std::vector<ExternalLoad> loads{{0, {0.0, 3.0, 0.0}, {0.0, 0.0, 1.5}}};
    const std::vector<Vec3> loadTorque{{0.0, 0.0, 0.75}};
    const std::vector<Vec3> wallForce{{0.0, 0.0, 10.0}};
    const MeshWallContacts meshContacts;
    const WorkBooking::Forces forces{pool, s, dissipative, loads, loadTorque, wallForce, meshContacts};
    EnergyLedger ledger;
    std::vector<Vec3> wallImpulse{Vec3::Zero()};
    const WorkBooking::Books books{ledger, wallImpulse};
    const auto dissipativePower = [&] {
      double p = 0.0;
      for (std::size_t b = 0; b < 2; ++b)
        p += dissipative.force[b].dot(s.velocity[b]) + dissipative.torque[b].dot(s.angularVelocity[b]);
      return p;
    };
    const auto externalPower = [&] {
      return loads[0].force.dot(s.velocity[0]) + loadTorque[0].dot(s.angularVelocity[0]);
    };
    const double dt = 1e-3;
    WorkBooking booking;
    const double p0 = dissipativePower(), e0 = externalPower();
    booking.bookCarried(1.0, dt, forces, books);
    QCOMPARE(ledger.dissipated, -0.5 * dt * p0);
    QCOMPARE(ledger.externalWork, 0.5 * dt * e0);
    compareVectors(wallImpulse[0], 0.5 * dt * wallForce[0]);
    s.velocity[0] *= 0.5;  // the integrator's kicks and drifts
    s.angularVelocity[1] = {1.0, 1.0, 1.0};
    const double p1 = dissipativePower();
    booking.bookNew(1.0, dt, forces, books);
    QVERIFY(std::abs(ledger.dissipated - (-0.5 * dt * p0 - 0.5 * dt * p1)) <= 1e-15);
    compareVectors(wallImpulse[0], dt * wallForce[0]);
    s.velocity[1] *= 2.0;  // without forget(): the kept end powers are booked
    booking.bookCarried(1.0, dt, forces, books);
    QVERIFY(std::abs(ledger.dissipated - (-0.5 * dt * p0 - dt * p1)) <= 1e-15);
    booking.forget();  // an edit: the powers at the velocities now
    const double before = ledger.dissipated, p2 = dissipativePower();
    booking.bookCarried(1.0, dt, forces, books);
    QVERIFY(std::abs(ledger.dissipated - (before - 0.5 * dt * p2)) <= 1e-15);
  }

  // Midpoint (f = 1/2): nothing before the integrator; after it, the new forces over the whole step
  // at the mean of the step-start and end velocities.
  void theMidpointBooksTheWholeStepAtTheMeanVelocities() {
    ThreadPool pool(1);
    BodyState s = twoBodies();
    DissipativeParts dissipative{{Vec3(-1.0, 0.5, 0.0), Vec3(0.0, 0.0, -2.0)},
                                 {Vec3(0.0, -0.3, 0.1), Vec3(0.2, 0.0, 0.0)}};
    const std::vector<ExternalLoad> loads;
    const std::vector<Vec3> loadTorque, wallForce;
    const MeshWallContacts meshContacts;
    const WorkBooking::Forces forces{pool, s, dissipative, loads, loadTorque, wallForce, meshContacts};
    EnergyLedger ledger;
    std::vector<Vec3> wallImpulse;
    const WorkBooking::Books books{ledger, wallImpulse};
    const BodyState start = s;
    const double dt = 2e-3;
    WorkBooking booking;
    booking.bookCarried(0.5, dt, forces, books);
    QCOMPARE(ledger.dissipated, 0.0);
    for (std::size_t b = 0; b < 2; ++b) {
      s.velocity[b] = {0.3, 0.2, 0.1};
      s.angularVelocity[b] *= -1.0;
    }
    double p = 0.0;
    for (std::size_t b = 0; b < 2; ++b) {
      p += dissipative.force[b].dot(0.5 * (s.velocity[b] + start.velocity[b])) +
           dissipative.torque[b].dot(0.5 * (s.angularVelocity[b] + start.angularVelocity[b]));
    }
    booking.bookNew(0.5, dt, forces, books);
    QVERIFY(std::abs(ledger.dissipated - (-dt * p)) <= 1e-15);
  }
};

QTEST_GUILESS_MAIN(StepStagesTest)
#include "tst_step_stages.moc"
