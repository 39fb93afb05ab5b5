#include "FloorPass.hpp"

#include "ShaderLoader.hpp"

namespace clumplab::render {

void FloorPass::initialize(Gl& gl) {
  program_ = loadProgram(QStringLiteral("floor.vert"), QStringLiteral("floor.frag"));
  gl.glGenVertexArrays(1, &vao_);
}

void FloorPass::release(Gl& gl) {
  program_.reset();
  gl.glDeleteVertexArrays(1, &vao_);
  vao_ = 0;
}

void FloorPass::draw(const FrameContext& frame, const FloorSpec& floor) {
  Gl& gl = *frame.gl;
  const auto f = [](double v) { return static_cast<float>(v); };
  gl.glEnable(GL_DEPTH_TEST);
  gl.glDepthFunc(GL_LEQUAL);
  gl.glDepthMask(GL_FALSE);
  gl.glEnable(GL_BLEND);
  gl.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  program_->bind();
  setCommonUniforms(frame, *program_);
  program_->setUniformValue("uCenter", QVector2D(f(floor.center.x()), f(floor.center.y())));
  program_->setUniformValue("uHalfSize", f(floor.halfSize));
  program_->setUniformValue("uHeight", f(floor.height));
  program_->setUniformValue("uFadeRadius", f(floor.fadeRadius));
  program_->setUniformValue("uMinor", f(floor.minor));
  program_->setUniformValue("uMajor", f(floor.major));
  program_->setUniformValue("uSurface", QVector3D(0.20f, 0.22f, 0.26f));
  program_->setUniformValue("uLineColor", QVector3D(0.52f, 0.56f, 0.63f));
  program_->setUniformValue(
      "uBounds", QVector4D(f(floor.bounds[0]), f(floor.bounds[1]), f(floor.bounds[2]), f(floor.bounds[3])));
  gl.glBindVertexArray(vao_);
  gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  gl.glBindVertexArray(0);
  program_->release();
  gl.glDepthFunc(GL_LESS);
  gl.glDepthMask(GL_TRUE);
}

}  // namespace clumplab::render
