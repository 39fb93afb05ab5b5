#pragma once
// What every pass needs to draw one frame: matrices, sizes in framebuffer pixels, lights, the
// per-body pose texture, and whether the framebuffer is multisampled.
#include <QMatrix4x4>
#include <QOpenGLShaderProgram>
#include <QVector3D>

#include "Gl.hpp"
#include "render/Camera.hpp"

namespace clumplab::render {

struct FrameContext {
  Gl* gl = nullptr;
  const Camera* camera = nullptr;
  QMatrix4x4 view, projection;
  int width = 1, height = 1;               // framebuffer pixels
  float pixelRatio = 1.0f;                 // framebuffer pixels per logical pixel
  float focalPx = 1.0f;                    // framebuffer pixels per unit tan(angle off axis)
  QVector3D keyLight, fillLight, worldUp;  // unit, view space (towards the light; world +z)
  unsigned poseTexture = 0;  // texture buffer, RGBA32F, 3 texels per body (position, quaternion, colour)
  bool multisampled = false;
  float alphaCutoff =
      0.5f;  // coverage below this is discarded: 0.5 for one sample, ~0 with alpha-to-coverage
  double sceneRadius = 1.0;  // [m] of the bodies' bounding sphere, for sizes that follow the scene
};

FrameContext makeFrameContext(Gl* gl, const Camera& camera, int framebufferWidth, int framebufferHeight);

// Sets the uniforms most programs share (those they lack are ignored) and binds the pose texture
// to unit 0.
void setCommonUniforms(const FrameContext& frame, QOpenGLShaderProgram& program);

}  // namespace clumplab::render
