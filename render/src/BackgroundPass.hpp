#pragma once
// The backdrop: a vertical gradient over the whole viewport, drawn first without depth.
#include <QColor>
#include <memory>

#include "FrameContext.hpp"
#include "ShaderLoader.hpp"

namespace clumplab::render {

class BackgroundPass {
 public:
  void initialize(Gl& gl);
  void release(Gl& gl);
  // `base` invalid: the default dark slate gradient; else a gradient about `base`.
  void draw(const FrameContext& frame, const QColor& base);

 private:
  ProceduralProgram shader_;
};

}  // namespace clumplab::render
