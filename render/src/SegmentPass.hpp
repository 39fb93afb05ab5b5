#pragma once
// World-space line segments and dots built on the CPU each frame (segment.vert/.frag): box edges,
// axes, arrow shafts, trails, contact points, the drag line.
#include <QColor>
#include <cstdint>
#include <memory>
#include <vector>

#include "FrameContext.hpp"
#include "core/base/Math.hpp"

namespace clumplab::render {

struct SegmentInstance {
  float p0[3];
  float p1[3];
  std::uint8_t color[4];  // sRGB, alpha
  float width;            // logical pixels
};
static_assert(sizeof(SegmentInstance) == 32);

struct SegmentList {
  std::vector<SegmentInstance> items;
  void add(const Vec3& a, const Vec3& b, const QColor& color, float widthPx);
  void dot(const Vec3& p, const QColor& color, float diameterPx) { add(p, p, color, diameterPx); }
  void clear() { items.clear(); }
};

class SegmentPass {
 public:
  void initialize(Gl& gl);
  void release(Gl& gl);
  enum class Depth {
    Tested,      // hidden behind surfaces
    ShowHidden,  // the parts behind surfaces drawn faintly, so vectors inside a clump stay readable
    OnTop,       // always visible (contact points lie inside overlapping pebbles)
  };
  void draw(const FrameContext& frame, const SegmentList& segments, Depth depth);

 private:
  std::unique_ptr<QOpenGLShaderProgram> program_;
  unsigned vao_ = 0, buffer_ = 0;
};

}  // namespace clumplab::render
