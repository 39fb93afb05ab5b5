#include "shapes/PebbleFill.hpp"

#include "core/base/ResourceLimits.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/base/ThreadPool.hpp"
#include "shapes/MeshMassProperties.hpp"

namespace clumplab::shapes {

namespace {

// `phase` in [0, 1)^3: the grid shifted by phase h from its place centred on the bounding box (with
// one more point per axis, so that it still spans the box).
FillResult fillWithSpacing(const MeshSolid& solid, const FillSettings& settings, double h, const Vec3& phase,
                           std::int64_t maxCandidates, int threads, const WorkProgress& progress) {
  Vec3 lower, upper;
  solid.bounds(lower, upper);
  const Vec3 centre = 0.5 * (lower + upper);
  std::array<std::int64_t, 3> n{};
  double total = 1.0;
  for (int a = 0; a < 3; ++a) {
    n[a] = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil((upper[a] - lower[a]) / h - 1e-9)));
    if (!phase.isZero()) ++n[a];
    total *= static_cast<double>(n[a]);
  }
  const bool configured = maxCandidates <= 0;
  if (configured) maxCandidates = resourceLimits().maxFillPoints;
  if (total > static_cast<double>(maxCandidates)) {
    std::ostringstream what;
    what << "a spacing of " << h << " m gives " << total << " grid points, more than the limit of "
         << maxCandidates;
    const std::string advice = configured ? howToRaise("fill-points") : std::string();
    throw std::invalid_argument(what.str() + ": use a larger spacing or a smaller count" +
                                (advice.empty() ? std::string() : " (or " + advice + ")"));
  }
  const Vec3 origin =
      centre -
      0.5 * h *
          Vec3(static_cast<double>(n[0] - 1), static_cast<double>(n[1] - 1), static_cast<double>(n[2] - 1)) +
      (phase.isZero() ? Vec3::Zero() : Vec3((phase - Vec3::Constant(0.5)) * h));
  FillResult result;
  result.spacing = h;
  result.radius = settings.radius > 0.0 ? settings.radius : 0.5 * std::sqrt(3.0) * h;
  result.candidates = n[0] * n[1] * n[2];
  const double band = settings.shellBand > 0.0 ? settings.shellBand : h;
  const double minimum = settings.minimumRadius > 0.0 ? settings.minimumRadius : 0.25 * h;

  // One chunk per z layer; layers are concatenated in order, so the result does not depend on threads.
  struct Layer {
    std::vector<Pebble> pebbles;
    std::int64_t inside = 0, dropped = 0;
  };
  std::vector<Layer> layers(static_cast<std::size_t>(n[2]));
  ThreadPool pool(threads > 0 ? threads : ThreadPool::machineThreads());
  // Layers run in batches so that progress is reported from this thread between them.
  const std::size_t batch = static_cast<std::size_t>(std::max(8, 2 * pool.threads()));
  for (std::size_t first = 0; first < layers.size(); first += batch) {
    const std::size_t count = std::min(batch, layers.size() - first);
    pool.run(count, [&](std::size_t chunk) {
      const std::size_t k = first + chunk;
      Layer& layer = layers[k];
      std::vector<Span> spans;
      const double z = origin.z() + h * static_cast<double>(k);
      for (std::int64_t j = 0; j < n[1] && !progress.cancelled(); ++j) {
        const double y = origin.y() + h * static_cast<double>(j);
        solid.spansAlongX(y, z, spans);
        for (const Span& s : spans) {
          const auto i0 =
              std::max<std::int64_t>(0, static_cast<std::int64_t>(std::ceil((s.begin - origin.x()) / h)));
          const auto i1 = std::min<std::int64_t>(
              n[0] - 1, static_cast<std::int64_t>(std::floor((s.end - origin.x()) / h)));
          for (std::int64_t i = i0; i <= i1; ++i) {
            ++layer.inside;
            Pebble p{Vec3(origin.x() + h * static_cast<double>(i), y, z), result.radius};
            if (settings.fitted) {
              p.radius = std::min(p.radius, solid.distanceToSurface(p.center, p.radius));
              if (p.radius < minimum) {
                ++layer.dropped;
                continue;
              }
            }
            if (settings.shellOnly && !(solid.distanceToSurface(p.center, band) <= band)) continue;
            layer.pebbles.push_back(p);
          }
        }
      }
    });
    progress.report(static_cast<double>(first + count) / static_cast<double>(layers.size()), "filling");
  }
  for (Layer& layer : layers) {
    result.pebbles.insert(result.pebbles.end(), layer.pebbles.begin(), layer.pebbles.end());
    result.inside += layer.inside;
    result.droppedSmall += layer.dropped;
  }
  return result;
}

