#pragma once
// A solid region of space as the sampled mass-property methods see it: its bounding box, an inside
// test, and the spans of an x-parallel line inside it. A union of pebbles (here) and a closed
// triangle mesh (shapes/) are solids, so voxels and Monte Carlo serve both (MercuryDPM rigid clumps, eq.
// 6-10, Mutze, Polyspherical grains, eq. 28-31).
#include <span>
#include <vector>

#include "core/base/Math.hpp"
#include "core/clump/Pebble.hpp"

namespace clumplab {

// The closed interval [begin, end] of x [m].
struct Span {
  double begin = 0.0;
  double end = 0.0;
};

class Solid {
 public:
  virtual ~Solid() = default;
  // Axis-aligned box holding the solid [m].
  virtual void bounds(Vec3& lower, Vec3& upper) const = 0;
  // Whether the point is inside (the indicator function chi_S of Mutze, Polyspherical grains, eq. 28).
  virtual bool contains(const Vec3& point) const = 0;
  // The parts of the line {(x, y, z) : x real} inside the solid: sorted, disjoint spans. `out` is
  // cleared first. Must be safe to call from several threads at once.
  virtual void spansAlongX(double y, double z, std::vector<Span>& out) const = 0;
};

// Sorts spans and merges the overlapping ones in place.
void mergeSpans(std::vector<Span>& spans);

// The union of a set of spheres, with a grid over (y, z) so that queries touch only nearby pebbles.
class PebbleUnion final : public Solid {
 public:
  explicit PebbleUnion(std::span<const Pebble> pebbles);

  void bounds(Vec3& lower, Vec3& upper) const override;
  bool contains(const Vec3& point) const override;
  void spansAlongX(double y, double z, std::vector<Span>& out) const override;

  std::span<const Pebble> pebbles() const { return pebbles_; }

 private:
  std::size_t cellOf(double y, double z) const;
  std::vector<Pebble> pebbles_;
  Vec3 lower_ = Vec3::Zero(), upper_ = Vec3::Zero();
  double cell_ = 1.0;  // grid cell size in y and z [m]
  int cellsY_ = 1, cellsZ_ = 1;
  std::vector<std::uint32_t> cellStart_;  // pebbles of cell c: cellPebbles_[cellStart_[c] .. cellStart_[c+1])
  std::vector<std::uint32_t> cellPebbles_;
};

}  // namespace clumplab
