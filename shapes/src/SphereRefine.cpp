// Spheres refined against a solid by the gradient of their union's Dice coefficient (SphereRefine.hpp).
#include "SphereRefine.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/base/SpherePoints.hpp"
#include "core/base/ThreadPool.hpp"
#include "core/clump/PebbleOverlaps.hpp"

namespace clumplab::shapes {

namespace {

// Voxels of the solid covered (TP) and voxels outside it covered (FP) by a union of spheres.
struct Cover {
  std::int64_t inside = 0;
  std::int64_t outside = 0;
};

Cover coverOf(const SolidVoxels& grid, const std::vector<Pebble>& spheres) {
  std::vector<std::uint8_t> covered(grid.count(), 0);
  Cover c;
  for (const Pebble& s : spheres)
    grid.forBallVoxels(s.center, s.radius, [&](std::size_t v) {
      if (covered[v] != 0) return;
      covered[v] = 1;
      if (grid.inside(v)) {
        ++c.inside;
      } else {
        ++c.outside;
      }
    });
  return c;
}

double diceOf(const SolidVoxels& grid, const Cover& c) {
  const auto solid = static_cast<double>(grid.insideCount());
  return 2.0 * static_cast<double>(c.inside) / (solid + static_cast<double>(c.inside + c.outside));
}

// Points spread evenly over the unit sphere (a Fibonacci lattice), 64, 128, ..., 1024 of them.
class SphereDirections {
 public:
  SphereDirections() {
    for (std::size_t s = 0; s < sets_.size(); ++s) sets_[s] = fibonacciSpherePoints(64 << s);
  }
  // About one point per 8 voxel faces of a sphere of `radius` voxels.
  const std::vector<Vec3>& forRadius(double radius) const {
    const double points = 4.0 * M_PI * radius * radius / 8.0;
    std::size_t s = 0;
    while (s + 1 < sets_.size() && static_cast<double>(sets_[s].size()) < points) ++s;
    return sets_[s];
  }

 private:
  std::array<std::vector<Vec3>, 5> sets_;
};

// For sphere s (its centre, then its radius): the gradient of a loss that falls as the Dice
// coefficient rises, sampled at the surface points s.center + s.radius u not inside a neighbour: -1
// for a point inside the solid, `weight` for one outside. Adam steps against it.
std::array<double, 4> diceGradient(const Pebble& s, const std::vector<std::uint32_t>& near,
                                   const std::vector<Pebble>& spheres, const std::vector<Vec3>& dirs,
                                   const SolidVoxels& grid, double weight) {
  double gradRadius = 0.0;
  Vec3 gradCenter = Vec3::Zero();
  for (const Vec3& u : dirs) {
    const Vec3 x = s.center + s.radius * u;
    bool covered = false;
    for (const std::uint32_t j : near) {
      const double rj = spheres[j].radius;
      if ((x - spheres[j].center).squaredNorm() < rj * rj) {
        covered = true;
        break;
      }
    }
    if (covered) continue;
    const double sign = grid.insideAt(x) ? -1.0 : weight;
    gradRadius += sign;
    gradCenter += sign * u;
  }
  const double scale = 1.0 / static_cast<double>(dirs.size());
  return {gradCenter.x() * scale, gradCenter.y() * scale, gradCenter.z() * scale, gradRadius * scale};
}

// Adam's moment estimates of one sphere's four coordinates (Kingma & Ba, Adam, Algorithm 1).
struct AdamMoments {
  static constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEpsilon = 1e-3;
  std::array<double, 4> m{}, v{};

