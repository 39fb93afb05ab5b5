#pragma once
// The pebbles of one clump template binned once in its body frame (the pebble level of the broad
// phase): another body's pebble, taken into this frame, finds the pebbles near it without any
// per-step binning, since a template's pebbles never move in its frame.
#include <cstdint>
#include <vector>

#include "CellGrid.hpp"
#include "core/clump/ClumpTemplate.hpp"

namespace clumplab {

class TemplateGrid {
 public:
  TemplateGrid() = default;
  explicit TemplateGrid(const TemplatePtr& source);

  const ClumpTemplate* source() const { return source_.get(); }

  // The pebbles in groups of at most kGroupSize neighbours (the halves of a median split along the
  // longest side of their box, recursively): group g holds the pebbles
  // groupPebble()[groupStart()[g]] .. [groupStart()[g + 1] - 1]. A pair of bodies tests groups'
  // boxes before pebbles, so a far end of a clump costs one test, not one per pebble.
  static constexpr std::size_t kGroupSize = 8;
  std::size_t groupCount() const { return groupStart_.size() - 1; }
  const std::vector<std::uint32_t>& groupStart() const { return groupStart_; }
  const std::vector<std::uint32_t>& groupPebble() const { return groupPebble_; }
  std::size_t size() const { return grid_.item.size(); }
  double maxReach() const { return maxReach_; }  // largest pebble reach [m] (radius + half shaft)

  // Lower bound on the distance [m] from q (body frame) to every pebble centre of the template.
  double distanceToCentres(const Vec3& q) const {
    return (lower_ - q).cwiseMax(q - upper_).cwiseMax(0.0).norm();
  }

  // Calls visit(k) for the template pebbles k (in ascending order within each cell) whose centres
  // may lie within `halfWidth` [m] of q (body frame), and returns a lower bound on the distance [m]
  // from q to the centres of all the others.
  template <class Visit>
  double forEachNear(const Vec3& q, double halfWidth, Visit&& visit) const {
    return searchCells(grid_, PeriodicBox{}, q, Vec3::Constant(halfWidth),
                       [&](std::uint32_t first, std::uint32_t last) {
                         for (std::uint32_t s = first; s < last; ++s) visit(grid_.item[s]);
                       })
        .minCoeff();
  }

 private:
  void split(const std::vector<Vec3>& centres, std::size_t begin, std::size_t end);

  TemplatePtr source_;  // kept alive: the cache is keyed by it
  CellGrid grid_;
  Vec3 lower_ = Vec3::Zero(), upper_ = Vec3::Zero();  // box of the pebble centres [m]
  double maxReach_ = 0.0;
  std::vector<std::uint32_t> groupStart_{0}, groupPebble_;
};

}  // namespace clumplab
