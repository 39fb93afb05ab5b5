#include "BackgroundPass.hpp"

#include "ShaderLoader.hpp"

namespace clumplab::render {

namespace {

QVector3D rgb(const QColor& c) {
  return QVector3D(c.redF(), c.greenF(), c.blueF());
}

}  // namespace

void BackgroundPass::initialize(Gl& gl) {
  shader_.initialize(gl, QStringLiteral("background.vert"), QStringLiteral("background.frag"));
}

void BackgroundPass::release(Gl& gl) {
  shader_.release(gl);
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
  shader_.program->bind();
  shader_.program->setUniformValue("uTop", rgb(top));
  shader_.program->setUniformValue("uBottom", rgb(bottom));
  gl.glBindVertexArray(shader_.vao);
  gl.glDrawArrays(GL_TRIANGLES, 0, 3);
  gl.glBindVertexArray(0);
  shader_.program->release();
}

}  // namespace clumplab::render
