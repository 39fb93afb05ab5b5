#include "SegmentPass.hpp"

#include <algorithm>
#include <cstddef>

#include "ShaderLoader.hpp"

namespace clumplab::render {

void SegmentList::add(const Vec3& a, const Vec3& b, const QColor& color, float widthPx) {
  const auto byte = [](int v) { return static_cast<std::uint8_t>(std::clamp(v, 0, 255)); };
  items.push_back(
      SegmentInstance{{static_cast<float>(a.x()), static_cast<float>(a.y()), static_cast<float>(a.z())},
                      {static_cast<float>(b.x()), static_cast<float>(b.y()), static_cast<float>(b.z())},
                      {byte(color.red()), byte(color.green()), byte(color.blue()), byte(color.alpha())},
                      widthPx});
}

void SegmentPass::initialize(Gl& gl) {
  program_ = loadProgram(QStringLiteral("segment.vert"), QStringLiteral("segment.frag"));
  gl.glGenVertexArrays(1, &vao_);
  gl.glGenBuffers(1, &buffer_);
  gl.glBindVertexArray(vao_);
  gl.glBindBuffer(GL_ARRAY_BUFFER, buffer_);
  constexpr GLsizei stride = sizeof(SegmentInstance);
  gl.glEnableVertexAttribArray(0);
  gl.glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, bufferOffset(offsetof(SegmentInstance, p0)));
  gl.glEnableVertexAttribArray(1);
  gl.glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, bufferOffset(offsetof(SegmentInstance, p1)));
  gl.glEnableVertexAttribArray(2);
  gl.glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                           bufferOffset(offsetof(SegmentInstance, color)));
  gl.glEnableVertexAttribArray(3);
  gl.glVertexAttribPointer(3, 1, GL_FLOAT, GL_FALSE, stride, bufferOffset(offsetof(SegmentInstance, width)));
  for (GLuint a = 0; a < 4; ++a) gl.glVertexAttribDivisor(a, 1);
  gl.glBindVertexArray(0);
  gl.glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void SegmentPass::release(Gl& gl) {
  program_.reset();
  gl.glDeleteVertexArrays(1, &vao_);
  gl.glDeleteBuffers(1, &buffer_);
  vao_ = buffer_ = 0;
}

void SegmentPass::draw(const FrameContext& frame, const SegmentList& segments, Depth depth) {
  if (segments.items.empty()) return;
  Gl& gl = *frame.gl;
  gl.glBindBuffer(GL_ARRAY_BUFFER, buffer_);
  const auto bytes = static_cast<GLsizeiptr>(segments.items.size() * sizeof(SegmentInstance));
  gl.glBufferData(GL_ARRAY_BUFFER, bytes, segments.items.data(), GL_STREAM_DRAW);
  gl.glBindBuffer(GL_ARRAY_BUFFER, 0);

  if (depth == Depth::OnTop) {
    gl.glDisable(GL_DEPTH_TEST);
  } else {
    gl.glEnable(GL_DEPTH_TEST);
  }
  gl.glDepthMask(GL_FALSE);
  gl.glEnable(GL_BLEND);
  gl.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  program_->bind();
  setCommonUniforms(frame, *program_);
  gl.glBindVertexArray(vao_);
  const auto count = static_cast<GLsizei>(segments.items.size());
  if (depth == Depth::ShowHidden) {
    gl.glDepthFunc(GL_GREATER);
    program_->setUniformValue("uAlphaScale", 0.3f);
    gl.glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, count);
  }
  gl.glDepthFunc(GL_LEQUAL);
  program_->setUniformValue("uAlphaScale", 1.0f);
  gl.glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, count);
  gl.glBindVertexArray(0);
  program_->release();
  gl.glEnable(GL_DEPTH_TEST);
  gl.glDepthFunc(GL_LESS);
  gl.glDepthMask(GL_TRUE);
}

}  // namespace clumplab::render
