// A solid on a voxel grid, and its distance transform (SolidVoxels.hpp).
#include "SolidVoxels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/base/ThreadPool.hpp"

namespace clumplab::shapes {

namespace {

constexpr double kFar = 1e30;  // "no outside voxel on this line" [voxels^2]

// One line of the squared-distance transform: d(q) = min_p (f(p) + (q - p)^2), lower envelope of
// parabolas (Felzenszwalb & Huttenlocher, algorithm DT(f)). `v`, `z` are scratch of size n, n + 1.
void transformLine(std::vector<double>& f, std::vector<double>& d, std::vector<int>& v,
                   std::vector<double>& z) {
  const int n = static_cast<int>(f.size());
  int k = -1;
  for (int q = 0; q < n; ++q) {
    if (f[q] >= kFar) continue;
    double s = -std::numeric_limits<double>::infinity();
    while (k >= 0) {
      const int p = v[k];
      s = ((f[q] + q * q) - (f[p] + p * p)) / (2.0 * (q - p));
      if (s > z[k]) break;
      --k;
    }
    ++k;
    v[k] = q;
    z[k] = k == 0 ? -std::numeric_limits<double>::infinity() : s;
    z[k + 1] = std::numeric_limits<double>::infinity();
  }
  if (k < 0) {
    std::fill(d.begin(), d.end(), kFar);
    return;
  }
  int j = 0;
  for (int q = 0; q < n; ++q) {
    while (z[j + 1] < q) ++j;
    const double dq = q - v[j];
    d[q] = dq * dq + f[v[j]];
  }
}

}  // namespace

SolidVoxels::SolidVoxels(const Solid& solid, const Vec3& lower, const Vec3& upper, double size,
                         const WorkProgress& progress)
    : origin_(lower), size_(size) {
  if (!(size > 0.0)) throw std::invalid_argument("the voxel size must be positive");
  for (int a = 0; a < 3; ++a) n_[a] = std::max(1, static_cast<int>(std::ceil((upper[a] - lower[a]) / size)));
  inside_.assign(static_cast<std::size_t>(n_[0]) * n_[1] * n_[2], 0);
  ThreadPool pool(ThreadPool::machineThreads());
  std::vector<std::size_t> perLayer(static_cast<std::size_t>(n_[2]), 0);
  pool.run(perLayer.size(), [&](std::size_t k) {
    if (progress.cancelled()) return;
    std::vector<Span> spans;
    for (int j = 0; j < n_[1]; ++j) {
      const Vec3 c = center(0, j, static_cast<int>(k));
      solid.spansAlongX(c.y(), c.z(), spans);
      for (const Span& s : spans) {
        // Voxels whose centre x = origin + size (i + 1/2) lies in [begin, end].
        const int first = std::max(0, static_cast<int>(std::ceil((s.begin - origin_.x()) / size_ - 0.5)));
        const int last =
            std::min(n_[0] - 1, static_cast<int>(std::floor((s.end - origin_.x()) / size_ - 0.5)));
        for (int i = first; i <= last; ++i) inside_[index(i, j, static_cast<int>(k))] = 1;
        perLayer[k] += static_cast<std::size_t>(std::max(0, last - first + 1));
      }
    }
  });
  progress.throwIfCancelled();
  for (const std::size_t n : perLayer) insideCount_ += n;
}

std::vector<double> SolidVoxels::squaredDepth() const {
  // Sources: the outside voxels (distance 0); the inside ones start far.
  std::vector<double> g(inside_.size());
  for (std::size_t v = 0; v < g.size(); ++v) g[v] = inside_[v] != 0 ? kFar : 0.0;
  ThreadPool pool(ThreadPool::machineThreads());
  const std::size_t stride[3] = {1, static_cast<std::size_t>(n_[0]),
                                 static_cast<std::size_t>(n_[0]) * static_cast<std::size_t>(n_[1])};
  for (int axis = 0; axis < 3; ++axis) {
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    pool.run(static_cast<std::size_t>(n_[a2]), [&](std::size_t b) {
      const int n = n_[axis];
      std::vector<double> f(n), d(n), z(n + 1);
      std::vector<int> v(n);
      for (int a = 0; a < n_[a1]; ++a) {
        const std::size_t base = static_cast<std::size_t>(a) * stride[a1] + b * stride[a2];
        for (int q = 0; q < n; ++q) f[q] = g[base + q * stride[axis]];
        transformLine(f, d, v, z);
        for (int q = 0; q < n; ++q) g[base + q * stride[axis]] = std::min(d[q], kFar);
      }
    });
  }
  return g;
}

}  // namespace clumplab::shapes
