// Where a body added by hand starts (core/world/ClearSpot.hpp): dropped over a pile it rests on the
// pile, never in it, at the lowest clear height of its column; a point outside a box is brought
// inside; a column under a lid gives way to a neighbour; a full box has no room; a shot from outside
// the box starts inside it, on its line of flight. Every pose returned is checked against every body
// and wall by the overlap test itself, not by the finder's grid.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "TestSupport.hpp"
#include "core/world/ClearSpot.hpp"

using namespace clumplab;

namespace {
// A dumbbell of two pebbles of radius r, 3r apart along x [m].
TemplatePtr dumbbell(double r) {
  ClumpTemplate t;
  t.name = "dumbbell";
  t.mass = 1.0;
  t.principalMoments = Vec3(1, 1, 1);
  t.pebbles = {{Vec3(-1.5 * r, 0, 0), r}, {Vec3(1.5 * r, 0, 0), r}};
  t.boundingRadius = 2.5 * r;
  return std::make_shared<const ClumpTemplate>(t);
}

// Uniform draws in [0, 1) from a fixed 64-bit LCG (the same on every platform).
struct Draws {
  std::uint64_t state = 0x2545f4914f6cdd1dull;
  double operator()() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) * 0x1.0p-53;
  }
  Quat orientation() {
    const Vec3 axis = Vec3((*this)() - 0.5, (*this)() - 0.5, (*this)() - 0.5).normalized();
    return Quat(Eigen::AngleAxisd(6.283185307179586 * (*this)(), axis));
  }
};

// A pile: `count` bodies of `shape` placed at random non-overlapping poses in the box's lower part.
std::vector<PlacedBody> randomPile(const ClumpTemplate& shape, const std::vector<Wall>& walls, Vec3 lower,
                                   Vec3 upper, int count, Draws& draw) {
  std::vector<PlacedBody> pile;
  PlacementSet set(shape.boundingRadius, PeriodicBox{});
  for (int tries = 0; static_cast<int>(pile.size()) < count && tries < 200000; ++tries) {
    const Vec3 u(draw(), draw(), draw());
    const PlacedBody b{lower + u.cwiseProduct(upper - lower), draw.orientation(), &shape};
    if (!clearOfWalls(b, walls) || set.overlapsAny(b)) continue;
    set.add(b);
    pile.push_back(b);
  }
  return pile;
}

// Clear of every body and wall, by the overlap test on every body (no grid).
bool clearOfEverything(const PlacedBody& b, const std::vector<PlacedBody>& bodies,
                       const std::vector<Wall>& walls) {
  if (!clearOfWalls(b, walls)) return false;
  for (const PlacedBody& other : bodies)
    if (bodiesOverlap(b, other)) return false;
  return true;
}

const Vec3 kUp = Vec3::UnitZ();
}  // namespace

class ClearSpotTest : public QObject {
  Q_OBJECT
 private slots:
  void aBodyDroppedOnAPileRestsOnItNotInIt() {
    const TemplatePtr shape = dumbbell(0.02);
    const std::vector<Wall> walls = Wall::box(Vec3(-0.3, -0.3, 0), Vec3(0.3, 0.3, 2.0));
    Draws draw;
    const std::vector<PlacedBody> pile =
        randomPile(*shape, walls, Vec3(-0.3, -0.3, 0), Vec3(0.3, 0.3, 0.4), 400, draw);
    QCOMPARE(pile.size(), std::size_t{400});
    const ClearSpotFinder finder(pile, walls, 0.0, PeriodicBox{}, kUp, shape->boundingRadius);
    for (int k = 0; k < 50; ++k) {
      // Points in the pile itself (a pebble's centre under the cursor) and on the floor under it.
      const Vec3 point(-0.25 + 0.5 * draw(), -0.25 + 0.5 * draw(), 0.4 * draw());
      const Quat q = draw.orientation();
      const std::optional<Vec3> at = finder.dropAbove(point, *shape, q);
      QVERIFY(at.has_value());
      QVERIFY(clearOfEverything({*at, q, shape.get()}, pile, walls));
      // In the column through the point, and the lowest clear pose there: a quarter bounding radius
      // lower (the scan's step) plus the tenth it is lifted by overlaps something.
      CLUMPLAB_VERIFY_LESS((at->head<2>() - point.head<2>()).norm(), 1e-12);
      CLUMPLAB_VERIFY_LESS(point.z() - 1e-12, at->z());
      const Vec3 lower = *at - 0.35 * shape->boundingRadius * kUp;
      if (lower.z() > point.z()) QVERIFY(!clearOfEverything({lower, q, shape.get()}, pile, walls));
    }
  }

  void aPointOutsideTheBoxIsBroughtInside() {
    const TemplatePtr shape = dumbbell(0.02);
    const std::vector<Wall> walls = Wall::box(Vec3(-0.3, -0.3, 0), Vec3(0.3, 0.3, 2.0));
    const ClearSpotFinder finder({}, walls, 0.0, PeriodicBox{}, kUp, shape->boundingRadius);
    for (const Vec3& outside : {Vec3(1.5, -2.0, 0.0), Vec3(-0.8, 1.3, 0.0), Vec3(0.0, 0.9, 0.5)}) {
      const std::optional<Vec3> at = finder.dropAbove(outside, *shape, Quat::Identity());
      QVERIFY(at.has_value());
      QVERIFY(clearOfWalls({*at, Quat::Identity(), shape.get()}, walls));
      // The nearest point of the box's inside across the up axis, a bounding radius in.
      const double inset = 0.3 - shape->boundingRadius;
      CLUMPLAB_VERIFY_LESS(std::abs(at->x() - std::clamp(outside.x(), -inset, inset)), 1e-9);
      CLUMPLAB_VERIFY_LESS(std::abs(at->y() - std::clamp(outside.y(), -inset, inset)), 1e-9);
    }
  }

