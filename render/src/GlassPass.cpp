#include "GlassPass.hpp"

#include "ShaderLoader.hpp"

namespace clumplab::render {

void GlassPass::initialize(Gl& gl) {
  program_ = loadProgram(QStringLiteral("glass.vert"), QStringLiteral("glass.frag"));
  gl.glGenVertexArrays(1, &vao_);
}

void GlassPass::release(Gl& gl) {
  program_.reset();
  gl.glDeleteVertexArrays(1, &vao_);
  vao_ = 0;
}

void GlassPass::draw(const FrameContext& frame, const Vec3& center, double radius) {
  Gl& gl = *frame.gl;
  gl.glEnable(GL_DEPTH_TEST);
  gl.glDepthFunc(GL_LEQUAL);
  gl.glDepthMask(GL_FALSE);
  gl.glEnable(GL_BLEND);
  gl.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  program_->bind();
  setCommonUniforms(frame, *program_);
  program_->setUniformValue("uCenterWorld",
                            QVector3D(static_cast<float>(center.x()), static_cast<float>(center.y()),
                                      static_cast<float>(center.z())));
  program_->setUniformValue("uRadius", static_cast<float>(radius));
  program_->setUniformValue("uTint", QVector3D(0.55f, 0.70f, 0.85f));
  gl.glBindVertexArray(vao_);
  gl.glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  gl.glBindVertexArray(0);
  program_->release();
  gl.glDepthFunc(GL_LESS);
  gl.glDepthMask(GL_TRUE);
}

}  // namespace clumplab::render
