// Spheres of varied radii fitted to a solid by a greedy cover with medial balls (SphereFit.hpp).
#include "shapes/SphereFit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "SolidVoxels.hpp"
#include "SphereRefine.hpp"
#include "core/base/ThreadPool.hpp"
#include "core/clump/SolidOverlap.hpp"
#include "shapes/ClumpQuality.hpp"

namespace clumplab::shapes {

namespace {

constexpr int kDefaultVoxelsPerSide = 160;
constexpr double kOutsideWeight = 3.0;
constexpr double kVoxelsPerThickness = 24.0;
constexpr int kMostVoxelsPerSide = 480;  // what covering an outside voxel costs, in inside voxels

// A ball the selection may take: a centre on the solid's medial ridges and a radius.
struct Candidate {
  Vec3 center;    // [m]
  double radius;  // [m]
};

// What a ball would add: inside voxels not yet covered (a), outside voxels not yet covered (b).
struct Gain {
  std::int64_t inside = 0;
  std::int64_t outside = 0;
};

// A fraction of a voxel in [0, 1) from the seed (SplitMix64).
double seededFraction(std::uint64_t seed, int axis) {
  std::uint64_t x = seed + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(axis + 1);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) * 0x1.0p-53;
}

// The union of spheres chosen to cover a solid errs on the side of the gaps the target leaves (a Dice of
// 0.95 allows the union 5-10% less volume than the solid). Every radius is changed by one amount
// delta, within what each may reach (its depth plus the protrusion allowed, and at least half its
// radius), delta found by bisection so that the union's volume is the solid's (measured exactly along
// lines, SolidOverlap.hpp). Kept where the Dice coefficient stays at `diceFloor` (the target; 0: within
// 5e-3 of what it was), else half or a quarter of it.
void balanceVolume(const MeshSolid& solid, SphereFitResult& result, double diceFloor,
                   const WorkProgress& progress) {
  if (result.pebbles.empty()) return;
  const WorkProgress quiet = progress.silent();
  const std::vector<Pebble> chosen = result.pebbles;
  std::vector<double> depths(chosen.size());
  for (std::size_t n = 0; n < chosen.size(); ++n)
    depths[n] = std::max(0.0, solid.signedDistance(chosen[n].center));
  const auto withDelta = [&](double delta) {
    std::vector<Pebble> p = chosen;
    for (std::size_t n = 0; n < p.size(); ++n) {
      const double most = depths[n] + result.maxProtrusion;
      p[n].radius =
          std::clamp(chosen[n].radius + delta, 0.5 * chosen[n].radius, std::max(most, chosen[n].radius));
    }
    return p;
  };
  constexpr int kRows = 256;
  const auto measure = [&](const std::vector<Pebble>& p) {
    const PebbleUnion u(p);
    return solidOverlap(solid, u, kRows, 0.5, quiet);
  };
  const SolidOverlap before = measure(chosen);
  const double ratio0 = before.volumeB / before.volumeA;
  if (std::abs(ratio0 - 1.0) < 2e-3) return;
  // Grow (the union short of the solid) or shrink, by at most the largest change a radius may take.
  const bool grow = ratio0 < 1.0;
  double reach = 0.0;
  for (std::size_t n = 0; n < chosen.size(); ++n)
    reach =
        std::max(reach, grow ? depths[n] + result.maxProtrusion - chosen[n].radius : 0.5 * chosen[n].radius);
  if (!(reach > 0.0)) return;
  double lo = grow ? 0.0 : -reach, hi = grow ? reach : 0.0;
  for (int i = 0; i < 16; ++i) {
    const double mid = 0.5 * (lo + hi);
    const SolidOverlap o = measure(withDelta(mid));
    if (o.volumeB < o.volumeA) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  const double delta = grow ? hi : lo;  // the side where the volume is reached
  // The whole change, or half or a quarter of it, the first that keeps the Dice coefficient at the
  // floor: the target when there is one, else within 5e-3 of the Dice before.
  const double floor = diceFloor > 0.0 ? diceFloor : before.dice() - 5e-3;
  for (const double share : {1.0, 0.5, 0.25}) {
    std::vector<Pebble> balanced = withDelta(share * delta);
    if (measure(balanced).dice() >= floor) {
      result.pebbles = std::move(balanced);
      return;
    }
  }
}

// The greedy order's shortest prefix that, refined (SphereRefine.hpp), reaches the target Dice, found by
// bisection over the prefix's length (to 1/128 of the greedy's count). Without a target, or where all
// the spheres refined fall short of it, all of them refined. Measured on the seven meshes of
// tests/bench/fill at Dice 0.95: 8-48% fewer spheres than the greedy cover alone (wing nut 75 -> 52,
// hex nut 274 -> 146), and the plate and the bracket, which the greedy did not bring to 0.95 in 1000
// spheres, at 275 and 181.
void refine(const MeshSolid& solid, const SolidVoxels& grid, const SphereFitSettings& settings,
            SphereFitResult& result, const WorkProgress& progress) {
  const std::vector<Pebble> order = result.pebbles;
  if (order.empty()) return;
  SphereRefineSettings rs;
  rs.maxProtrusion = result.maxProtrusion;
  rs.minRadius = settings.minRadius;
  // Each prefix refined, then measured exactly (SolidOverlap.hpp): the working grid, which the
  // refinement fits to, reads a refined union's Dice up to 1e-2 high, the more the more spheres.
  int refinements = 0;
  const auto refinedPrefix = [&](std::size_t count) {
    // About log2(count) + 2 refinements in all.
    progress.report(std::min(0.95, 0.7 + 0.025 * refinements++),
                    "refining " + std::to_string(count) + " spheres");
    std::vector<Pebble> s =
        refineSpheres(solid, grid, {order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count)}, rs,
                      progress.silent());
    const double exact = overlapWithMesh(solid, PebbleUnion(s), progress.silent()).dice();
    double reach = 0.0;
    for (const Pebble& p : s) reach = std::max(reach, p.radius - solid.signedDistance(p.center));
    result.refinedCurve.push_back({static_cast<int>(count), exact, 0.0, reach});
    return s;
  };
  std::size_t hi = order.size();
  std::vector<Pebble> found = refinedPrefix(hi);
  double foundDice = result.refinedCurve.back().dice;
  if (settings.targetDice > 0.0 && foundDice >= settings.targetDice) {
    result.stopReason = "target Dice";
    std::size_t lo = 0;
    while (hi - lo > std::max<std::size_t>(1, hi / 128)) {
      const std::size_t mid = (lo + hi) / 2;
      std::vector<Pebble> s = refinedPrefix(mid);
      if (result.refinedCurve.back().dice >= settings.targetDice) {
        hi = mid;
        found = std::move(s);
        foundDice = result.refinedCurve.back().dice;
      } else {
        lo = mid;
      }
    }
  }
  result.measuredDice = foundDice;
  std::sort(result.refinedCurve.begin(), result.refinedCurve.end(),
            [](const SphereFitPoint& a, const SphereFitPoint& b) { return a.count < b.count; });
  result.pebbles = std::move(found);
}

void checkSettings(const SphereFitSettings& settings) {
  if (!(settings.targetDice >= 0.0 && settings.targetDice <= 1.0))
    throw std::invalid_argument("the target Dice coefficient must lie in [0, 1]");
  if (settings.maxCount < 1 || settings.maxCount > 60000)
    throw std::invalid_argument("the largest sphere count must lie in [1, 60000]");
  if (!(settings.minRadius >= 0.0)) throw std::invalid_argument("the smallest radius must not be negative");
  if (settings.voxelsPerSide < 0 || settings.voxelsPerSide > 1024)
    throw std::invalid_argument("the working grid must have at most 1024 voxels per side");
}

// The largest protrusion allowed [m]: the one asked for, or 2% of the solid's size.
double protrusionBound(const SphereFitSettings& settings, double extent) {
  const double p = settings.maxProtrusion < 0.0 ? 0.02 * extent : settings.maxProtrusion;
  if (p > extent) {
    char text[256];
    std::snprintf(
        text, sizeof text,
        "the largest protrusion allowed, %.3g m, is more than the solid's size (%.3g m across): give it "
        "in metres after the scale",
        p, extent);
    throw std::invalid_argument(text);
  }
  return p;
}

// The working grid: voxels reaching a protrusion and two voxels beyond the solid, shifted by the
// seed's fraction of a voxel, with each inside voxel's squared depth [voxels^2].
struct WorkingGrid {
  std::unique_ptr<const SolidVoxels> voxels;
  std::vector<double> squaredDepth;
};

WorkingGrid workingGrid(const MeshSolid& solid, const SphereFitSettings& settings, double protrusion,
                        SphereFitResult& result, const WorkProgress& progress) {
  Vec3 lower, upper;
  solid.bounds(lower, upper);
  const double extent = (upper - lower).maxCoeff();
  const auto voxelize = [&](double size) {
    const Vec3 pad = Vec3::Constant(protrusion + 2.0 * size);
    Vec3 shift = Vec3::Zero();
    if (settings.seed != 0)
      for (int a = 0; a < 3; ++a) shift[a] = (seededFraction(settings.seed, a) - 0.5) * size;
    WorkingGrid g;
    g.voxels = std::make_unique<const SolidVoxels>(solid, lower - pad + shift, upper + pad + shift, size,
                                                   progress.part(0.0, 0.2));
    g.squaredDepth = g.voxels->squaredDepth();
    return g;
  };
  result.voxelsPerSide = settings.voxelsPerSide > 0 ? settings.voxelsPerSide : kDefaultVoxelsPerSide;
  double h = extent / result.voxelsPerSide;
  WorkingGrid g = voxelize(h);
  if (settings.voxelsPerSide == 0) {
    // A thin solid (a plate, a bracket's legs) gets voxels fine enough for its thickness: at least
    // kVoxelsPerThickness across its thickest part (twice its largest inscribed radius), up to
    // kMostVoxelsPerSide along its largest extent.
    const double thickness =
        2.0 * std::sqrt(*std::max_element(g.squaredDepth.begin(), g.squaredDepth.end())) * h;
    if (thickness > 0.0 && thickness / h < kVoxelsPerThickness) {
      h = std::max(thickness / kVoxelsPerThickness, extent / kMostVoxelsPerSide);
      result.voxelsPerSide = static_cast<int>(std::ceil(extent / h));
      g = voxelize(h);
    }
  }
  result.voxelSize = h;
  if (g.voxels->insideCount() == 0)
    throw std::invalid_argument("nothing of the solid is inside at the working resolution");
  return g;
}

// Candidate centres: inside voxels on a ridge of the distance to the outside (no larger than both
// neighbours along some axis), the deepest first, each kept unless a kept one lies within a quarter
// of its depth (balls whose centres differ by that cover nearly the same voxels). A grid of kept
// centres, cells of kThinCell voxels, answers the question.
std::vector<Vec3> medialCentres(const WorkingGrid& working) {
  const SolidVoxels& grid = *working.voxels;
  const auto depth = [&](int i, int j, int k) {
    if (i < 0 || j < 0 || k < 0 || i >= grid.nx() || j >= grid.ny() || k >= grid.nz()) return 0.0;
    return working.squaredDepth[grid.index(i, j, k)];
  };
  struct Ridge {
    double depth2;  // [voxels^2]
    int i, j, k;
  };
  std::vector<Ridge> ridges;
  for (int k = 0; k < grid.nz(); ++k)
    for (int j = 0; j < grid.ny(); ++j)
      for (int i = 0; i < grid.nx(); ++i) {
        const double here = depth(i, j, k);
        if (here == 0.0) continue;
        // A plateau two voxels wide (an even thickness) keeps its lower voxel only.
        const bool ridge = (here >= depth(i - 1, j, k) && here > depth(i + 1, j, k)) ||
                           (here >= depth(i, j - 1, k) && here > depth(i, j + 1, k)) ||
                           (here >= depth(i, j, k - 1) && here > depth(i, j, k + 1));
        if (ridge) ridges.push_back({here, i, j, k});
      }
  std::stable_sort(ridges.begin(), ridges.end(),
                   [](const Ridge& a, const Ridge& b) { return a.depth2 > b.depth2; });
  constexpr int kThinCell = 4;
  const int cx = grid.nx() / kThinCell + 1, cy = grid.ny() / kThinCell + 1, cz = grid.nz() / kThinCell + 1;
  std::vector<std::vector<std::uint32_t>> kept(static_cast<std::size_t>(cx) * cy * cz);
  std::vector<Vec3> centers;
  std::vector<Eigen::Vector3i> keptVoxels;
  for (const Ridge& r : ridges) {
    const double spacing = 0.25 * std::sqrt(r.depth2);  // [voxels]
    const int reach = static_cast<int>(std::ceil(spacing / kThinCell));
    const int ci = r.i / kThinCell, cj = r.j / kThinCell, ck = r.k / kThinCell;
    bool near = false;
    for (int c = std::max(0, ck - reach); c <= std::min(cz - 1, ck + reach) && !near; ++c)
      for (int b = std::max(0, cj - reach); b <= std::min(cy - 1, cj + reach) && !near; ++b)
        for (int a = std::max(0, ci - reach); a <= std::min(cx - 1, ci + reach) && !near; ++a)
          for (const std::uint32_t n : kept[(static_cast<std::size_t>(c) * cy + b) * cx + a]) {
            const Eigen::Vector3i d = keptVoxels[n] - Eigen::Vector3i(r.i, r.j, r.k);
            if (static_cast<double>(d.squaredNorm()) < spacing * spacing) {
              near = true;
              break;
            }
          }
    if (near) continue;
    kept[(static_cast<std::size_t>(ck) * cy + cj) * cx + ci].push_back(
        static_cast<std::uint32_t>(centers.size()));
    keptVoxels.emplace_back(r.i, r.j, r.k);
    centers.push_back(grid.center(r.i, r.j, r.k));
  }
  return centers;
}

// f(n) for n in 0 .. count - 1, in chunks of `chunk` on the machine's threads; stops early once
// `progress` is cancelled.
template <class F>
std::vector<double> valuesInParallel(std::size_t count, std::size_t chunk, const WorkProgress& progress,
                                     F&& f) {
  std::vector<double> values(count);
  ThreadPool pool(ThreadPool::machineThreads());
  pool.run((count + chunk - 1) / chunk, [&](std::size_t c) {
    if (progress.cancelled()) return;
    for (std::size_t n = c * chunk; n < std::min(count, (c + 1) * chunk); ++n) values[n] = f(n);
  });
  return values;
}

// Balls about the centres: radii the distance to the surface (inscribed) and that plus a quarter,
// half, three quarters and all of the protrusion allowed, none below the smallest radius or half a
// voxel.
std::vector<Candidate> candidateBalls(const MeshSolid& solid, const std::vector<Vec3>& centers,
                                      double protrusion, double minRadius, double voxelSize,
                                      const WorkProgress& progress) {
  const std::vector<double> distance = valuesInParallel(centers.size(), 512, progress, [&](std::size_t n) {
    return std::max(0.0, solid.signedDistance(centers[n]));
  });
  const int radiusSteps = protrusion > 0.0 ? 5 : 1;
  std::vector<Candidate> candidates;
  candidates.reserve(centers.size() * radiusSteps);
  for (std::size_t n = 0; n < centers.size(); ++n) {
    if (!(distance[n] > 0.0)) continue;
    for (int s = 0; s < radiusSteps; ++s) {
      const double r = distance[n] + (radiusSteps > 1 ? protrusion * s / (radiusSteps - 1) : 0.0);
      if (r >= minRadius && r >= 0.5 * voxelSize) candidates.push_back({centers[n], r});
    }
  }
  return candidates;
}

// Greedy selection. The Dice coefficient 2 TP / (2 TP + FN + FP) (TP inside voxels covered, FN inside
// voxels not covered, FP outside voxels covered) rises as the symmetric difference FN + FP falls: a
// ball adding a inside and b outside voxels scores a - w b. With w = 1 the first balls, which see
// much to gain, take the largest protrusion allowed and keep its cost for good; a later ball can
// fill a gap, but nothing takes a protrusion back. w = kOutsideWeight (3) makes the choice look
// ahead: measured on the wing nut and the T-handle at 2% protrusion, Dice at 100 spheres 0.949 and
// 0.963 with w = 1, 0.966 and 0.989 with w = 3 or 4, the union's volume within 1% of the solid's
// instead of 7-9% above it. Scores mostly fall as the cover grows (not exactly: b falls too): a lazy
// queue, each popped score evaluated afresh and taken when it still leads.
class GreedyCover {
 public:
  GreedyCover(const SolidVoxels& grid, std::vector<Candidate> candidates, const SphereFitSettings& settings,
              const WorkProgress& progress)
      : grid_(grid),
        candidates_(std::move(candidates)),
        settings_(settings),
        progress_(progress),
        cover_(grid.count(), 0),
        inside_(static_cast<std::int64_t>(grid.insideCount())) {
    const std::vector<double> scores = valuesInParallel(
        candidates_.size(), 256, progress, [&](std::size_t n) { return scoreOf(gainOf(candidates_[n])); });
    progress.throwIfCancelled();
    for (std::uint32_t n = 0; n < candidates_.size(); ++n) queue_.push({scores[n], n});
  }

