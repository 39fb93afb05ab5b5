#include "TemplateGrid.hpp"

#include <algorithm>

namespace clumplab {

namespace {
// Templates with at most this many pebbles are one cell: a search visits them all, which is
// cheaper than locating cells for so few.
constexpr std::size_t kOneCellPebbles = 12;
}  // namespace

TemplateGrid::TemplateGrid(const TemplatePtr& source) : source_(source) {
  std::vector<Vec3> centres;
  centres.reserve(source->pebbles.size());
  for (const Pebble& p : source->pebbles) {
    centres.push_back(p.center);
    maxReach_ = std::max(maxReach_, p.reach());
  }
  if (centres.empty()) centres.push_back(Vec3::Zero());  // never searched: no pebble to visit
  lower_ = upper_ = centres[0];
  for (const Vec3& c : centres) {
    lower_ = lower_.cwiseMin(c);
    upper_ = upper_.cwiseMax(c);
  }
  // Cells about one pebble diameter wide: a search for a pebble no larger than the template's
  // covers two or three cells per axis.
  const double extent = (upper_ - lower_).maxCoeff();
  const double cell =
      centres.size() <= kOneCellPebbles ? 2.0 * extent + 1e-12 : std::max(2.0 * maxReach_, 1e-12);
  grid_.build(centres, cell, PeriodicBox{});
  if (source->pebbles.empty()) {
    grid_.item.clear();
    std::fill(grid_.start.begin(), grid_.start.end(), 0u);
    return;
  }

  // Groups: median splits along the longest side, ties broken by index (the same groups everywhere).
  groupPebble_.resize(source->pebbles.size());
  for (std::uint32_t k = 0; k < groupPebble_.size(); ++k) groupPebble_[k] = k;
  split(centres, 0, groupPebble_.size());
}

void TemplateGrid::split(const std::vector<Vec3>& centres, std::size_t begin, std::size_t end) {
  if (end - begin <= kGroupSize) {
    groupStart_.push_back(static_cast<std::uint32_t>(end));
    return;
  }
  Vec3 lo = centres[groupPebble_[begin]], hi = lo;
  for (std::size_t k = begin; k < end; ++k) {
    lo = lo.cwiseMin(centres[groupPebble_[k]]);
    hi = hi.cwiseMax(centres[groupPebble_[k]]);
  }
  int axis = 0;
  (hi - lo).maxCoeff(&axis);
  std::sort(groupPebble_.begin() + static_cast<std::ptrdiff_t>(begin),
            groupPebble_.begin() + static_cast<std::ptrdiff_t>(end), [&](std::uint32_t p, std::uint32_t q) {
              const double cp = centres[p][axis], cq = centres[q][axis];
              return cp != cq ? cp < cq : p < q;
            });
  const std::size_t middle = begin + (end - begin) / 2;
  split(centres, begin, middle);
  split(centres, middle, end);
}

}  // namespace clumplab
