#pragma once
// Where a body added by hand may start: never overlapping a body or a wall. A body dropped at a point
// goes to the lowest clear pose in the column above it (on the pile, not in it); a point outside the
// walls is first brought inside the plane walls, and a column with no room (under a lid, say) gives way to
// the nearest one around it that has some. A shot body starts on its line of flight, on the shooter's
// side of the point aimed at, where that line is clear. Both use the overlap test of generation and
// inlets (Placement.hpp).
#include <optional>
#include <vector>

#include "core/base/PlaneConstraint.hpp"
#include "core/world/Placement.hpp"

namespace clumplab {

class ClearSpotFinder {
 public:
  // `bodies`: every body in the world; `up`: against gravity; `time` [s]: where moving mesh walls
  // are; `largestBoundingRadius` [m]: of the bodies and of every shape placed; `plane`: the 2D mode,
  // whose plane every pose found lies in (the engine keeps bodies there).
  ClearSpotFinder(const std::vector<PlacedBody>& bodies, const std::vector<Wall>& walls, double time,
                  const PeriodicBox& periodic, const Vec3& up, double largestBoundingRadius,
                  const PlaneConstraint& plane = {});

  // The centre of mass [m] for `shape` at `orientation`, dropped at `point`: the lowest pose clear of
  // everything in the column through `point` along `up`, starting at `point`'s height, a tenth of the
  // bounding radius higher still so that it drops; nearby columns when that one has none. Nothing
  // when no column within a few bounding radii has room.
  std::optional<Vec3> dropAbove(const Vec3& point, const ClumpTemplate& shape, const Quat& orientation) const;

  // The start [m] of a body shot from `from` at `target`: `from` itself when it is clear, else the
  // first clear pose on the way from `from` to `target` (sampled every quarter bounding radius: a
  // shooter outside the box starts the body just inside it). Nothing when no pose on the way is clear.
  std::optional<Vec3> shotStart(const Vec3& from, const Vec3& target, const ClumpTemplate& shape,
                                const Quat& orientation) const;

  bool clear(const Vec3& position, const ClumpTemplate& shape, const Quat& orientation) const;
  // A body placed since (one of several spawned at once): later poses keep clear of it too. Its
  // bounding radius must be within the constructor's `largestBoundingRadius`.
  void add(const PlacedBody& body);

 private:
  // The lowest clear height in the column through `foot` from its height up to the top of
  // everything, in steps of `step` [m].
  std::optional<Vec3> lowestClearInColumn(const Vec3& foot, const ClumpTemplate& shape,
                                          const Quat& orientation, double step) const;
  // `point` moved across the up axis until the shape's bounding sphere is inside every plane wall
  // that faces sideways (a box's sides); a point inside them is returned as it is.
  Vec3 insidePlaneWalls(const Vec3& point, double boundingRadius) const;

  PlacementSet occupied_;
  const std::vector<Wall>& walls_;
  double time_;
  Vec3 up_;
  PlaneConstraint plane_;
  double top_ = 0.0;  // the highest reach of any body along up [m]
};

}  // namespace clumplab