  // The working grid's Dice coefficient of the spheres taken.
  double dice() const { return 2.0 * static_cast<double>(tp_) / static_cast<double>(inside_ + tp_ + fp_); }

  // Adds spheres to `result` until the working grid's Dice reaches `target` (0: none) or a limit
  // stops it (result.stopReason says which).
  void select(double target, SphereFitResult& result) {
    while (true) {
      if (target > 0.0 && dice() >= target) {
        result.stopReason = "target Dice";
        return;
      }
      if (static_cast<int>(result.pebbles.size()) >= settings_.maxCount) {
        result.stopReason = "largest count";
        return;
      }
      if (!takeBest(result)) {
        result.stopReason = "no gain";
        return;
      }
      if (result.pebbles.size() % 16 == 0) reportProgress(target, result.pebbles.size());
    }
  }

 private:
  using Entry = std::pair<double, std::uint32_t>;  // score, candidate (ties: the lower index first)
  struct Later {
    bool operator()(const Entry& x, const Entry& y) const {
      return x.first < y.first || (x.first == y.first && x.second > y.second);
    }
  };

  Gain gainOf(const Candidate& c) const {
    Gain g;
    grid_.forBallVoxels(c.center, c.radius, [&](std::size_t v) {
      if (cover_[v] != 0) return;
      if (grid_.inside(v)) {
        ++g.inside;
      } else {
        ++g.outside;
      }
    });
    return g;
  }
  static double scoreOf(const Gain& g) {
    return static_cast<double>(g.inside) - kOutsideWeight * static_cast<double>(g.outside);
  }

