#pragma once
// Helpers shared by the physics tests: small worlds built in code, and closed-form results.
#include <QtTest>
#include <cmath>
#include <cstring>
#include <memory>
#include <numbers>

#include "core/clump/FreeRotation.hpp"
#include "core/clump/MassProperties.hpp"
#include "core/world/Snapshot.hpp"
#include "core/world/World.hpp"

namespace clumplab::test {

// Relative/absolute comparison with a message that prints both numbers.
#define CLUMPLAB_COMPARE_REL(actual, expected, rel)                        \
  do {                                                                     \
    const double a_ = (actual), e_ = (expected);                           \
    QVERIFY2(std::abs(a_ - e_) <= (rel)*std::abs(e_),                      \
             qPrintable(QString("%1 = %2, expected %3 within %4 relative") \
                            .arg(#actual)                                  \
                            .arg(a_, 0, 'g', 12)                           \
                            .arg(e_, 0, 'g', 12)                           \
                            .arg(rel)));                                   \
  } while (0)

#define CLUMPLAB_VERIFY_LESS(actual, bound)                                                               \
  do {                                                                                                    \
    const double a_ = (actual), b_ = (bound);                                                             \
    QVERIFY2(                                                                                             \
        a_ < b_,                                                                                          \
        qPrintable(                                                                                       \
            QString("%1 = %2, expected below %3").arg(#actual).arg(a_, 0, 'g', 12).arg(b_, 0, 'g', 12))); \
  } while (0)

inline TemplatePtr templateFromPebbles(const std::vector<Pebble>& pebbles, double density,
                                       const std::string& name = "clump") {
  const MassProperties m = massFromPebbles(pebbles, std::vector<double>(pebbles.size(), density));
  return std::make_shared<const ClumpTemplate>(makeTemplate(name, pebbles, m, "pebbles", density));
}

// A rigid body with prescribed mass and principal moments (one small pebble for contacts).
inline TemplatePtr rigidBody(double mass, const Vec3& moments, double pebbleRadius = 1e-3) {
  ClumpTemplate t;
  t.name = "rigid";
  t.pebbles = {Pebble{Vec3::Zero(), pebbleRadius}};
  t.mass = mass;
  t.principalMoments = moments;
  t.boundingRadius = pebbleRadius;
  t.minPebbleRadius = pebbleRadius;
  return std::make_shared<const ClumpTemplate>(t);
}

// The project's T-bar (docs/user-guide.md): 10 pebbles of radius 1 mm, stem along z, crossbar along x at z =
// 5 mm.
inline std::vector<Pebble> tbarPebbles() {
  std::vector<Pebble> p;
  for (int k = 0; k < 5; ++k) p.push_back({Vec3(0, 0, 1e-3 * k), 1e-3});
  for (int k = -2; k <= 2; ++k) p.push_back({Vec3(1e-3 * k, 0, 5e-3), 1e-3});
  return p;
}

inline ContactModel frictionlessHertz(double young = 5e8) {
  ContactModel c;
  c.kind = ContactModel::Kind::Hertz;
  c.hertz.young = young;
  c.hertz.poisson = 0.5;
  c.hertz.restitutionSquared = 1.0;
  c.hertz.friction = 0.0;
  return c;
}

inline ContactModel linearContact(double k, double e, double mu) {
  ContactModel c;
  c.kind = ContactModel::Kind::Linear;
  c.linear.stiffness = k;
  c.linear.dampingFromRestitution = true;
  c.linear.restitution = e;
  c.linear.friction = mu;
  return c;
}

inline const std::vector<IntegratorKind>& allIntegrators() {
  static const std::vector<IntegratorKind> kinds = {IntegratorKind::Leapfrog, IntegratorKind::Midpoint,
                                                    IntegratorKind::Splitting};
  return kinds;
}

// A data column "kind" with one row per integrator, for _data() slots (QFETCH(IntegratorKind, kind)).
inline void addIntegratorRows() {
  QTest::addColumn<IntegratorKind>("kind");
  for (const IntegratorKind k : allIntegrators()) QTest::newRow(integratorName(k).data()) << k;
}

// One FNV-1a round: `h` mixed with the bits of `value`.
inline std::uint64_t mixBits(std::uint64_t h, double value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return (h ^ bits) * 1099511628211ULL;
}

// FNV-1a over the bits of every body's position, orientation, velocity and angular velocity: equal
// hashes mean bitwise-equal states (for determinism and checkpoint tests).
inline std::uint64_t stateHash(const World& world) {
  std::uint64_t h = 1469598103934665603ULL;
  const auto mix = [&](const double* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) h = mixBits(h, p[i]);
  };
  const BodyState& s = world.bodies();
  for (std::size_t b = 0; b < s.size(); ++b) {
    mix(s.position[b].data(), 3);
    mix(s.orientation[b].coeffs().data(), 4);
    mix(s.velocity[b].data(), 3);
    mix(s.angularVelocity[b].data(), 3);
  }
  return h;
}

// Whether two snapshots hold the same bodies to the bit (position, orientation, velocity, angular
// velocity): -0.0 differs from 0.0 here, and a NaN equals the same NaN.
inline bool sameBits(const SnapshotBodies& a, const SnapshotBodies& b) {
  if (a.size() != b.size()) return false;
  const auto same = [](const double* x, const double* y, std::size_t n) {
    return std::memcmp(x, y, n * sizeof(double)) == 0;
  };
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same(a.position[i].data(), b.position[i].data(), 3) ||
        !same(a.velocity[i].data(), b.velocity[i].data(), 3) ||
        !same(a.angularVelocity[i].data(), b.angularVelocity[i].data(), 3) ||
        !same(a.orientation[i].coeffs().data(), b.orientation[i].coeffs().data(), 4)) {
      return false;
    }
  }
  return true;
}

// One step of a test's world. A step that fails (a divergence) fails the test with the world's
// message: a loop such as `while (world.time() < t)` must not spin forever on a world that stopped.
inline void mustStep(World& world) {
  if (!world.step()) {
    qFatal("the world stopped at t = %.9g s: %s", world.time(),
           world.state().divergence.happened ? world.state().divergence.message.c_str()
                                             : "the step was cancelled");
  }
}

// Steps until the clock reaches `time` [s], each one a mustStep.
inline void runUntil(World& world, double time) {
  while (world.time() < time) mustStep(world);
}

inline WorldSettings freeSpace(IntegratorKind kind, double dt) {
  WorldSettings s;
  s.timeStep = dt;
  s.gravity = Vec3::Zero();
  s.integrator = kind;
  return s;
}

}  // namespace clumplab::test

Q_DECLARE_METATYPE(clumplab::IntegratorKind)
