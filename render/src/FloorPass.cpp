#include "FloorPass.hpp"

#include "ShaderLoader.hpp"

namespace clumplab::render {

void FloorPass::initialize(Gl& gl) {
  shader_.initialize(gl, QStringLiteral("floor.vert"), QStringLiteral("floor.frag"));
}

void FloorPass::release(Gl& gl) {
  shader_.release(gl);
}

void FloorPass::draw(const FrameContext& frame, const FloorSpec& floor) {
  Gl& gl = *frame.gl;
  const auto f = [](double v) { return static_cast<float>(v); };
  gl.glEnable(GL_DEPTH_TEST);
  gl.glDepthFunc(GL_LEQUAL);
  gl.glDepthMask(GL_FALSE);
  gl.glEnable(GL_BLEND);
  gl.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  shader_.program->bind();
  setCommonUniforms(frame, *shader_.program);
  shader_.program->setUniformValue("uCenter", QVector2D(f(floor.center.x()), f(floor.center.y())));
  shader_.program->setUniformValue("uHalfSize", f(floor.halfSize));
  shader_.program->setUniformValue("uHeight", f(floor.height));
  shader_.program->setUniformValue("uFadeRadius", f(floor.fadeRadius));
  shader_.program->setUniformValue("uMinor", f(floor.minor));
  shader_.program->setUniformValue("uMajor", f(floor.major));
  shader_.program->setUniformValue("uSurface", QVector3D(0.20f, 0.22f, 0.26f));
  shader_.program->setUniformValue("uLineColor", QVector3D(0.52f, 0.56f, 0.63f));
  shader_.program->setUniformValue(
      "uBounds", QVector4D(f(floor.bounds[0]), f(floor.bounds[1]), f(floor.bounds[2]), f(floor.bounds[3])));
  gl.glBindVertexArray(shader_.vao);
  gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  gl.glBindVertexArray(0);
  shader_.program->release();
  gl.glDepthFunc(GL_LESS);
  gl.glDepthMask(GL_TRUE);
}

}  // namespace clumplab::render