  // Takes the candidate that leads once its score is fresh; false when none covers anything inside
  // (or, with a Dice target, none scores above 0). A count asked for (no Dice target) is met while
  // any ball still covers something inside: past the last gain, the best of those that do.
  bool takeBest(SphereFitResult& result) {
    const bool countAsked = !(settings_.targetDice > 0.0);
    while (!queue_.empty()) {
      const Entry top = queue_.top();
      queue_.pop();
      const Gain g = gainOf(candidates_[top.second]);
      const double score = scoreOf(g);
      if (!queue_.empty() && score < queue_.top().first) {
        queue_.push({score, top.second});
        continue;
      }
      if (g.inside == 0 || (!(score > 0.0) && !countAsked)) {
        queue_.push({score, top.second});
        return false;
      }
      const Candidate& c = candidates_[top.second];
      grid_.forBallVoxels(c.center, c.radius, [&](std::size_t v) {
        if (cover_[v]++ != 0) return;
        if (grid_.inside(v)) {
          ++tp_;
        } else {
          ++fp_;
        }
      });
      result.pebbles.push_back({c.center, c.radius});
      result.curve.push_back({static_cast<int>(result.pebbles.size()), dice(),
                              static_cast<double>(tp_ + fp_) / static_cast<double>(inside_)});
      return true;
    }
    return false;
  }

