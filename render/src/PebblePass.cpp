#include "PebblePass.hpp"

#include "ShaderLoader.hpp"

namespace clumplab::render {

void bindPebbleInstances(Gl& gl, const LayoutBuffers& layout) {
  gl.glBindBuffer(GL_ARRAY_BUFFER, layout.instanceBuffer());
  gl.glEnableVertexAttribArray(0);
  gl.glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(PebbleInstance), bufferOffset(0));
  gl.glVertexAttribDivisor(0, 1);
  gl.glEnableVertexAttribArray(1);
  gl.glVertexAttribIPointer(1, 1, GL_UNSIGNED_INT, sizeof(PebbleInstance),
                            bufferOffset(offsetof(PebbleInstance, body)));
  gl.glVertexAttribDivisor(1, 1);
  gl.glEnableVertexAttribArray(2);
  gl.glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, sizeof(PebbleInstance),
                           bufferOffset(offsetof(PebbleInstance, shaft)));
  gl.glVertexAttribDivisor(2, 1);
  gl.glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void PebblePass::initialize(Gl& gl, const LayoutBuffers& layout) {
  program_ = loadProgram(QStringLiteral("pebble.vert"), QStringLiteral("pebble.frag"));
  shadowProgram_ = loadProgram(QStringLiteral("shadow.vert"), QStringLiteral("shadow.frag"));
  gl.glGenVertexArrays(1, &vao_);
  gl.glBindVertexArray(vao_);
  bindPebbleInstances(gl, layout);
  gl.glBindVertexArray(0);
}

void PebblePass::release(Gl& gl) {
  program_.reset();
  shadowProgram_.reset();
  gl.glDeleteVertexArrays(1, &vao_);
  vao_ = 0;
}

void PebblePass::draw(const FrameContext& frame, const LayoutBuffers& layout) {
  if (layout.pebbleCount() == 0) return;
  Gl& gl = *frame.gl;
  gl.glEnable(GL_DEPTH_TEST);
  gl.glDepthFunc(GL_LESS);
  gl.glDepthMask(GL_TRUE);
  gl.glDisable(GL_BLEND);
  if (frame.multisampled) gl.glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE);
  program_->bind();
  setCommonUniforms(frame, *program_);
  program_->setUniformValue("uSelectColor", QVector3D(1.0f, 0.78f, 0.32f));
  gl.glBindVertexArray(vao_);
  gl.glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, layout.pebbleCount());
  gl.glBindVertexArray(0);
  program_->release();
  gl.glDisable(GL_SAMPLE_ALPHA_TO_COVERAGE);
}

void PebblePass::drawShadows(const FrameContext& frame, const LayoutBuffers& layout, double floorHeight) {
  if (layout.pebbleCount() == 0) return;
  Gl& gl = *frame.gl;
  gl.glEnable(GL_DEPTH_TEST);
  gl.glDepthFunc(GL_LEQUAL);
  gl.glDepthMask(GL_FALSE);
  gl.glEnable(GL_BLEND);
  gl.glBlendFunc(GL_ZERO, GL_SRC_COLOR);
  shadowProgram_->bind();
  setCommonUniforms(frame, *shadowProgram_);
  shadowProgram_->setUniformValue("uHeight", static_cast<float>(floorHeight));
  gl.glBindVertexArray(vao_);
  gl.glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, layout.pebbleCount());
  gl.glBindVertexArray(0);
  shadowProgram_->release();
  gl.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  gl.glDepthFunc(GL_LESS);
}

}  // namespace clumplab::render
