#pragma once
// Recent centre-of-mass paths, kept by the renderer: a point is added when a body has moved a
// little since the last one, the oldest dropped past a fixed length. Cleared when the layout
// changes or trails are switched off.
#include <cstdint>
#include <deque>
#include <vector>

#include "SegmentPass.hpp"
#include "core/world/Snapshot.hpp"

namespace clumplab::render {

class Trails {
 public:
  static constexpr std::size_t kMaxPoints = 160;

  void update(const Snapshot& snapshot, bool enabled);
  void appendSegments(SegmentList& out, const std::vector<QColor>& colors) const;
  std::size_t pointCount(std::size_t body) const { return body < paths_.size() ? paths_[body].size() : 0; }

 private:
  std::vector<std::deque<Vec3>> paths_;
  std::uint64_t generation_ = 0;
  bool active_ = false;
};

}  // namespace clumplab::render
