#include "FrameContext.hpp"

#include <algorithm>
#include <cmath>

namespace clumplab::render {

FrameContext makeFrameContext(Gl* gl, const Camera& camera, int framebufferWidth, int framebufferHeight) {
  FrameContext f;
  f.gl = gl;
  f.camera = &camera;
  f.view = camera.viewMatrix();
  f.projection = camera.projectionMatrix();
  f.width = std::max(1, framebufferWidth);
  f.height = std::max(1, framebufferHeight);
  f.pixelRatio = static_cast<float>(f.height) / static_cast<float>(camera.height());
  f.focalPx = static_cast<float>(camera.focalPixels()) * f.pixelRatio;
  // A key light above, left of and behind the viewer, a cool fill from the lower right.
  f.keyLight = QVector3D(-0.45f, 0.70f, 0.55f).normalized();
  f.fillLight = QVector3D(0.60f, -0.25f, 0.75f).normalized();
  f.worldUp = f.view.mapVector(QVector3D(0.0f, 0.0f, 1.0f)).normalized();

  GLint samples = 0;
  gl->glGetIntegerv(GL_SAMPLES, &samples);
  f.multisampled = samples > 1;
  f.alphaCutoff = f.multisampled ? 0.02f : 0.5f;
  return f;
}

void setCommonUniforms(const FrameContext& frame, QOpenGLShaderProgram& program) {
  program.setUniformValue("uView", frame.view);
  program.setUniformValue("uProjection", frame.projection);
  program.setUniformValue("uViewport",
                          QVector2D(static_cast<float>(frame.width), static_cast<float>(frame.height)));
  program.setUniformValue("uFocalPx", frame.focalPx);
  program.setUniformValue("uPixelRatio", frame.pixelRatio);
  program.setUniformValue("uKeyLight", frame.keyLight);
  program.setUniformValue("uFillLight", frame.fillLight);
  program.setUniformValue("uWorldUp", frame.worldUp);
  program.setUniformValue("uAlphaCutoff", frame.alphaCutoff);
  program.setUniformValue("uPoses", 0);
  frame.gl->glActiveTexture(GL_TEXTURE0);
  frame.gl->glBindTexture(GL_TEXTURE_BUFFER, frame.poseTexture);
}

}  // namespace clumplab::render
