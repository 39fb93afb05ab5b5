#pragma once
// PaLa's wireframe (Mutze, Polyspherical grains, §8): for every pebble a line from its body's centre of mass
// to the pebble centre and three orthogonal radii, one along that line. Expanded from the pebble instances in
// the vertex shader (wireframe.vert), 4 anti-aliased segments an instance.
#include <memory>

#include "FrameContext.hpp"
#include "LayoutBuffers.hpp"

namespace clumplab::render {

class WireframePass {
 public:
  void initialize(Gl& gl, const LayoutBuffers& layout);
  void release(Gl& gl);
  void draw(const FrameContext& frame, const LayoutBuffers& layout, float lineWidthPx);

 private:
  std::unique_ptr<QOpenGLShaderProgram> program_;
  unsigned vao_ = 0;
};

}  // namespace clumplab::render
