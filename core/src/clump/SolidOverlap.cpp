// The volumes two solids share, line by line (SolidOverlap.hpp).
#include "core/clump/SolidOverlap.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/base/ThreadPool.hpp"

namespace clumplab {

namespace {

double lengthOf(const std::vector<Span>& spans) {
  double sum = 0.0;
  for (const Span& s : spans) sum += s.end - s.begin;
  return sum;
}

// The length two sorted, disjoint span lists share.
double sharedLength(const std::vector<Span>& a, const std::vector<Span>& b) {
  double sum = 0.0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const double lo = std::max(a[i].begin, b[j].begin), hi = std::min(a[i].end, b[j].end);
    if (hi > lo) sum += hi - lo;
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return sum;
}

struct Lengths {
  double a = 0.0, b = 0.0, both = 0.0;
};

}  // namespace

SolidOverlap solidOverlap(const Solid& a, const Solid& b, int rowsPerSide, double shift,
                          const WorkProgress& progress) {
  Vec3 loA, hiA, loB, hiB;
  a.bounds(loA, hiA);
  b.bounds(loB, hiB);
  const Vec3 lower = loA.cwiseMin(loB), upper = hiA.cwiseMax(hiB);
  SolidOverlap out;
  out.rowsPerSide = std::max(1, rowsPerSide);
  // As many rows across y as across z, whatever the box's shape: a thin solid is sampled as finely
  // across its thickness as along its breadth.
  const double cellY = (upper.y() - lower.y()) / out.rowsPerSide,
               cellZ = (upper.z() - lower.z()) / out.rowsPerSide;
  if (!(cellY > 0.0 && cellZ > 0.0)) return out;
  const int rowsY = out.rowsPerSide, rowsZ = out.rowsPerSide;
  // One task per z layer of rows, each summing its own layer: the same sums in the same order
  // whatever the number of threads.
  std::vector<Lengths> layers(static_cast<std::size_t>(rowsZ));
  ThreadPool pool(ThreadPool::machineThreads());
  constexpr std::size_t kLayersPerBatch = 64;
  for (std::size_t first = 0; first < layers.size(); first += kLayersPerBatch) {
    const std::size_t count = std::min(kLayersPerBatch, layers.size() - first);
    pool.run(count, [&](std::size_t k) {
      const std::size_t layer = first + k;
      if (progress.cancelled()) return;
      const double z = lower.z() + (static_cast<double>(layer) + shift) * cellZ;
      std::vector<Span> spansA, spansB;
      Lengths sum;
      for (int j = 0; j < rowsY; ++j) {
        const double y = lower.y() + (j + shift) * cellY;
        a.spansAlongX(y, z, spansA);
        b.spansAlongX(y, z, spansB);
        sum.a += lengthOf(spansA);
        sum.b += lengthOf(spansB);
        sum.both += sharedLength(spansA, spansB);
      }
      layers[layer] = sum;
    });
    progress.report(static_cast<double>(first + count) / static_cast<double>(layers.size()),
                    "overlap " + std::to_string(out.rowsPerSide) + " rows per side");
  }
  Lengths total;
  for (const Lengths& l : layers) {
    total.a += l.a;
    total.b += l.b;
    total.both += l.both;
  }
  const double area = cellY * cellZ;
  out.volumeA = total.a * area;
  out.volumeB = total.b * area;
  out.volumeBoth = total.both * area;
  return out;
}

SolidOverlap solidOverlapWithinBudget(const Solid& a, const Solid& b, double diceBudget, int maxRowsPerSide,
                                      const WorkProgress& progress) {
  const WorkProgress quiet = progress.silent();
  SolidOverlap previous = solidOverlap(a, b, 32, 0.5, quiet);
  for (int rows = 64;; rows *= 2) {
    SolidOverlap current = solidOverlap(a, b, rows, 0.5, quiet);
    current.diceErrorEstimate = std::abs(current.dice() - previous.dice());
    const bool last = 2 * rows > maxRowsPerSide;
    // The shifted grid only where it can decide: after half the rows agreed, and before the last
    // rows allowed (a mesh's lines are most of a fill's time; the result is the same either way).
    if (current.diceErrorEstimate < diceBudget && !last) {
      const SolidOverlap shifted = solidOverlap(a, b, rows, 0.382, quiet);
      current.diceErrorEstimate =
          std::max(current.diceErrorEstimate, std::abs(current.dice() - shifted.dice()));
    }
    const bool done = current.diceErrorEstimate < diceBudget || last;
    // Each doubling costs four times the last: report the share of the largest resolution's work.
    progress.report(
        done ? 1.0
             : std::min(1.0, static_cast<double>(rows) * rows / (double(maxRowsPerSide) * maxRowsPerSide)),
        "overlap " + std::to_string(rows) + " rows per side");
    if (done) return current;
    previous = current;
  }
}

}  // namespace clumplab
