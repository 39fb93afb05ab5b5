#include "PebblePairSearch.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clumplab {

namespace {
// Searches are widened by this relative amount (and by kAbsolutePad times the coordinates' size)
// so that rounding in a change of frame never hides a partner: the pebble pair test itself is exact.
constexpr double kRelativePad = 1e-9;
constexpr double kAbsolutePad = 1e-12;
// Up to this many pebble pairs left after the box filters are tested one by one; more go through
// the template grid.
constexpr std::size_t kDirectPairs = 256;

// The squared distance [m^2] between the boxes [lower, upper] and [l, u] (0 where they overlap along an
// axis): a group's box, or with l = u a pebble's centre, against the other body's box.
double squaredBoxGap(const Vec3& lower, const Vec3& upper, const Vec3& l, const Vec3& u) {
  const double sx = std::max(std::max(lower.x() - u.x(), l.x() - upper.x()), 0.0);
  const double sy = std::max(std::max(lower.y() - u.y(), l.y() - upper.y()), 0.0);
  const double sz = std::max(std::max(lower.z() - u.z(), l.z() - upper.z()), 0.0);
  return sx * sx + sy * sy + sz * sz;
}
}  // namespace

PebblePairSearch::PebblePairSearch(const BroadPhaseInput& in, const std::vector<TemplateGrid>& grids,
                                   const std::vector<double>& reach, const Boxes& boxes, double skin,
                                   bool onePebbleShortcut)
    : in_(in),
      grids_(grids),
      reach_(reach),
      boxes_(boxes),
      skin_(skin),
      onePebbleShortcut_(onePebbleShortcut) {}

double PebblePairSearch::collect(std::uint32_t a, std::uint32_t b, std::vector<PebblePair>& out,
                                 Scratch& scratch) const {
  return in_.periodic.any() ? collectIn<true>(a, b, out, scratch) : collectIn<false>(a, b, out, scratch);
}

template <bool kPeriodic>
PebblePairSearch::BodyPair PebblePairSearch::pairOf(std::uint32_t a, std::uint32_t b) const {
  const TemplateGrid& ga = grids_[in_.bodyTemplate[a]];
  const TemplateGrid& gb = grids_[in_.bodyTemplate[b]];
  BodyPair pair;
  pair.aSearches =
      ga.maxReach() < gb.maxReach() || (ga.maxReach() == gb.maxReach() && ga.size() <= gb.size());
  pair.x = pair.aSearches ? a : b;
  pair.y = pair.aSearches ? b : a;
  pair.maxReachX = pair.aSearches ? ga.maxReach() : gb.maxReach();
  pair.maxReachY = pair.aSearches ? gb.maxReach() : ga.maxReach();
  // Each box's image nearest the other's (pebbles lie within their own body's box).
  pair.shift = Vec3::Zero();
  if constexpr (kPeriodic) {
    pair.shift = in_.periodic.imageShift(0.5 * (boxes_.bodyLower[pair.y] + boxes_.bodyUpper[pair.y]) -
                                         0.5 * (boxes_.bodyLower[pair.x] + boxes_.bodyUpper[pair.x]));
  }
  pair.lowerY = boxes_.bodyLower[pair.y] + pair.shift;
  pair.upperY = boxes_.bodyUpper[pair.y] + pair.shift;
  pair.lowerX = boxes_.bodyLower[pair.x] - pair.shift;
  pair.upperX = boxes_.bodyUpper[pair.x] - pair.shift;
  pair.pad = kAbsolutePad * (pair.lowerX.cwiseAbs().maxCoeff() + pair.upperX.cwiseAbs().maxCoeff() +
                             pair.lowerY.cwiseAbs().maxCoeff() + pair.upperY.cwiseAbs().maxCoeff());
  return pair;
}

