#include "shapes/ClumpQuality.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <unordered_map>

#include "core/base/SpherePoints.hpp"
#include "core/base/ThreadPool.hpp"
#include "core/clump/SolidOverlap.hpp"

namespace clumplab::shapes {

double dzhanibekovMargin(const Vec3& moments) {
  // Below 1e-6 of I3 the three moments are equal up to round-off and no axis is intermediate.
  const double spread = moments[2] - moments[0];
  return spread > 1e-6 * moments[2] ? (moments[1] - moments[0]) / spread : 0.0;
}

namespace {

// Nearest pebble surface: a uniform grid of pebble centres, searched in growing shells of cells.
class PebbleGrid {
 public:
  explicit PebbleGrid(const std::vector<Pebble>& pebbles) : pebbles_(pebbles) {
    double rMax = 0.0;
    lower_ = Vec3::Constant(std::numeric_limits<double>::infinity());
    for (const Pebble& p : pebbles) {
      rMax = std::max(rMax, p.radius);
      lower_ = lower_.cwiseMin(p.center);
    }
    cell_ = 2.0 * rMax;
    rMax_ = rMax;
    cellMin_ = Eigen::Vector3i::Constant(std::numeric_limits<int>::max());
    cellMax_ = Eigen::Vector3i::Constant(std::numeric_limits<int>::min());
    for (std::uint32_t i = 0; i < pebbles.size(); ++i) {
      const Eigen::Vector3i c = cellOf(pebbles[i].center);
      cellMin_ = cellMin_.cwiseMin(c);
      cellMax_ = cellMax_.cwiseMax(c);
      cells_[key(c)].push_back(i);
    }
  }

  // min_i (|p - c_i| - r_i), clamped at 0 (the distance from p to the union; 0 inside). Searches
  // rings of cells around p (clipped to the occupied cells) until no closer pebble can remain; once
  // it has looked into more cells than there are pebbles (p far from a sparse clump: a mesh's
  // shells far apart), every pebble instead.
  double distance(const Vec3& p) const {
    const Eigen::Vector3i c = cellOf(p);
    const Eigen::Vector3i lo = cellMin_ - c, hi = cellMax_ - c;  // occupied cells, relative to p's
    const int first = std::max({0, lo.maxCoeff(), -hi.minCoeff()});
    const int last = std::max({std::abs(lo.x()), std::abs(lo.y()), std::abs(lo.z()), std::abs(hi.x()),
                               std::abs(hi.y()), std::abs(hi.z())});
    double best = std::numeric_limits<double>::infinity();
    std::size_t cellsSeen = 0;
    for (int ring = first; ring <= last; ++ring) {
      // Pebbles in ring k or beyond are at least (k - 1) cells from p, less their radius.
      if ((ring - 1) * cell_ - rMax_ > best) break;
      if (cellsSeen > pebbles_.size()) {
        for (const Pebble& q : pebbles_) best = std::min(best, (p - q.center).norm() - q.radius);
        break;
      }
      for (int dz = std::max(-ring, lo.z()); dz <= std::min(ring, hi.z()); ++dz) {
        for (int dy = std::max(-ring, lo.y()); dy <= std::min(ring, hi.y()); ++dy) {
          const auto visit = [&](int dx) {
            ++cellsSeen;
            const auto it = cells_.find(key(c + Eigen::Vector3i(dx, dy, dz)));
            if (it == cells_.end()) return;
            for (const std::uint32_t i : it->second) {
              best = std::min(best, (p - pebbles_[i].center).norm() - pebbles_[i].radius);
            }
          };
          if (std::abs(dz) == ring || std::abs(dy) == ring) {
            for (int dx = std::max(-ring, lo.x()); dx <= std::min(ring, hi.x()); ++dx) visit(dx);
          } else {  // inside the ring's y-z square only its two x faces belong to the ring
            if (-ring >= lo.x()) visit(-ring);
            if (ring > 0 && ring <= hi.x()) visit(ring);
          }
        }
      }
    }
    return std::max(0.0, best);
  }

