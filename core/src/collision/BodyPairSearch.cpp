#include "BodyPairSearch.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clumplab {

namespace {
// A pair range is padded by this relative amount: the pebble level decides exactly, so the body
// level may list a few more pairs but must never miss one to rounding.
constexpr double kPad = 1e-9;
// Searches reach this many skins beyond the boxes, though candidates are only those within one: the
// bodies found beyond bound the gap to every non-candidate, so a body with room around it (a falling
// or sparse one) gets a displacement limit of up to this many half skins, and lists are rebuilt
// that much less often.
constexpr double kMarginSearch = 4.0;
}  // namespace

void BodyPairSearch::build(const std::vector<Vec3>& lower, const std::vector<Vec3>& upper, double skin,
                           const PeriodicBox& box) {
  const std::size_t n = lower.size();
  skin_ = skin;
  box_ = box;
  classes_.clear();
  place_.resize(n);
  if (n == 0) return;
  const auto halfOf = [&](std::size_t b) -> Vec3 { return 0.5 * (upper[b] - lower[b]); };
  const auto centreOf = [&](std::size_t b) -> Vec3 {
    const Vec3 centre = 0.5 * (lower[b] + upper[b]);
    return box.any() ? box.wrap(centre) : centre;
  };

  // Size classes by largest half extent: [h0 2^k, h0 2^(k+1)), h0 the smallest.
  double smallest = std::numeric_limits<double>::infinity();
  for (std::size_t b = 0; b < n; ++b) smallest = std::min(smallest, halfOf(b).maxCoeff());
  smallest = std::max(smallest, 1e-12);
  std::vector<int> classOf(n);
  int top = 0;
  for (std::size_t b = 0; b < n; ++b) {
    const double ratio = std::max(halfOf(b).maxCoeff(), smallest) / smallest;
    const double k = std::floor(std::log2(ratio));  // NaN or infinite for a blown-up body: class 0 or 60
    classOf[b] = std::isnan(k) ? 0 : static_cast<int>(std::clamp(k, 0.0, 60.0));
    top = std::max(top, classOf[b]);
  }
  std::vector<int> slot(static_cast<std::size_t>(top) + 1, -1);
  std::vector<std::vector<std::uint32_t>> members;
  for (std::size_t b = 0; b < n; ++b) {
    int& s = slot[static_cast<std::size_t>(classOf[b])];
    if (s < 0) {
      s = static_cast<int>(classes_.size());
      classes_.emplace_back();
      members.emplace_back();
    }
    SizeClass& c = classes_[static_cast<std::size_t>(s)];
    members[static_cast<std::size_t>(s)].push_back(static_cast<std::uint32_t>(b));
    c.maxHalf = c.maxHalf.cwiseMax(halfOf(b));
  }
  std::vector<Vec3> points;
  for (std::size_t s = 0; s < classes_.size(); ++s) {
    SizeClass& c = classes_[s];
    points.clear();
    for (const std::uint32_t b : members[s]) points.push_back(centreOf(b));
    c.grid.build(points, 2.0 * c.maxHalf.maxCoeff() + skin, box);
    c.bound.resize(c.grid.item.size());
    for (std::size_t k = 0; k < c.grid.item.size(); ++k) {
      const std::uint32_t member = c.grid.item[k];  // into members[s] and points
      const std::uint32_t b = members[s][member];
      c.grid.item[k] = b;
      c.bound[k] = {points[member], halfOf(b)};
      place_[b] = {static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(k)};
    }
  }
}

double BodyPairSearch::partnersOf(std::uint32_t a, std::vector<std::uint32_t>& partners) const {
  partners.clear();
  const Bound& own = classes_[place_[a].sizeClass].bound[place_[a].item];
  const Vec3& x = own.centre;
  const Vec3& ha = own.half;
  const bool periodic = box_.any();
  const double inf = std::numeric_limits<double>::infinity();
  const double reach = skin_ * (1.0 + kPad);
  double gap = inf;
  for (const SizeClass& c : classes_) {
    const Vec3 halfWidth = (ha + c.maxHalf + Vec3::Constant(kMarginSearch * skin_)) * (1.0 + kPad);
    double nearest2 = inf;  // squared box distance of the nearest visited non-candidate [m^2]
    const Vec3 unvisited =
        searchCells(c.grid, box_, x, halfWidth, [&](std::uint32_t first, std::uint32_t last) {
          for (std::uint32_t s = first; s < last; ++s) {
            const Bound& bound = c.bound[s];
            Vec3 d = bound.centre - x;
            if (periodic) d = box_.minimumImage(d);
            // Separation of the boxes along each axis (negative where they overlap along it).
            const Vec3 separation = d.cwiseAbs() - ha - bound.half;
            if (separation.maxCoeff() < reach) {
              const std::uint32_t b = c.grid.item[s];
              if (b > a) partners.push_back(b);
            } else {
              nearest2 = std::min(nearest2, separation.cwiseMax(0.0).squaredNorm());
            }
          }
        });
    // A body binned in a cell the search skipped is, along some axis, at least `unvisited` from x,
    // so its box at least that minus both half extents from a's.
    const double skipped = (unvisited - ha - c.maxHalf).minCoeff();
    gap = std::min(gap, std::min(skipped, std::sqrt(nearest2)));
  }
  // b == a sits in its own class (separation < 0) but is not b > a: never listed.
  std::sort(partners.begin(), partners.end());
  return gap;
}

}  // namespace clumplab
