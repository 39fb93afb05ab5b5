#include "MeshPass.hpp"

#include "ShaderLoader.hpp"

namespace clumplab::render {

void MeshPass::initialize(Gl&) {
  program_ = loadProgram(QStringLiteral("mesh.vert"), QStringLiteral("mesh.frag"));
  uploadedLayout_ = 0;
}

void MeshPass::release(Gl& gl) {
  releaseMeshes(gl);
  program_.reset();
}

void MeshPass::releaseMeshes(Gl& gl) {
  for (TemplateMesh& m : meshes_) {
    gl.glDeleteVertexArrays(1, &m.vao);
    gl.glDeleteBuffers(1, &m.vertices);
    gl.glDeleteBuffers(1, &m.bodies);
  }
  meshes_.clear();
}

void MeshPass::upload(Gl& gl, const Snapshot& snapshot) {
  releaseMeshes(gl);
  std::vector<std::vector<std::uint32_t>> bodiesOf(snapshot.templates.size());
  for (std::size_t b = 0; b < snapshot.bodies.size(); ++b) {
    const std::uint32_t t = snapshot.bodies.templateIndex[b];
    if (t < bodiesOf.size()) bodiesOf[t].push_back(static_cast<std::uint32_t>(b));
  }
  for (std::size_t t = 0; t < snapshot.templates.size(); ++t) {
    const TemplatePtr& tp = snapshot.templates[t];
    if (!tp || !tp->mesh || tp->mesh->triangles.empty() || bodiesOf[t].empty()) continue;
    const TriangleMesh& mesh = *tp->mesh;
    // Flat shading: three vertices a triangle, each with the face normal.
    std::vector<float> data;
    data.reserve(mesh.size() * 18);
    for (std::size_t i = 0; i < mesh.size(); ++i) {
      const Vec3 &a = mesh.corner(i, 0), &b = mesh.corner(i, 1), &c = mesh.corner(i, 2);
      Vec3 n = (b - a).cross(c - a);
      n = n.norm() > 0.0 ? Vec3(n.normalized()) : Vec3::UnitZ();
      for (const Vec3* p : {&a, &b, &c}) {
        for (int k = 0; k < 3; ++k) data.push_back(static_cast<float>((*p)[k]));
        for (int k = 0; k < 3; ++k) data.push_back(static_cast<float>(n[k]));
      }
    }
    TemplateMesh m;
    m.vertexCount = static_cast<int>(mesh.size() * 3);
    m.bodyCount = static_cast<int>(bodiesOf[t].size());
    gl.glGenVertexArrays(1, &m.vao);
    gl.glGenBuffers(1, &m.vertices);
    gl.glGenBuffers(1, &m.bodies);
    gl.glBindVertexArray(m.vao);
    gl.glBindBuffer(GL_ARRAY_BUFFER, m.vertices);
    gl.glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.size() * sizeof(float)), data.data(),
                    GL_STATIC_DRAW);
    gl.glEnableVertexAttribArray(0);
    gl.glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), bufferOffset(0));
    gl.glEnableVertexAttribArray(1);
    gl.glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), bufferOffset(3 * sizeof(float)));
    gl.glBindBuffer(GL_ARRAY_BUFFER, m.bodies);
    gl.glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(bodiesOf[t].size() * sizeof(std::uint32_t)),
                    bodiesOf[t].data(), GL_STATIC_DRAW);
    gl.glEnableVertexAttribArray(2);
    gl.glVertexAttribIPointer(2, 1, GL_UNSIGNED_INT, sizeof(std::uint32_t), bufferOffset(0));
    gl.glVertexAttribDivisor(2, 1);
    gl.glBindVertexArray(0);
    gl.glBindBuffer(GL_ARRAY_BUFFER, 0);
    meshes_.push_back(m);
  }
}

void MeshPass::draw(const FrameContext& frame, const Snapshot& snapshot, const LayoutBuffers& layout) {
  Gl& gl = *frame.gl;
  if (uploadedLayout_ != layout.uploads()) {
    upload(gl, snapshot);
    uploadedLayout_ = layout.uploads();
  }
  if (meshes_.empty()) return;
  gl.glEnable(GL_DEPTH_TEST);
  gl.glDepthFunc(GL_LEQUAL);
  gl.glDepthMask(GL_FALSE);
  gl.glEnable(GL_BLEND);
  gl.glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  gl.glEnable(GL_CULL_FACE);
  gl.glCullFace(GL_BACK);
  gl.glFrontFace(GL_CCW);
  program_->bind();
  setCommonUniforms(frame, *program_);
  for (const TemplateMesh& m : meshes_) {
    gl.glBindVertexArray(m.vao);
    gl.glDrawArraysInstanced(GL_TRIANGLES, 0, m.vertexCount, m.bodyCount);
  }
  gl.glBindVertexArray(0);
  program_->release();
  gl.glDisable(GL_CULL_FACE);
  gl.glDepthFunc(GL_LESS);
  gl.glDepthMask(GL_TRUE);
}

}  // namespace clumplab::render
