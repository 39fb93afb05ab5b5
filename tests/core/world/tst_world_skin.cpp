// The automatic Verlet skin of a world as bodies join it (issue 37, item 5): fine clumps added
// beside a coarse one get the broad phase of a world built with them, not one whose skin the
// coarse pebbles set, which pairs every fine pebble with every pebble of the clumps around it.
#include <QtTest>
#include <memory>
#include <vector>

#include "TestSupport.hpp"
#include "core/world/PeriodicChecks.hpp"
#include "core/world/World.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {

constexpr double kCoarseRadius = 0.1;  // [m]
constexpr double kFineRadius = 1e-4;   // [m]
constexpr int kFineBodies = 12;

TemplatePtr coarseBall() {
  return templateFromPebbles({{Vec3::Zero(), kCoarseRadius}}, 1000.0, "ball");
}

// 4 x 4 x 2 overlapping pebbles of kFineRadius, 0.6 mm across.
TemplatePtr fineClump() {
  std::vector<Pebble> pebbles;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      for (int k = 0; k < 2; ++k) pebbles.push_back({1.5 * kFineRadius * Vec3(i, j, k), kFineRadius});
    }
  }
  return templateFromPebbles(pebbles, 1000.0, "fine");
}

WorldSettings restingSettings() {
  WorldSettings s = freeSpace(IntegratorKind::Leapfrog, 1e-8);
  s.gravity = Vec3(0.0, 0.0, -9.81);
  return s;
}

// The fine clumps in a row above the ball, 0.65 mm apart: some pebbles of neighbours within the
// fine skin of each other, none touching.
void addFineRow(World& world, std::uint32_t fine) {
  for (int b = 0; b < kFineBodies; ++b) {
    world.addBody({fine, Vec3(0.65e-3 * b, 0.0, 0.5), Quat::Identity(), Vec3::Zero(), Vec3::Zero()});
  }
}

}  // namespace

class WorldSkinTest : public QObject {
  Q_OBJECT
 private slots:
  void fineClumpsJoiningShrinkTheSkin() {
    const TemplatePtr ball = coarseBall(), fine = fineClump();
    const ContactModel contact = linearContact(1e6, 0.5, 0.3);
    const std::vector<Wall> floor{Wall::plane(Vec3::Zero(), Vec3::UnitZ())};
    World joined(restingSettings(), contact, floor, {ball});
    joined.addBody({0, Vec3(0.0, 0.0, kCoarseRadius), Quat::Identity(), Vec3::Zero(), Vec3::Zero()});
    mustStep(joined);
    QCOMPARE(joined.neighbors().skin(), resolvedSkin(0.0, {ball}));
    addFineRow(joined, joined.addTemplate(fine));
    mustStep(joined);

    World built(restingSettings(), contact, floor, {ball, fine});
    built.addBody({0, Vec3(0.0, 0.0, kCoarseRadius), Quat::Identity(), Vec3::Zero(), Vec3::Zero()});
    addFineRow(built, 1);
    mustStep(built);

    QCOMPARE(joined.neighbors().skin(), resolvedSkin(0.0, {fine}));
    QCOMPARE(joined.state().contactHistory.pairs.size(), built.state().contactHistory.pairs.size());
    QVERIFY(!joined.state().contactHistory.pairs.empty());
    // Pairs bounded by the pebbles, not by the pebbles of every clump around them.
    const std::size_t finePebbles = kFineBodies * fine->pebbles.size();
    CLUMPLAB_VERIFY_LESS(static_cast<double>(joined.state().contactHistory.pairs.size()),
                         4.0 * static_cast<double>(finePebbles));
  }

  void aSkinGivenInTheSettingsStays() {
    WorldSettings settings = restingSettings();
    settings.skin = 5e-3;
    World world(settings, linearContact(1e6, 0.5, 0.3), {}, {coarseBall()});
    addFineRow(world, world.addTemplate(fineClump()));
    QCOMPARE(world.neighbors().skin(), 5e-3);
  }
};

QTEST_GUILESS_MAIN(WorldSkinTest)
#include "tst_world_skin.moc"