// Pebbles of each body farther from the other's box than their reach plus the skin have no partner
// there (the box holds every pebble's reach); their distance to it bounds the gap of all their
// pairs. Groups of pebbles are tested first: a group whose box is the skin or more from the other's
// box is skipped whole, that distance bounding its pairs' gaps. The pebbles kept are gathered with
// their data for the pair tests, branch-free (whether a pebble is kept is as good as random): each
// is written and the count advanced by the test. Pebbles' gaps are bounded with the body's largest
// reach, so that a pair of bodies takes a square root or two, not one per pebble.
double PebblePairSearch::nearPebbles(std::uint32_t body, const Vec3& lower, const Vec3& upper,
                                     double maxReach, double pad, std::vector<Near>& kept) const {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const Vec3* pos = in_.pebblePosition.data();
  const double* reach = reach_.data();
  const double skin = skin_;
  const double groupRange = skin * (1.0 + kRelativePad) + pad;
  const TemplateGrid& grid = grids_[in_.bodyTemplate[body]];
  const std::uint32_t first = firstPebble(body);
  kept.resize(endPebble(body) - first);
  Near* into = kept.data();
  std::size_t count = 0;
  double nearest2 = inf;   // [m^2] squared distance to the box of the nearest filtered pebble
  double groupGap2 = inf;  // [m^2] squared box distance of the nearest skipped group
  const std::uint32_t firstGroup = boxes_.bodyFirstGroup[body];
  const std::uint32_t* members = grid.groupPebble().data();
  const std::uint32_t* groupStart = grid.groupStart().data();
  for (std::uint32_t g = 0, groups = static_cast<std::uint32_t>(grid.groupCount()); g < groups; ++g) {
    const double g2 =
        squaredBoxGap(lower, upper, boxes_.groupLower[firstGroup + g], boxes_.groupUpper[firstGroup + g]);
    if (g2 >= groupRange * groupRange) {
      groupGap2 = std::min(groupGap2, g2);
      continue;
    }
    for (std::uint32_t m = groupStart[g]; m < groupStart[g + 1]; ++m) {
      const std::uint32_t i = first + members[m];
      const double d2 = squaredBoxGap(lower, upper, pos[i], pos[i]);
      const double range = (reach[i] + skin) * (1.0 + kRelativePad) + pad;
      const bool inside = d2 < range * range;
      into[count] = {pos[i], reach[i], i};
      count += inside ? 1 : 0;
      nearest2 = std::min(nearest2, inside ? inf : d2);
    }
  }
  kept.resize(count);
  double bound = inf;
  if (groupGap2 < inf) bound = std::min(bound, std::sqrt(groupGap2));
  if (nearest2 < inf) bound = std::min(bound, std::sqrt(nearest2) - maxReach);
  return bound;
}

// Few pairs left: each one (pairs with a filtered pebble are bounded above), written branch-free as
// above.
template <bool kPeriodic>
double PebblePairSearch::pairsOneByOne(const BodyPair& pair, const Scratch& scratch,
                                       std::vector<PebblePair>& out) const {
  double unlisted2 = std::numeric_limits<double>::infinity();  // of the nearest pair left unlisted [m^2]
  const std::size_t start = out.size();
  out.resize(start + scratch.nearX.size() * scratch.nearY.size());
  PebblePair* next = out.data() + start;
  const bool aSearches = pair.aSearches;
  for (const Near& p : scratch.nearX) {
    for (const Near& q : scratch.nearY) {
      Vec3 d = q.position - p.position;
      if constexpr (kPeriodic) d = in_.periodic.minimumImage(d);
      const double d2 = d.squaredNorm();
      // Summed in pebble order (a's first): the same range, to the bit, as a test of pair (a, b).
      const double range = (aSearches ? p.reach + q.reach : q.reach + p.reach) + skin_;
      const bool listed = d2 < range * range;
      *next = aSearches ? PebblePair{p.index, q.index} : PebblePair{q.index, p.index};
      next += listed ? 1 : 0;
      unlisted2 = std::min(unlisted2, listed ? std::numeric_limits<double>::infinity() : d2);
    }
  }
  out.resize(static_cast<std::size_t>(next - out.data()));
  return std::sqrt(unlisted2) - pair.maxReachX - pair.maxReachY;
}

// Many: x's remaining pebbles, taken into y's frame, search y's template grid.
template <bool kPeriodic>
double PebblePairSearch::pairsThroughGrid(const BodyPair& pair, const Scratch& scratch,
                                          std::vector<PebblePair>& out) const {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const Vec3* pos = in_.pebblePosition.data();
  const double* reach = reach_.data();
  const TemplateGrid& gy = grids_[in_.bodyTemplate[pair.y]];
  const Mat3 toY = in_.bodyOrientation[pair.y].toRotationMatrix().transpose();
  const Vec3 centreY = in_.bodyPosition[pair.y] + pair.shift;
  const std::uint32_t firstY = firstPebble(pair.y);
  const bool aSearches = pair.aSearches;
  double unlisted2 = inf;  // squared centre distance of the nearest tested pair left unlisted [m^2]
  double outside = inf;    // distance of the searching pebbles to the centres they did not visit [m]
  for (const Near& p : scratch.nearX) {
    const Vec3 q = toY * (p.position - centreY);
    const double halfWidth = (p.reach + pair.maxReachY + skin_) * (1.0 + kRelativePad) + pair.pad;
    const double toBox = gy.distanceToCentres(q);
    if (toBox >= halfWidth) {
      outside = std::min(outside, toBox);
      continue;
    }
    outside = std::min(outside, gy.forEachNear(q, halfWidth, [&](std::uint32_t k) {
      const std::uint32_t j = firstY + k;
      Vec3 d = pos[j] - p.position;
      if constexpr (kPeriodic) d = in_.periodic.minimumImage(d);
      const double d2 = d.squaredNorm();
      const double range = (aSearches ? p.reach + reach[j] : reach[j] + p.reach) + skin_;
      if (d2 < range * range) {
        // Pairs come out as (pebble of a, pebble of b).
        out.push_back(aSearches ? PebblePair{p.index, j} : PebblePair{j, p.index});
      } else {
        unlisted2 = std::min(unlisted2, d2);
      }
    }));
  }
  return std::min(std::sqrt(unlisted2), outside) - pair.maxReachX - pair.maxReachY;
}

