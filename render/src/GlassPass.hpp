#pragma once
// A spherical cavity as a translucent glass sphere (glass.vert/.frag), drawn after everything else.
#include <memory>

#include "FrameContext.hpp"
#include "ShaderLoader.hpp"
#include "core/base/Math.hpp"

namespace clumplab::render {

class GlassPass {
 public:
  void initialize(Gl& gl);
  void release(Gl& gl);
  void draw(const FrameContext& frame, const Vec3& center, double radius);

 private:
  ProceduralProgram shader_;
};

}  // namespace clumplab::render