  // The step for gradient g; betaPower1/2: beta^t of the iteration.
  std::array<double, 4> delta(const std::array<double, 4>& g, double step, double beta1Power,
                              double beta2Power) {
    std::array<double, 4> d{};
    for (int a = 0; a < 4; ++a) {
      m[a] = kBeta1 * m[a] + (1.0 - kBeta1) * g[a];
      v[a] = kBeta2 * v[a] + (1.0 - kBeta2) * g[a] * g[a];
      const double mHat = m[a] / (1.0 - beta1Power), vHat = v[a] / (1.0 - beta2Power);
      d[a] = -step * mHat / (std::sqrt(vHat) + kEpsilon);
    }
    return d;
  }
};

// Where a sphere's signed depth in the solid was last measured exactly: the radius bound depth + p
// holds while the centre has moved less than the slack (the distance is 1-Lipschitz).
struct DepthMark {
  double depth = 0.0;
  Vec3 at = Vec3::Zero();
};

// The protrusion bound on `next`, moved from `s`: radius <= signed depth of the centre + p, the depth
// measured afresh when the bound from the last measurement does not clear it; a centre that would
// leave the solid (or leave no room for the smallest radius) stays where it was. False when there is
// no room for the smallest radius where the centre went (the sphere then stays as it was).
bool boundProtrusion(const MeshSolid& solid, const Pebble& s, double p, double smallest, DepthMark& mark,
                     Pebble& next) {
  double bound = mark.depth - (next.center - mark.at).norm() + p;
  if (next.radius > bound) {
    const double d = solid.signedDistance(next.center);
    if (d > 0.0 && d + p >= smallest) {
      mark = {d, next.center};
      bound = d + p;
    } else {
      next.center = s.center;
      bound = mark.depth - (next.center - mark.at).norm() + p;
    }
  }
  if (bound < smallest) return false;
  next.radius = std::max(smallest, std::min(next.radius, bound));
  return true;
}

}  // namespace

double gridDice(const SolidVoxels& grid, const std::vector<Pebble>& spheres) {
  return diceOf(grid, coverOf(grid, spheres));
}

std::vector<Pebble> refineSpheres(const MeshSolid& solid, const SolidVoxels& grid,
                                  std::vector<Pebble> spheres, const SphereRefineSettings& settings,
                                  const WorkProgress& progress) {
  const std::size_t n = spheres.size();
  if (n == 0 || settings.iterations <= 0) return spheres;
  const double h = grid.size();
  const double firstStep = settings.firstStep > 0.0 ? settings.firstStep : 0.5 * h;
  const double lastStep = settings.lastStep > 0.0 ? settings.lastStep : 0.02 * h;
  const double smallest = std::max(settings.minRadius, 0.5 * h);
  const double p = settings.maxProtrusion;
  static const SphereDirections directions;

  Cover cover = coverOf(grid, spheres);
  std::vector<Pebble> best = spheres;
  double bestDice = diceOf(grid, cover);
  // The weight of an outside voxel against an inside one in the gradient of the Dice coefficient.
  double weight = static_cast<double>(cover.inside) /
                  static_cast<double>(static_cast<std::int64_t>(grid.insideCount()) + cover.outside);
  std::vector<DepthMark> marks(n);
  std::vector<AdamMoments> moments(n);
  ThreadPool pool(ThreadPool::machineThreads());
  constexpr std::size_t kChunk = 16;
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  pool.run(chunks, [&](std::size_t c) {
    for (std::size_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i)
      marks[i] = {solid.signedDistance(spheres[i].center), spheres[i].center};
  });
  constexpr int kCheckEvery = 20;
  double beta1Power = 1.0, beta2Power = 1.0;
  for (int it = 0; it < settings.iterations; ++it) {
    progress.throwIfCancelled();
    const double step = firstStep * std::pow(lastStep / firstStep,
                                             static_cast<double>(it) / std::max(1, settings.iterations - 1));
    beta1Power *= AdamMoments::kBeta1;
    beta2Power *= AdamMoments::kBeta2;
    const std::vector<std::vector<std::uint32_t>> near = overlappingPebbles(spheres);
    const std::vector<Pebble> before = spheres;
    pool.run(chunks, [&](std::size_t c) {
      for (std::size_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) {
        const Pebble& s = before[i];
        const std::array<double, 4> g =
            diceGradient(s, near[i], before, directions.forRadius(s.radius / h), grid, weight);
        const std::array<double, 4> delta = moments[i].delta(g, step, beta1Power, beta2Power);
        Pebble next = s;
        next.center += Vec3(delta[0], delta[1], delta[2]);
        next.radius += delta[3];
        if (boundProtrusion(solid, s, p, smallest, marks[i], next)) spheres[i] = next;
      }
    });
    if ((it + 1) % kCheckEvery == 0 || it + 1 == settings.iterations) {
      cover = coverOf(grid, spheres);
      const double dice = diceOf(grid, cover);
      weight = static_cast<double>(cover.inside) /
               static_cast<double>(static_cast<std::int64_t>(grid.insideCount()) + cover.outside);
      if (dice > bestDice) {
        bestDice = dice;
        best = spheres;
      }
    }
  }
  return best;
}

}  // namespace clumplab::shapes
