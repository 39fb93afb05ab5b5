#pragma once
// Lit triangles built on the CPU each frame (solid.vert/.frag): arrow heads, markers, translucent
// wall patches.
#include <QColor>
#include <cstdint>
#include <memory>
#include <vector>

#include "FrameContext.hpp"
#include "core/base/Math.hpp"

namespace clumplab::render {

struct SolidVertex {
  float position[3];
  float normal[3];
  std::uint8_t color[4];  // sRGB, alpha
};
static_assert(sizeof(SolidVertex) == 28);

struct TriangleList {
  std::vector<SolidVertex> vertices;  // three a triangle
  void add(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& na, const Vec3& nb, const Vec3& nc,
           const QColor& color);
  void addFlat(const Vec3& a, const Vec3& b, const Vec3& c, const QColor& color);
  // A cone from the centre of its base circle to its apex, with `sides` facets and a base disc.
  void cone(const Vec3& base, const Vec3& apex, double radius, const QColor& color, int sides = 16);
  // A quad a-b-c-d (counter-clockwise) as two triangles.
  void quad(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d, const QColor& color);
  void clear() { vertices.clear(); }
};

class SolidPass {
 public:
  void initialize(Gl& gl);
  void release(Gl& gl);
  // Opaque geometry (depth written; with `showHidden` a faint copy where it is hidden), or
  // translucent geometry (blended, depth read only, drawn after everything opaque).
  void drawOpaque(const FrameContext& frame, const TriangleList& triangles, bool showHidden);
  void drawTranslucent(const FrameContext& frame, const TriangleList& triangles, bool lit);

 private:
  void upload(Gl& gl, const TriangleList& triangles);
  std::unique_ptr<QOpenGLShaderProgram> program_;
  unsigned vao_ = 0, buffer_ = 0;
};

}  // namespace clumplab::render
