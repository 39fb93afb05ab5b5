#pragma once
// Pebbles as ray-cast sphere (and spherocylinder) impostors, one instanced draw for all of them
// (pebble.vert/.frag).
// Also the soft contact shadows on a floor, which read the same instances.
#include <memory>

#include "FrameContext.hpp"
#include "LayoutBuffers.hpp"

namespace clumplab::render {

class PebblePass {
 public:
  void initialize(Gl& gl, const LayoutBuffers& layout);
  void release(Gl& gl);
  void draw(const FrameContext& frame, const LayoutBuffers& layout);
  // Multiplies soft discs into the floor at z = floorHeight (blending set here).
  void drawShadows(const FrameContext& frame, const LayoutBuffers& layout, double floorHeight);

 private:
  std::unique_ptr<QOpenGLShaderProgram> program_, shadowProgram_;
  unsigned vao_ = 0;
};

// Binds the pebble instance buffer to attributes 0 (vec4 centre + radius), 1 (uint body) and 2
// (vec3 half shaft) of the bound vertex array, one step per instance. Shared with the wireframe pass.
void bindPebbleInstances(Gl& gl, const LayoutBuffers& layout);

}  // namespace clumplab::render