// The search for a grid spacing whose fill holds the target count of pebbles.
class CountSearch {
 public:
  CountSearch(const MeshSolid& solid, const FillSettings& settings, std::int64_t maxCandidates, int threads)
      : solid_(solid),
        settings_(settings),
        maxCandidates_(maxCandidates),
        threads_(threads),
        target_(static_cast<double>(settings.targetCount)) {}

  // How far a fill's count is from the target (infinite for an empty fill).
  double miss(const FillResult& r) const {
    return r.pebbles.empty() ? std::numeric_limits<double>::infinity()
                             : std::abs(static_cast<double>(r.pebbles.size()) - target_);
  }

  // First the grid centred on the bounding box (the search every template made before phases were
  // searched used: their pebbles stay the same). The count of grid points inside scales as V / h^3:
  // iterate h <- h (count / target)^(1/3), damped, from h0; `part(step)` reports each try's progress.
  template <class Part>
  FillResult iterateCentred(double h, int iterations, Part&& part) {
    FillResult best;
    for (int step = 0; step < iterations; ++step, ++steps_) {
      FillResult r = fill(h, Vec3::Zero(), part(step));
      const double count = static_cast<double>(r.pebbles.size());
      const bool better =
          best.pebbles.empty() ||
          std::abs(count - target_) < std::abs(static_cast<double>(best.pebbles.size()) - target_);
      if (better && !r.pebbles.empty()) best = std::move(r);
      if (count == target_) break;
      // Damped update; an empty grid halves h.
      h *= count > 0.0 ? std::pow(count / target_, 1.0 / 3.0 * 0.9) : 0.5;
      if (static_cast<double>(best.pebbles.size()) > 0.0 &&
          std::abs(static_cast<double>(best.pebbles.size()) - target_) <= 0.005 * target_)
        break;
    }
    return best;
  }

  // The count jumps as whole layers of the grid enter or leave thin parts: scan h within +-5% of
  // the best for a closer count (each try is a few milliseconds for thousands of pebbles).
  template <class Part>
  void scanAround(FillResult& best, int scan, Part&& part) {
    const double around = best.spacing;
    int index = 0;
    for (int k = -scan; k <= scan && static_cast<double>(best.pebbles.size()) != target_; ++k) {
      if (k == 0) continue;
      FillResult r = fill(around * (1.0 + 0.005 * k), Vec3::Zero(), part(index++));
      ++steps_;
      if (!r.pebbles.empty() && std::abs(static_cast<double>(r.pebbles.size()) - target_) <
                                    std::abs(static_cast<double>(best.pebbles.size()) - target_))
        best = std::move(r);
    }
  }

  // The count of grid points inside scales as h^-3 in a bulky solid, h^-2 in a plate, h^-1 in a rod,
  // and jumps where a whole layer of the grid enters or leaves a thin part (a 3 mm plate holds one
  // layer or two at h = 2.3 mm, as the grid's phase across it decides). So the spacing is searched
  // at other phases of the grid (shifts by the Halton points in bases 2, 3 and 5), each by secant
  // steps on log count against log h, and the closest count kept: the first within 1% of the target
  // ends the search.
  void searchPhases(FillResult& best, const WorkProgress& progress) {
    constexpr int kPhases = 24;
    const auto halton = [](int n, int base) {
      double f = 1.0, x = 0.0;
      for (int i = n; i > 0; i /= base) {
        f /= base;
        x += f * (i % base);
      }
      return x;
    };
    for (int phaseIndex = 1; phaseIndex < kPhases && !(miss(best) <= 0.01 * target_); ++phaseIndex) {
      const Vec3 phase(halton(phaseIndex, 2), halton(phaseIndex, 3), halton(phaseIndex, 5));
      secantSteps(best, phase, progress);
    }
  }

  int steps() const { return steps_; }

 private:
  FillResult fill(double spacing, const Vec3& phase, const WorkProgress& progress) const {
    return fillWithSpacing(solid_, settings_, spacing, phase, maxCandidates_, threads_, progress);
  }

