#include "WindingField.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "MeshTopology.hpp"

namespace clumplab::shapes::detail {

namespace {

// Appends the part of [a, b] where r + d >= 1/2, d linear from da to db, merging with the last span.
void appendPiece(double a, double b, int r, double da, double db, std::vector<Span>& out) {
  if (!(b > a)) return;
  const double fa = r + da - 0.5, fb = r + db - 0.5;
  double begin = a, end = b;
  if (fa < 0.0 && fb < 0.0) return;
  if (fa < 0.0) begin = a + (b - a) * (-fa / (fb - fa));
  if (fb < 0.0) end = a + (b - a) * (fa / (fa - fb));
  if (!out.empty() && begin <= out.back().end) {
    out.back().end = std::max(out.back().end, end);
  } else {
    out.push_back({begin, end});
  }
}

}  // namespace

WindingField::WindingField(const TriangleBvh& bvh)
    : openEdgeCount_(unpairedEdges(bvh.mesh()).size()), tree_(bvh) {}

double WindingField::at(const TriangleBvh& bvh, const Vec3& p) const {
  return openEdgeCount_ > 0 ? tree_.at(p) : static_cast<double>(bvh.windingNumber(p));
}

bool WindingField::contains(const TriangleBvh& bvh, const Vec3& p) const {
  if ((p.array() < bvh.lower().array()).any() || (p.array() > bvh.upper().array()).any()) return false;
  return openEdgeCount_ > 0 ? tree_.at(p) >= 0.5 : bvh.windingNumber(p) >= 1;
}

void WindingField::spansAlongX(const TriangleBvh& bvh, double y, double z, std::vector<Span>& out) const {
  out.clear();
  const Vec3& lower = bvh.lower();
  const Vec3& upper = bvh.upper();
  if (y < lower.y() || y > upper.y() || z < lower.z() || z > upper.z() || !(upper.x() > lower.x())) return;
  thread_local std::vector<TriangleBvh::Crossing> crossings;
  bvh.crossingsAlongX(y, z, crossings);
  std::sort(crossings.begin(), crossings.end(),
            [](const TriangleBvh::Crossing& a, const TriangleBvh::Crossing& b) { return a.x < b.x; });
  // beyond[i]: the sum of the signs of crossings i, i + 1, ... (r just before crossing i).
  thread_local std::vector<int> beyond;
  beyond.assign(crossings.size() + 1, 0);
  for (std::size_t i = crossings.size(); i-- > 0;) beyond[i] = beyond[i + 1] + crossings[i].sign;
  const auto firstBeyond = [&](double x) {
    return static_cast<std::size_t>(
        std::upper_bound(crossings.begin(), crossings.end(), x,
                         [](double v, const TriangleBvh::Crossing& c) { return v < c.x; }) -
        crossings.begin());
  };

  // Samples of d = w - r: at the box's ends only (d = 0) without open edges.
  struct Sample {
    double x, d;
  };
  thread_local std::vector<Sample> samples;
  samples.clear();
  if (openEdgeCount_ == 0) {
    samples.push_back({lower.x(), 0.0});
    samples.push_back({upper.x(), 0.0});
  } else {
    // Adaptive steps: a step over which d changes by more than kMaxChange is halved and tried
    // again (down to minStep), one over which it changes by less than a quarter of that is doubled
    // for the next (up to the box's length; the first is a quarter of it). A line through a hole
    // sees d fall by about 1 across it and is refined there; d changes little far from holes and
    // near cracks (open edges whose neighbours close them geometrically), where few samples do.
    constexpr double kMaxChange = 0.1;
    const double diagonal = (upper - lower).norm(), length = upper.x() - lower.x();
    const double minStep = diagonal / 1024.0, maxStep = length, onSurface = 1e-12 * diagonal;
    const auto sampleAt = [&](double x) {
      // A point on a crossing sees that triangle edge-on (d off by 1/2 there): step aside.
      const std::size_t next = firstBeyond(x);
      const bool onNext = next < crossings.size() && crossings[next].x - x <= onSurface;
      const bool onLast = next > 0 && x - crossings[next - 1].x <= onSurface;
      if (onNext || onLast) x += (x + 1e-9 * diagonal <= upper.x() ? 1e-9 : -1e-9) * diagonal;
      return Sample{x, tree_.at(Vec3(x, y, z)) - beyond[firstBeyond(x)]};
    };
    samples.push_back(sampleAt(lower.x()));
    // The samples a halving turned down, by where they were asked for: after the halved step is
    // taken, the next one often asks for the same point again (the same bits; a tenth of the samples).
    thread_local std::vector<std::pair<double, Sample>> turnedDown;
    turnedDown.clear();
    for (double x = lower.x(), step = 0.25 * maxStep; x < upper.x();) {
      const double nextX = std::min(x + step, upper.x());
      const auto known = std::find_if(turnedDown.begin(), turnedDown.end(),
                                      [&](const std::pair<double, Sample>& k) { return k.first == nextX; });
      const Sample next = known != turnedDown.end() ? known->second : sampleAt(nextX);
      const double change = std::abs(next.d - samples.back().d);
      if (change > kMaxChange && step > minStep) {
        step = std::max(0.5 * step, minStep);
        if (known == turnedDown.end()) turnedDown.emplace_back(nextX, next);
        continue;
      }
      samples.push_back(next);
      x = nextX;
      std::erase_if(turnedDown, [&](const std::pair<double, Sample>& k) { return k.first <= x; });
      if (change < 0.25 * kMaxChange) step = std::min(2.0 * step, maxStep);
    }
    // The first and last samples span the box even when moved aside.
    samples.front().x = lower.x();
    samples.back().x = upper.x();
  }

  // Pieces between consecutive samples and crossings: r constant, d linear on each.
  std::size_t c = firstBeyond(lower.x());
  int r = beyond[c];
  for (std::size_t k = 0; k + 1 < samples.size(); ++k) {
    const Sample& s0 = samples[k];
    const Sample& s1 = samples[k + 1];
    const auto d = [&](double x) {
      return s1.x > s0.x ? s0.d + (s1.d - s0.d) * (x - s0.x) / (s1.x - s0.x) : s0.d;
    };
    double a = s0.x;
    while (c < crossings.size() && crossings[c].x < s1.x) {
      const double b = crossings[c].x;
      appendPiece(a, b, r, d(a), d(b), out);
      while (c < crossings.size() && crossings[c].x == b) r -= crossings[c++].sign;
      a = b;
    }
    appendPiece(a, s1.x, r, d(a), s1.d, out);
  }
}

}  // namespace clumplab::shapes::detail