  // Whether p lies strictly inside some pebble other than `skip`.
  bool coveredByOther(const Vec3& p, std::uint32_t skip) const {
    const Eigen::Vector3i c = cellOf(p);
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const auto it = cells_.find(key(c + Eigen::Vector3i(dx, dy, dz)));
          if (it == cells_.end()) continue;
          for (const std::uint32_t i : it->second) {
            if (i != skip && (p - pebbles_[i].center).squaredNorm() < pebbles_[i].radius * pebbles_[i].radius)
              return true;
          }
        }
    return false;
  }

 private:
  Eigen::Vector3i cellOf(const Vec3& p) const {
    const Vec3 f = (p - lower_) / cell_;
    return Eigen::Vector3i(static_cast<int>(std::floor(f.x())), static_cast<int>(std::floor(f.y())),
                           static_cast<int>(std::floor(f.z())));
  }
  static std::int64_t key(const Eigen::Vector3i& c) {
    return (static_cast<std::int64_t>(c.x()) * 73856093) ^ (static_cast<std::int64_t>(c.y()) * 19349663) ^
           (static_cast<std::int64_t>(c.z()) * 83492791);
  }
  const std::vector<Pebble>& pebbles_;
  Vec3 lower_;
  double cell_ = 1.0, rMax_ = 0.0;
  Eigen::Vector3i cellMin_, cellMax_;
  std::unordered_map<std::int64_t, std::vector<std::uint32_t>> cells_;
};

// Points on the mesh surface: every vertex, plus about `count` points spread over the triangles
// in proportion to their area (a Halton pattern inside each triangle).
std::vector<Vec3> surfacePoints(const TriangleMesh& mesh, int count) {
  std::vector<Vec3> points;
  for (const auto& t : mesh.triangles)
    for (const std::uint32_t v : t) points.push_back(mesh.vertices[v]);
  std::sort(points.begin(), points.end(), [](const Vec3& a, const Vec3& b) {
    return std::lexicographical_compare(a.data(), a.data() + 3, b.data(), b.data() + 3);
  });
  points.erase(std::unique(points.begin(), points.end()), points.end());
  double area = 0.0;
  for (std::size_t t = 0; t < mesh.size(); ++t)
    area += 0.5 * (mesh.corner(t, 1) - mesh.corner(t, 0)).cross(mesh.corner(t, 2) - mesh.corner(t, 0)).norm();
  double carry = 0.0;
  for (std::size_t t = 0; t < mesh.size(); ++t) {
    const Vec3 &a = mesh.corner(t, 0), &b = mesh.corner(t, 1), &c = mesh.corner(t, 2);
    carry += count * 0.5 * (b - a).cross(c - a).norm() / area;
    for (int k = 1; carry >= 1.0; ++k, carry -= 1.0) {
      // Uniform in the triangle: (1 - sqrt(u)) a + sqrt(u) (1 - v) b + sqrt(u) v c.
      const double su = std::sqrt(radicalInverse(k, 2)), v = radicalInverse(k, 3);
      points.push_back((1.0 - su) * a + su * (1.0 - v) * b + su * v * c);
    }
  }
  return points;
}

}  // namespace

SolidOverlap overlapWithMesh(const MeshSolid& mesh, const Solid& other, const WorkProgress& progress) {
  const int mostRows = mesh.insideRule() == MeshSolid::InsideRule::WindingNumber ? 128 : 512;
  return solidOverlapWithinBudget(mesh, other, 1e-3, mostRows, progress);
}

double axisMisalignmentDeg(const PrincipalFrame& reference, const PrincipalFrame& other) {
  // An axis is defined when its moment differs from the other two by more than 2% of I3.
  const Vec3& m = reference.moments;
  double largest = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double gap = std::min(std::abs(m[i] - m[(i + 1) % 3]), std::abs(m[i] - m[(i + 2) % 3]));
    if (gap <= 0.02 * m[2]) continue;
    const double c = std::min(1.0, std::abs(reference.axes.col(i).dot(other.axes.col(i))));
    largest = std::max(largest, std::acos(c) * 180.0 / std::numbers::pi);
  }
  return largest;
}

