#include "WireframePass.hpp"

#include "PebblePass.hpp"
#include "ShaderLoader.hpp"

namespace clumplab::render {

void WireframePass::initialize(Gl& gl, const LayoutBuffers& layout) {
  program_ = loadProgram(QStringLiteral("wireframe.vert"), QStringLiteral("segment.frag"));
  gl.glGenVertexArrays(1, &vao_);
  gl.glBindVertexArray(vao_);
  bindPebbleInstances(gl, layout);
  gl.glBindVertexArray(0);
}

void WireframePass::release(Gl& gl) {
  program_.reset();
  gl.glDeleteVertexArrays(1, &vao_);
  vao_ = 0;
}

void WireframePass::draw(const FrameContext& frame, const LayoutBuffers& layout, float lineWidthPx) {
  if (layout.pebbleCount() == 0) return;
  Gl& gl = *frame.gl;
  gl.glEnable(GL_DEPTH_TEST);
  gl.glDepthFunc(GL_LEQUAL);
  gl.glDepthMask(GL_FALSE);  // the soft edges must not hide other lines
  gl.glEnable(GL_BLEND);
  gl.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  program_->bind();
  setCommonUniforms(frame, *program_);
  program_->setUniformValue("uLineWidth", lineWidthPx);
  program_->setUniformValue("uAlphaScale", 1.0f);
  gl.glBindVertexArray(vao_);
  gl.glDrawArraysInstanced(GL_TRIANGLES, 0, 24, layout.pebbleCount());
  gl.glBindVertexArray(0);
  program_->release();
  gl.glDepthMask(GL_TRUE);
  gl.glDepthFunc(GL_LESS);
}

}  // namespace clumplab::render