// nearPebbles for each body, then pairsOneByOne, written out for one pebble each: a body's one group
// box is its body box (the union of one box), the kept lists hold at most that pebble, and every
// bound is the expression those functions take of the same values.
template <bool kPeriodic>
double PebblePairSearch::collectOnePebbleEach(std::uint32_t a, std::uint32_t b,
                                              std::vector<PebblePair>& out) const {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const BodyPair pair = pairOf<kPeriodic>(a, b);
  const double groupRange = skin_ * (1.0 + kRelativePad) + pair.pad;
  // Body `body`'s pebble against the box [lower, upper]: its bound, and whether it is kept.
  const auto near = [&](std::uint32_t body, const Vec3& lower, const Vec3& upper, double maxReach,
                        bool& kept) {
    kept = false;
    const double g2 = squaredBoxGap(lower, upper, boxes_.bodyLower[body], boxes_.bodyUpper[body]);
    if (g2 >= groupRange * groupRange) return std::min(inf, std::sqrt(std::min(inf, g2)));
    const std::uint32_t i = firstPebble(body);
    const Vec3& p = in_.pebblePosition[i];
    const double d2 = squaredBoxGap(lower, upper, p, p);
    const double range = (reach_[i] + skin_) * (1.0 + kRelativePad) + pair.pad;
    kept = d2 < range * range;
    return kept ? inf : std::min(inf, std::sqrt(std::min(inf, d2)) - maxReach);
  };
  bool keptX = false, keptY = false;
  double margin = near(pair.x, pair.lowerY, pair.upperY, pair.maxReachX, keptX);
  if (!keptX) return margin;
  margin = std::min(margin, near(pair.y, pair.lowerX, pair.upperX, pair.maxReachY, keptY));
  if (!keptY) return margin;
  const std::uint32_t i = firstPebble(pair.x), j = firstPebble(pair.y);
  Vec3 d = in_.pebblePosition[j] - in_.pebblePosition[i];
  if constexpr (kPeriodic) d = in_.periodic.minimumImage(d);
  const double d2 = d.squaredNorm();
  const double range = (pair.aSearches ? reach_[i] + reach_[j] : reach_[j] + reach_[i]) + skin_;
  if (d2 < range * range) {
    out.push_back(pair.aSearches ? PebblePair{i, j} : PebblePair{j, i});
    return margin;  // both pebbles kept: infinite, as pairsOneByOne leaves it with no pair unlisted
  }
  return std::min(margin, std::sqrt(std::min(inf, d2)) - pair.maxReachX - pair.maxReachY);
}

template <bool kPeriodic>
double PebblePairSearch::collectIn(std::uint32_t a, std::uint32_t b, std::vector<PebblePair>& out,
                                   Scratch& scratch) const {
  if (onePebbleShortcut_ && grids_[in_.bodyTemplate[a]].size() == 1 &&
      grids_[in_.bodyTemplate[b]].size() == 1)
    return collectOnePebbleEach<kPeriodic>(a, b, out);
  const BodyPair pair = pairOf<kPeriodic>(a, b);
  double margin = nearPebbles(pair.x, pair.lowerY, pair.upperY, pair.maxReachX, pair.pad, scratch.nearX);
  if (scratch.nearX.empty()) return margin;
  margin = std::min(margin,
                    nearPebbles(pair.y, pair.lowerX, pair.upperX, pair.maxReachY, pair.pad, scratch.nearY));
  if (scratch.nearY.empty()) return margin;
  const double unlisted = scratch.nearX.size() * scratch.nearY.size() <= kDirectPairs
                              ? pairsOneByOne<kPeriodic>(pair, scratch, out)
                              : pairsThroughGrid<kPeriodic>(pair, scratch, out);
  return std::min(margin, unlisted);
}

template double PebblePairSearch::collectIn<true>(std::uint32_t, std::uint32_t, std::vector<PebblePair>&,
                                                  Scratch&) const;
template double PebblePairSearch::collectIn<false>(std::uint32_t, std::uint32_t, std::vector<PebblePair>&,
                                                   Scratch&) const;

}  // namespace clumplab
