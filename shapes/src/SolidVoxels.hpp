#pragma once
// A solid on a regular grid of voxels: which voxel centres are inside (from the solid's spans along
// x), and each inside voxel's squared distance to the nearest outside voxel centre (an exact
// Euclidean distance transform of the grid). Private to shapes/src.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/base/Math.hpp"
#include "core/base/WorkProgress.hpp"
#include "core/clump/Solid.hpp"

namespace clumplab::shapes {

class SolidVoxels {
 public:
  // Voxels of side `size` [m] whose grid covers [lower, upper]; the centre of voxel (i, j, k) is
  // origin + size (i + 1/2, j + 1/2, k + 1/2).
  SolidVoxels(const Solid& solid, const Vec3& lower, const Vec3& upper, double size,
              const WorkProgress& progress = {});

  int nx() const { return n_[0]; }
  int ny() const { return n_[1]; }
  int nz() const { return n_[2]; }
  double size() const { return size_; }
  const Vec3& origin() const { return origin_; }
  std::size_t count() const { return inside_.size(); }
  std::size_t index(int i, int j, int k) const {
    return (static_cast<std::size_t>(k) * n_[1] + static_cast<std::size_t>(j)) * n_[0] +
           static_cast<std::size_t>(i);
  }
  Vec3 center(int i, int j, int k) const { return origin_ + size_ * Vec3(i + 0.5, j + 0.5, k + 0.5); }
  bool inside(std::size_t v) const { return inside_[v] != 0; }
  std::size_t insideCount() const { return insideCount_; }
  // Whether the voxel holding `point` is inside (false beyond the grid).
  bool insideAt(const Vec3& point) const {
    const Vec3 q = (point - origin_) / size_;
    if (!(q.x() >= 0.0 && q.y() >= 0.0 && q.z() >= 0.0)) return false;
    const auto i = static_cast<int>(q.x()), j = static_cast<int>(q.y()), k = static_cast<int>(q.z());
    if (i >= n_[0] || j >= n_[1] || k >= n_[2]) return false;
    return inside_[index(i, j, k)] != 0;
  }

  // Visits the index of every voxel whose centre lies within the ball (center [m], radius [m]).
  template <typename Visit>
  void forBallVoxels(const Vec3& center, double radius, Visit&& visit) const {
    const Vec3 c = (center - origin_) / size_ - Vec3::Constant(0.5);  // in voxel-centre coordinates
    const double r = radius / size_, r2 = r * r;
    const int k0 = std::max(0, static_cast<int>(std::ceil(c.z() - r)));
    const int k1 = std::min(n_[2] - 1, static_cast<int>(std::floor(c.z() + r)));
    for (int k = k0; k <= k1; ++k) {
      const double dz = k - c.z(), ry2 = r2 - dz * dz;
      if (ry2 < 0.0) continue;
      const double ry = std::sqrt(ry2);
      const int j0 = std::max(0, static_cast<int>(std::ceil(c.y() - ry)));
      const int j1 = std::min(n_[1] - 1, static_cast<int>(std::floor(c.y() + ry)));
      for (int j = j0; j <= j1; ++j) {
        const double dy = j - c.y(), rx2 = ry2 - dy * dy;
        if (rx2 < 0.0) continue;
        const double rx = std::sqrt(rx2);
        const int i0 = std::max(0, static_cast<int>(std::ceil(c.x() - rx)));
        const int i1 = std::min(n_[0] - 1, static_cast<int>(std::floor(c.x() + rx)));
        const std::size_t row = index(0, j, k);
        for (int i = i0; i <= i1; ++i) visit(row + static_cast<std::size_t>(i));
      }
    }
  }

  // Squared distance [voxels^2] from each inside voxel's centre to the nearest outside voxel centre (0
  // for outside voxels), by Felzenszwalb & Huttenlocher, "Distance transforms of sampled functions"
  // (Theory of Computing 2012), one pass per axis.
  std::vector<double> squaredDepth() const;

 private:
  Vec3 origin_;
  double size_ = 0.0;
  int n_[3] = {0, 0, 0};
  std::vector<std::uint8_t> inside_;
  std::size_t insideCount_ = 0;
};

}  // namespace clumplab::shapes
