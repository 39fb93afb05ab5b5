#include "Trails.hpp"

#include <algorithm>

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
    path.push_back(x);
    if (path.size() > kMaxPoints) path.pop_front();
  }
}

void Trails::appendSegments(SegmentList& out, const std::vector<QColor>& colors) const {
  for (std::size_t b = 0; b < paths_.size() && b < colors.size(); ++b) {
    const std::deque<Vec3>& path = paths_[b];
    const std::size_t m = path.size();
    const QColor light = colors[b].lighter(115);
    for (std::size_t i = 1; i < m; ++i) {
      QColor c = light;
      // Fades in from the oldest point to the newest.
      c.setAlphaF(static_cast<float>(0.85 * static_cast<double>(i) / static_cast<double>(m - 1)));
      out.add(path[i - 1], path[i], c, 1.6f);
    }
  }
}

}  // namespace clumplab::render
