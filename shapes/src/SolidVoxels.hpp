#pragma once
// A solid on a regular grid of voxels: which voxel centres are inside (from the solid's spans along
// x), and each inside voxel's squared distance to the nearest outside voxel centre (an exact
// Euclidean distance transform of the grid). Private to shapes/src.
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
