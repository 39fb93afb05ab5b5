#include "SolidPass.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>

#include "ShaderLoader.hpp"

namespace clumplab::render {

namespace {

SolidVertex vertex(const Vec3& p, const Vec3& n, const QColor& c) {
  const auto byte = [](int v) { return static_cast<std::uint8_t>(std::clamp(v, 0, 255)); };
  return SolidVertex{{static_cast<float>(p.x()), static_cast<float>(p.y()), static_cast<float>(p.z())},
                     {static_cast<float>(n.x()), static_cast<float>(n.y()), static_cast<float>(n.z())},
                     {byte(c.red()), byte(c.green()), byte(c.blue()), byte(c.alpha())}};
}

// Any unit vector perpendicular to the unit vector `a`.
Vec3 perpendicular(const Vec3& a) {
  const Vec3 helper = std::abs(a.z()) < 0.9 ? Vec3::UnitZ() : Vec3::UnitX();
  return a.cross(helper).normalized();
}

}  // namespace

void TriangleList::add(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& na, const Vec3& nb,
                       const Vec3& nc, const QColor& color) {
  vertices.push_back(vertex(a, na, color));
  vertices.push_back(vertex(b, nb, color));
  vertices.push_back(vertex(c, nc, color));
}

void TriangleList::addFlat(const Vec3& a, const Vec3& b, const Vec3& c, const QColor& color) {
  const Vec3 n = (b - a).cross(c - a).normalized();
  add(a, b, c, n, n, n, color);
}

void TriangleList::cone(const Vec3& base, const Vec3& apex, double radius, const QColor& color, int sides) {
  const Vec3 axis = apex - base;
  const double height = axis.norm();
  if (!(height > 0.0)) return;
  const Vec3 w = axis / height;
  const Vec3 u = perpendicular(w), v = w.cross(u);
  const double slope = radius / height;  // side normals tilt towards the apex by this much
  for (int k = 0; k < sides; ++k) {
    const double a0 = 2.0 * std::numbers::pi * k / sides, a1 = 2.0 * std::numbers::pi * (k + 1) / sides;
    const Vec3 r0 = std::cos(a0) * u + std::sin(a0) * v, r1 = std::cos(a1) * u + std::sin(a1) * v;
    const Vec3 p0 = base + radius * r0, p1 = base + radius * r1;
    const Vec3 n0 = (r0 + slope * w).normalized(), n1 = (r1 + slope * w).normalized();
    const Vec3 nApex = (n0 + n1).normalized();
    add(p0, p1, apex, n0, n1, nApex, color);
    add(base, p1, p0, -w, -w, -w, color);
  }
}

void TriangleList::quad(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d, const QColor& color) {
  addFlat(a, b, c, color);
  addFlat(a, c, d, color);
}

void SolidPass::initialize(Gl& gl) {
  program_ = loadProgram(QStringLiteral("solid.vert"), QStringLiteral("solid.frag"));
  gl.glGenVertexArrays(1, &vao_);
  gl.glGenBuffers(1, &buffer_);
  gl.glBindVertexArray(vao_);
  gl.glBindBuffer(GL_ARRAY_BUFFER, buffer_);
  constexpr GLsizei stride = sizeof(SolidVertex);
  gl.glEnableVertexAttribArray(0);
  gl.glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, bufferOffset(offsetof(SolidVertex, position)));
  gl.glEnableVertexAttribArray(1);
  gl.glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, bufferOffset(offsetof(SolidVertex, normal)));
  gl.glEnableVertexAttribArray(2);
  gl.glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                           bufferOffset(offsetof(SolidVertex, color)));
  gl.glBindVertexArray(0);
  gl.glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void SolidPass::release(Gl& gl) {
  program_.reset();
  gl.glDeleteVertexArrays(1, &vao_);
  gl.glDeleteBuffers(1, &buffer_);
  vao_ = buffer_ = 0;
}

void SolidPass::upload(Gl& gl, const TriangleList& triangles) {
  gl.glBindBuffer(GL_ARRAY_BUFFER, buffer_);
  gl.glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(triangles.vertices.size() * sizeof(SolidVertex)),
                  triangles.vertices.data(), GL_STREAM_DRAW);
  gl.glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void SolidPass::drawOpaque(const FrameContext& frame, const TriangleList& triangles, bool showHidden) {
  if (triangles.vertices.empty()) return;
  Gl& gl = *frame.gl;
  upload(gl, triangles);
  const auto count = static_cast<GLsizei>(triangles.vertices.size());
  program_->bind();
  setCommonUniforms(frame, *program_);
  program_->setUniformValue("uLit", 1.0f);
  gl.glBindVertexArray(vao_);
  gl.glEnable(GL_DEPTH_TEST);
  if (showHidden) {
    gl.glDepthMask(GL_FALSE);
    gl.glDepthFunc(GL_GREATER);
    gl.glEnable(GL_BLEND);
    gl.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    program_->setUniformValue("uAlphaScale", 0.3f);
    gl.glDrawArrays(GL_TRIANGLES, 0, count);
  }
  gl.glDisable(GL_BLEND);
  gl.glDepthMask(GL_TRUE);
  gl.glDepthFunc(GL_LESS);
  program_->setUniformValue("uAlphaScale", 1.0f);
  gl.glDrawArrays(GL_TRIANGLES, 0, count);
  gl.glBindVertexArray(0);
  program_->release();
}

void SolidPass::drawTranslucent(const FrameContext& frame, const TriangleList& triangles, bool lit) {
  if (triangles.vertices.empty()) return;
  Gl& gl = *frame.gl;
  upload(gl, triangles);
  program_->bind();
  setCommonUniforms(frame, *program_);
  program_->setUniformValue("uLit", lit ? 1.0f : 0.0f);
  program_->setUniformValue("uAlphaScale", 1.0f);
  gl.glEnable(GL_DEPTH_TEST);
  gl.glDepthFunc(GL_LEQUAL);
  gl.glDepthMask(GL_FALSE);
  gl.glEnable(GL_BLEND);
  gl.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  gl.glBindVertexArray(vao_);
  gl.glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(triangles.vertices.size()));
  gl.glBindVertexArray(0);
  program_->release();
  gl.glDepthMask(GL_TRUE);
  gl.glDepthFunc(GL_LESS);
}

}  // namespace clumplab::render