  // A shelf (a body held up at the lid) leaves no room in the column under the cursor: the body goes
  // to the nearest column with room, still inside the box.
  void aColumnWithNoRoomGivesWayToItsNeighbour() {
    const TemplatePtr shape = dumbbell(0.02);
    const double r = shape->boundingRadius;
    const std::vector<Wall> walls = Wall::box(Vec3(-0.3, -0.3, 0), Vec3(0.3, 0.3, 2.2 * r));
    // A row of dumbbells along x filling the column over the origin from floor to lid.
    const std::vector<PlacedBody> blockers = {{Vec3(0, 0, 1.1 * r), Quat::Identity(), shape.get()}};
    const ClearSpotFinder finder(blockers, walls, 0.0, PeriodicBox{}, kUp, r);
    const std::optional<Vec3> at = finder.dropAbove(Vec3(0, 0, 0), *shape, Quat::Identity());
    QVERIFY(at.has_value());
    QVERIFY(clearOfEverything({*at, Quat::Identity(), shape.get()}, blockers, walls));
    CLUMPLAB_VERIFY_LESS(0.0, at->head<2>().norm());              // not in the blocked column
    CLUMPLAB_VERIFY_LESS(at->head<2>().norm(), 3.0 * r + 1e-12);  // but near it
  }

  // In the 2D mode (the plane y = 0 here) every pose found lies in the plane, where the engine keeps
  // the body: off it, a clear pose would be moved onto the plane into whatever is there.
  void inTheTwoDimensionalModeEveryPoseIsInThePlane() {
    const TemplatePtr shape = dumbbell(0.02);
    const std::vector<Wall> walls = Wall::box(Vec3(-0.3, -0.3, 0), Vec3(0.3, 0.3, 2.0));
    PlaneConstraint plane;
    plane.enabled = true;
    plane.normal = Vec3::UnitY();
    // A row of dumbbells on the floor in the plane, and one far off it that must not count.
    std::vector<PlacedBody> row;
    for (int k = -5; k <= 5; ++k) row.push_back({Vec3(0.05 * k, 0.0, 0.021), Quat::Identity(), shape.get()});
    const ClearSpotFinder finder(row, walls, 0.0, PeriodicBox{}, kUp, shape->boundingRadius, plane);
    const std::optional<Vec3> at = finder.dropAbove(Vec3(0.02, 0.25, 0.0), *shape, Quat::Identity());
    QVERIFY(at.has_value());
    QCOMPARE(at->y(), 0.0);
    QVERIFY(clearOfEverything({*at, Quat::Identity(), shape.get()}, row, walls));
    CLUMPLAB_VERIFY_LESS(0.04, at->z());  // on the row, not beside it off the plane
    const std::optional<Vec3> shot =
        finder.shotStart(Vec3(0.0, -2.0, 1.0), Vec3(0.1, 0.1, 0.1), *shape, Quat::Identity());
    QVERIFY(shot.has_value());
    QCOMPARE(shot->y(), 0.0);
    QVERIFY(clearOfEverything({*shot, Quat::Identity(), shape.get()}, row, walls));
  }

  void aFullBoxHasNoRoom() {
    const TemplatePtr shape = dumbbell(0.02);
    const double r = shape->boundingRadius;
    // A box that one body fills: its length along x is the dumbbell's, and it is in it already.
    const std::vector<Wall> walls = Wall::box(Vec3(-r, -0.03, 0), Vec3(r, 0.03, 0.05));
    const std::vector<PlacedBody> inside = {{Vec3(0, 0, 0.025), Quat::Identity(), shape.get()}};
    QVERIFY(clearOfWalls(inside[0], walls));
    const ClearSpotFinder finder(inside, walls, 0.0, PeriodicBox{}, kUp, r);
    QVERIFY(!finder.dropAbove(Vec3(0, 0, 0.01), *shape, Quat::Identity()).has_value());
  }

  // A camera outside the box shoots at the pile: the body starts at the first clear pose on the way,
  // inside the box, on the line from the camera to the point aimed at.
  void aShotFromOutsideTheBoxStartsInsideOnItsWay() {
    const TemplatePtr shape = dumbbell(0.02);
    const std::vector<Wall> walls = Wall::box(Vec3(-0.3, -0.3, 0), Vec3(0.3, 0.3, 2.0));
    Draws draw;
    const std::vector<PlacedBody> pile =
        randomPile(*shape, walls, Vec3(-0.3, -0.3, 0), Vec3(0.3, 0.3, 0.4), 400, draw);
    const ClearSpotFinder finder(pile, walls, 0.0, PeriodicBox{}, kUp, shape->boundingRadius);
    const Vec3 camera(0.2, -2.5, 1.2), target(0.0, 0.0, 0.5);  // the pile's top is below 0.45 m
    const std::optional<Vec3> at = finder.shotStart(camera, target, *shape, Quat::Identity());
    QVERIFY(at.has_value());
    QVERIFY(clearOfEverything({*at, Quat::Identity(), shape.get()}, pile, walls));
    CLUMPLAB_VERIFY_LESS((*at - camera).cross(target - camera).norm() / (target - camera).norm(), 1e-12);
    // Just inside the front wall: within a step of the first pose clear of it.
    CLUMPLAB_VERIFY_LESS(at->y(), -0.3 + shape->boundingRadius + 0.3 * shape->boundingRadius);
  }
};

QTEST_MAIN(ClearSpotTest)
#include "tst_clear_spot.moc"
