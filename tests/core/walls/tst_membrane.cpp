// The osmosis box (Mutze, Polyspherical grains, §1 (iv)): a membrane passes small pebbles and stops large
// ones, and the walls' recorded impulses account for the change of the total momentum to round-off.
#include <random>

#include "TestSupport.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

constexpr double kSmall = 1e-3, kLarge = 3e-3, kPass = 2e-3;  // pebble radii and the pass radius [m]

// A box [-4, 4] x [-2, 2] x [-2, 2] cm split at x = 0 by a membrane; 40 small and 12 large balls on
// the left, moving at random, no gravity, elastic contacts.
std::unique_ptr<World> osmosisBox(IntegratorKind kind) {
  WorldSettings s = freeSpace(kind, 5e-6);
  std::vector<Wall> walls = Wall::box(Vec3(-0.04, -0.02, -0.02), Vec3(0.04, 0.02, 0.02));
  walls.push_back(Wall::membrane(Vec3::Zero(), Vec3::UnitX(), kPass));
  const std::vector<TemplatePtr> templates = {templateFromPebbles({{Vec3::Zero(), kSmall}}, 1000, "small"),
                                              templateFromPebbles({{Vec3::Zero(), kLarge}}, 1000, "large")};
  auto world = std::make_unique<World>(s, frictionlessHertz(1e7), walls, templates);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> speed(-0.5, 0.5);
  for (int i = 0; i < 52; ++i) {
    const bool large = i % 13 == 12;
    BodyInit b;
    b.templateIndex = large ? 1 : 0;
    b.position = Vec3(-0.035 + 0.008 * (i % 4), -0.015 + 0.0075 * ((i / 4) % 5), -0.012 + 0.008 * (i / 20));
    b.velocity = Vec3(speed(rng), speed(rng), speed(rng));
    world->addBody(b);
  }
  return world;
}

Vec3 totalMomentum(const World& w) {
  Vec3 p = Vec3::Zero();
  for (std::size_t b = 0; b < w.bodies().size(); ++b) p += w.bodies().mass[b] * w.bodies().velocity[b];
  return p;
}

}  // namespace

class MembraneTest : public QObject {
  Q_OBJECT

 private slots:
  void smallPassLargeStay_data() { addIntegratorRows(); }
  void smallPassLargeStay() {
    QFETCH(IntegratorKind, kind);
    auto world = osmosisBox(kind);
    const Vec3 p0 = totalMomentum(*world);
    const BodyState& s = world->bodies();
    double largestX = -1.0;
    for (int k = 0; k < 200000; ++k) {  // 1 s
      QVERIFY2(world->step(), world->state().divergence.message.c_str());
      for (std::size_t b = 0; b < s.size(); ++b) {
        if (s.templateIndex[b] == 1) largestX = std::max(largestX, s.position[b].x());
      }
    }
    int crossed = 0;
    for (std::size_t b = 0; b < s.size(); ++b) crossed += s.templateIndex[b] == 0 && s.position[b].x() > 0.0;
    // Momentum: the bodies' change is minus what they gave the walls.
    Vec3 impulses = Vec3::Zero();
    double scale = 0.0;
    for (const Vec3& j : world->state().wallImpulse) {
      impulses += j;
      scale += j.norm();
    }
    const Vec3 change = totalMomentum(*world) - p0;
    const double mismatch = (change + impulses).norm();
    qInfo(
        "%s: %d of 48 small balls crossed; the large ones reached x = %.4g m at most; |dP + sum J| = %.3g "
        "of sum |J| = %.3g N s (%.2e)",
        integratorName(world->model().settings.integrator).data(), crossed, largestX, mismatch, scale,
        mismatch / scale);
    QVERIFY(crossed >= 5);
    CLUMPLAB_VERIFY_LESS(largestX, -kLarge + 0.5 * kLarge);  // overlaps stay far below the radius
    QVERIFY(world->state().wallImpulse[6].norm() > 0.0);     // the membrane took impacts
    CLUMPLAB_VERIFY_LESS(mismatch, 1e-12 * scale);
  }

  // A body with both a small and a large pebble is held back by the large one.
  void mixedBodyIsBlocked() {
    WorldSettings s = freeSpace(IntegratorKind::Leapfrog, 5e-6);
    const TemplatePtr dumbbell =
        templateFromPebbles({{Vec3(-0.004, 0, 0), kLarge}, {Vec3(0.004, 0, 0), kSmall}}, 1000, "mixed");
    World world(s, frictionlessHertz(1e7), {Wall::membrane(Vec3::Zero(), Vec3::UnitX(), kPass)}, {dumbbell});
    BodyInit b;
    b.position = Vec3(-0.01, 0, 0);
    b.velocity = Vec3(0.3, 0, 0);
    world.addBody(b);
    const auto& pebbles = dumbbell->pebbles;
    const Vec3 largeLocal = pebbles[0].radius > pebbles[1].radius ? pebbles[0].center : pebbles[1].center;
    double largest = -1.0;
    for (int k = 0; k < 40000; ++k) {
      QVERIFY(world.step());
      const Vec3 largeCentre = world.bodies().position[0] + world.bodies().orientation[0] * largeLocal;
      largest = std::max(largest, largeCentre.x());
    }
    qInfo("large pebble reached x = %.4g m; final v_x = %.4g m/s", largest, world.bodies().velocity[0].x());
    QVERIFY(largest < 0.0);
    QVERIFY(world.bodies().velocity[0].x() < 0.0);  // bounced back
  }
};

QTEST_GUILESS_MAIN(MembraneTest)
#include "tst_membrane.moc"
