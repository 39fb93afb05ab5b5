#include "Trails.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clumplab::render {

void Trails::update(const Snapshot& snapshot, bool enabled) {
  const std::size_t n = snapshot.bodies.size();
  if (!enabled || !active_ || generation_ != snapshot.layoutGeneration || paths_.size() != n) {
    paths_.assign(enabled ? n : 0, {});
    generation_ = snapshot.layoutGeneration;
    active_ = enabled;
    if (!enabled) return;
  }
  for (std::size_t b = 0; b < n; ++b) {
    const std::uint32_t t = snapshot.bodies.templateIndex[b];
    const double radius = t < snapshot.templates.size() && snapshot.templates[t]
                              ? std::max(snapshot.templates[t]->boundingRadius, 1e-12)
                              : 1e-3;
    std::deque<Vec3>& path = paths_[b];
    const Vec3& x = snapshot.bodies.position[b];
    if (!path.empty() && (x - path.back()).norm() < 0.03 * radius) continue;
    // A centre wrapped through a periodic face (Meland et al., Cluster integration method): break the trail
    // there instead of drawing a line across the box.
    if (!path.empty() && path.back().allFinite()) {
      const Vec3 jump = x - path.back();
      bool wrapped = false;
      for (int a = 0; a < 3; ++a) {
        wrapped = wrapped ||
                  (snapshot.periodic.periodic[a] && std::abs(jump[a]) > 0.5 * snapshot.periodic.length[a]);
      }
      if (wrapped) path.push_back(Vec3::Constant(std::numeric_limits<double>::quiet_NaN()));
    }
    path.push_back(x);
    while (path.size() > kMaxPoints) path.pop_front();
  }
}

void Trails::appendSegments(SegmentList& out, const std::vector<QColor>& colors) const {
  for (std::size_t b = 0; b < paths_.size() && b < colors.size(); ++b) {
    const std::deque<Vec3>& path = paths_[b];
    const std::size_t m = path.size();
    const QColor light = colors[b].lighter(115);
    for (std::size_t i = 1; i < m; ++i) {
      if (!path[i - 1].allFinite() || !path[i].allFinite()) continue;  // a break at a periodic wrap
      QColor c = light;
      // Fades in from the oldest point to the newest.
      c.setAlphaF(static_cast<float>(0.85 * static_cast<double>(i) / static_cast<double>(m - 1)));
      out.add(path[i - 1], path[i], c, 1.6f);
    }
  }
}

}  // namespace clumplab::render