QualityResult compareWithMesh(const std::vector<Pebble>& pebbles, const MeshSolid& mesh,
                              const MassProperties& meshProperties, const QualityOptions& options,
                              const WorkProgress& progress) {
  QualityResult result;
  ClumpMetrics& q = result.metrics;
  const double density = meshProperties.mass / meshProperties.volume;
  const PebbleUnion clumpSolid(pebbles);
  // Progress: the voxels take the first 70%, the protrusion and the gap samplings 15% each.
  const WorkProgress voxelPart = progress.part(0.0, 0.7);
  result.clump = options.voxels > 0
                     ? massFromVoxels(clumpSolid, density, options.voxels, voxelPart)
                     : massFromVoxelsWithinBudget(clumpSolid, density, options.voxelBudget, 2048, voxelPart);
  q.clumpMethod = "voxel (" + std::to_string(result.clump.voxelsPerSide) + " per side)";
  q.meshVolume = meshProperties.volume;
  q.clumpVolume = result.clump.volume;
  q.volumeError = (q.clumpVolume - q.meshVolume) / q.meshVolume;

  const PrincipalFrame meshFrame = principalFrame(meshProperties.inertiaTensor);
  const PrincipalFrame clumpFrame = principalFrame(result.clump.inertiaTensor);
  q.principalMomentErrors = (clumpFrame.moments - meshFrame.moments).cwiseQuotient(meshFrame.moments);
  q.dzhanibekovMargin = dzhanibekovMargin(clumpFrame.moments);
  q.meshDzhanibekovMargin = dzhanibekovMargin(meshFrame.moments);
  q.axisMisalignmentDeg = axisMisalignmentDeg(meshFrame, clumpFrame);
  q.smallestRadius = std::numeric_limits<double>::infinity();
  for (const Pebble& p : pebbles) q.smallestRadius = std::min(q.smallestRadius, p.radius);
  if (pebbles.empty()) q.smallestRadius = 0.0;
  {
    // The Dice coefficient, and the union's volume from the same lines: exact along them, where
    // voxels of the moments' resolution miss a thin solid's faces by a few percent of its volume.
    const SolidOverlap overlap = overlapWithMesh(mesh, clumpSolid, progress.silent());
    q.dice = overlap.dice();
    q.clumpVolume = overlap.volumeB;
    q.volumeError = (q.clumpVolume - q.meshVolume) / q.meshVolume;
  }

  const PebbleGrid grid(pebbles);
  ThreadPool pool(ThreadPool::machineThreads());
  // Largest protrusion: points of the union's surface outside the mesh, distance to the mesh.
  const std::vector<Vec3> directions = fibonacciSpherePoints(options.spherePoints);
  constexpr std::size_t kChunk = 256;
  std::vector<double> protrusion((pebbles.size() + kChunk - 1) / kChunk, 0.0);
  pool.run(protrusion.size(), [&](std::size_t chunk) {
    for (std::size_t i = chunk * kChunk; i < std::min(pebbles.size(), (chunk + 1) * kChunk); ++i) {
      if (progress.cancelled()) return;
      const Pebble& p = pebbles[i];
      const bool centreInside = mesh.contains(p.center);
      if (centreInside && !(mesh.distanceToSurface(p.center, p.radius) < p.radius))
        continue;  // wholly inside
      for (const Vec3& d : directions) {
        const Vec3 x = p.center + p.radius * d;
        if (grid.coveredByOther(x, static_cast<std::uint32_t>(i)) || mesh.contains(x)) continue;
        protrusion[chunk] = std::max(protrusion[chunk], mesh.distanceToSurface(x));
      }
    }
  });
  progress.report(0.85, "largest protrusion");
  q.largestProtrusion = *std::max_element(protrusion.begin(), protrusion.end());
  // Largest gap: points of the mesh's surface, distance to the union.
  const std::vector<Vec3> samples = surfacePoints(mesh.mesh(), options.surfaceSamples);
  std::vector<double> gap((samples.size() + kChunk - 1) / kChunk, 0.0);
  pool.run(gap.size(), [&](std::size_t chunk) {
    if (progress.cancelled()) return;
    for (std::size_t i = chunk * kChunk; i < std::min(samples.size(), (chunk + 1) * kChunk); ++i) {
      gap[chunk] = std::max(gap[chunk], grid.distance(samples[i]));
    }
  });
  progress.report(1.0, "largest gap");
  q.largestGap = gap.empty() ? 0.0 : *std::max_element(gap.begin(), gap.end());
  return result;
}

}  // namespace clumplab::shapes
