#include "BackgroundPass.hpp"

#include "ShaderLoader.hpp"

namespace clumplab::render {

namespace {

QVector3D rgb(const QColor& c) {
  return QVector3D(c.redF(), c.greenF(), c.blueF());
}

}  // namespace

void BackgroundPass::initialize(Gl& gl) {
  program_ = loadProgram(QStringLiteral("background.vert"), QStringLiteral("background.frag"));
  gl.glGenVertexArrays(1, &vao_);
}

void BackgroundPass::release(Gl& gl) {
  program_.reset();
  gl.glDeleteVertexArrays(1, &vao_);
  vao_ = 0;
}

void BackgroundPass::draw(const FrameContext& frame, const QColor& base) {
  QColor top(0x4a, 0x52, 0x60), bottom(0x15, 0x18, 0x1e);
  if (base.isValid()) {
    top = base.lighter(135);
    bottom = base.darker(150);
  }
  Gl& gl = *frame.gl;
  gl.glDisable(GL_DEPTH_TEST);
  gl.glDepthMask(GL_FALSE);
  gl.glDisable(GL_BLEND);
  program_->bind();
  program_->setUniformValue("uTop", rgb(top));
  program_->setUniformValue("uBottom", rgb(bottom));
  gl.glBindVertexArray(vao_);
  gl.glDrawArrays(GL_TRIANGLES, 0, 3);
  gl.glBindVertexArray(0);
  program_->release();
}

}  // namespace clumplab::render