  // One phase of searchPhases: count ~ h^slope, the slope from the last two tries.
  void secantSteps(FillResult& best, const Vec3& phase, const WorkProgress& progress) {
    constexpr int kStepsPerPhase = 8;
    double spacing = best.spacing;
    double lastH = 0.0, lastCount = 0.0;
    for (int step = 0; step < kStepsPerPhase; ++step) {
      FillResult r;
      try {
        r = fill(spacing, phase, progress.silent());
      } catch (const std::invalid_argument&) {
        break;  // beyond the grid-point limit: this phase has nothing better to give
      }
      ++steps_;
      const double count = static_cast<double>(r.pebbles.size());
      if (miss(r) < miss(best)) best = std::move(r);
      if (miss(best) <= 0.01 * target_ || count == target_) break;
      if (count == 0.0) {  // nothing inside: a finer grid
        spacing *= 0.5;
        continue;
      }
      // Between -3.5 and -0.5, -3 at first.
      double slope = -3.0;
      if (lastCount > 0.0 && lastH > 0.0 && lastCount != count && std::abs(std::log(spacing / lastH)) > 1e-9)
        slope = std::clamp(std::log(count / lastCount) / std::log(spacing / lastH), -3.5, -0.5);
      lastH = spacing;
      lastCount = count;
      const double next = spacing * std::clamp(std::pow(target_ / count, 0.9 / slope), 0.5, 2.0);
      if (std::abs(next / spacing - 1.0) < 1e-6) break;  // stuck at a jump of the count
      spacing = next;
    }
  }

  const MeshSolid& solid_;
  const FillSettings& settings_;
  std::int64_t maxCandidates_;
  int threads_;
  double target_;
  int steps_ = 0;  // fills tried
};

}  // namespace

FillResult fillMesh(const MeshSolid& solid, const FillSettings& settings, std::int64_t maxCandidates,
                    int threads, const WorkProgress& progress) {
  if (settings.spacing > 0.0) {
    FillResult r =
        fillWithSpacing(solid, settings, settings.spacing, Vec3::Zero(), maxCandidates, threads, progress);
    if (r.pebbles.empty()) {
      throw std::invalid_argument("no grid point of spacing " + std::to_string(settings.spacing) +
                                  " m lies inside the mesh: use a smaller spacing");
    }
    return r;
  }
  if (settings.targetCount < 1) throw std::invalid_argument("give a grid spacing or a target pebble count");
  // Progress of the search: the iteration takes the first 60% (up to kIterations tries), the scan
  // around the best the rest (kScan tries each side); a try that is not made is skipped over.
  constexpr int kIterations = 16, kScan = 10;
  constexpr double kIterationShare = 0.6;  // of the centred grid's search (the phases: after it)
  const auto iterationPart = [&](int step) {
    return progress.part(kIterationShare * step / kIterations, kIterationShare * (step + 1) / kIterations);
  };
  const auto scanPart = [&](int index) {  // index 0 .. 2 kScan - 1
    const double width = (1.0 - kIterationShare) / (2 * kScan);
    return progress.part(kIterationShare + width * index, kIterationShare + width * (index + 1));
  };
  const double target = static_cast<double>(settings.targetCount);
  // The first guess from the solid's volume: exact for a closed mesh, 16^3 voxels of the winding
  // number's solid otherwise (an open mesh's signed volume means nothing).
  const double volume = solid.insideRule() == MeshSolid::InsideRule::Crossings
                            ? signedVolume(solid.mesh())
                            : massFromVoxels(solid, 1.0, 16).volume;
  Vec3 lower, upper;
  solid.bounds(lower, upper);
  CountSearch search(solid, settings, maxCandidates, threads);
  FillResult best = search.iterateCentred(
      std::cbrt((volume > 0.0 ? volume : (upper - lower).prod()) / target), kIterations, iterationPart);
  if (best.pebbles.empty()) throw std::invalid_argument("no grid spacing puts a pebble inside the mesh");
  search.scanAround(best, kScan, scanPart);
  if (search.miss(best) > 0.03 * target)
    search.searchPhases(best, progress);  // where the centred grid misses
  best.searchSteps = search.steps() + 1;
  progress.report(1.0, "filling");
  return best;
}

}  // namespace clumplab::shapes
