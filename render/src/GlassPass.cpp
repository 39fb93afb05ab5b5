#include "GlassPass.hpp"

#include "ShaderLoader.hpp"

namespace clumplab::render {

void GlassPass::initialize(Gl& gl) {
  shader_.initialize(gl, QStringLiteral("glass.vert"), QStringLiteral("glass.frag"));
}

void GlassPass::release(Gl& gl) {
  shader_.release(gl);
}

void GlassPass::draw(const FrameContext& frame, const Vec3& center, double radius) {
  Gl& gl = *frame.gl;
  gl.glEnable(GL_DEPTH_TEST);
  gl.glDepthFunc(GL_LEQUAL);
  gl.glDepthMask(GL_FALSE);
  gl.glEnable(GL_BLEND);
  gl.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  shader_.program->bind();
  setCommonUniforms(frame, *shader_.program);
  shader_.program->setUniformValue("uCenterWorld",
                                   QVector3D(static_cast<float>(center.x()), static_cast<float>(center.y()),
                                             static_cast<float>(center.z())));
  shader_.program->setUniformValue("uRadius", static_cast<float>(radius));
  shader_.program->setUniformValue("uTint", QVector3D(0.55f, 0.70f, 0.85f));
  gl.glBindVertexArray(shader_.vao);
  gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  gl.glBindVertexArray(0);
  shader_.program->release();
  gl.glDepthFunc(GL_LESS);
  gl.glDepthMask(GL_TRUE);
}

}  // namespace clumplab::render