  void reportProgress(double target, std::size_t taken) const {
    progress_.throwIfCancelled();
    const double share = static_cast<double>(taken) / static_cast<double>(settings_.maxCount);
    const double done = target > 0.0 ? std::clamp(dice() / target, 0.0, 1.0) : share;
    progress_.report(0.5 + 0.2 * std::max(done, share), "choosing spheres");
  }

  const SolidVoxels& grid_;
  std::vector<Candidate> candidates_;
  const SphereFitSettings& settings_;
  const WorkProgress& progress_;
  std::vector<std::uint16_t> cover_;
  std::int64_t inside_ = 0, tp_ = 0, fp_ = 0;
  std::priority_queue<Entry, std::vector<Entry>, Later> queue_;
};

}  // namespace

SphereFitResult fitSpheres(const MeshSolid& solid, const SphereFitSettings& settings,
                           const WorkProgress& progress) {
  checkSettings(settings);
  Vec3 lower, upper;
  solid.bounds(lower, upper);
  const double extent = (upper - lower).maxCoeff();
  if (!(extent > 0.0)) throw std::invalid_argument("the solid has no extent");
  SphereFitResult result;
  result.solidSize = extent;
  result.maxProtrusion = protrusionBound(settings, extent);
  const WorkingGrid working = workingGrid(solid, settings, result.maxProtrusion, result, progress);
  progress.report(0.3, "medial ridges");
  const std::vector<Vec3> centers = medialCentres(working);
  std::vector<Candidate> candidates =
      candidateBalls(solid, centers, result.maxProtrusion, settings.minRadius, result.voxelSize, progress);
  progress.report(0.4, "candidate spheres");
  result.candidates = centers.size();
  if (candidates.empty()) {
    result.stopReason = "smallest radius";
    return result;
  }
  GreedyCover cover(*working.voxels, std::move(candidates), settings, progress);
  progress.report(0.5, "choosing spheres");
  cover.select(settings.targetDice, result);
  // The working grid's Dice is within a few 1e-3 of the solid's: where it reached the target, the
  // spheres are measured exactly (SolidOverlap.hpp) and, while short of it, more are added for the
  // difference.
  for (int round = 0; round < 8 && result.stopReason == "target Dice"; ++round) {
    const double measured = overlapWithMesh(solid, PebbleUnion(result.pebbles), progress.silent()).dice();
    result.measuredDice = measured;
    if (measured >= settings.targetDice) break;
    cover.select(cover.dice() + (settings.targetDice - measured) + 1e-3, result);
  }
  if (settings.refine) refine(solid, *working.voxels, settings, result, progress);
  progress.report(0.97, "balancing the volume");
  balanceVolume(solid, result, settings.targetDice, progress);
  progress.report(1.0, "spheres chosen");
  return result;
}

SphereFitSettings sphereFitSettings(const FillSettings& fill) {
  SphereFitSettings s;
  s.targetDice = fill.targetDice;
  s.maxProtrusion = fill.maxProtrusion;
  s.minRadius = fill.minimumRadius;
  s.seed = fill.seed;
  if (fill.targetCount > 0) {
    s.maxCount = static_cast<int>(fill.targetCount);
  } else if (fill.maxCount > 0) {
    s.maxCount = static_cast<int>(fill.maxCount);
  }
  return s;
}

}  // namespace clumplab::shapes
