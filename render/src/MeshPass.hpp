#pragma once
// Templates' source meshes (ClumpTemplate::mesh, body frame): one vertex buffer a template,
// uploaded with the layout, and one instanced draw a template with its bodies as instances.
// Translucent: back faces culled, depth read but not written (mesh.vert/.frag).
#include <memory>
#include <vector>

#include "FrameContext.hpp"
#include "LayoutBuffers.hpp"

namespace clumplab::render {

class MeshPass {
 public:
  void initialize(Gl& gl);
  void release(Gl& gl);
  void draw(const FrameContext& frame, const Snapshot& snapshot, const LayoutBuffers& layout);

 private:
  struct TemplateMesh {
    unsigned vao = 0, vertices = 0, bodies = 0;
    int vertexCount = 0, bodyCount = 0;
  };
  void upload(Gl& gl, const Snapshot& snapshot);
  void releaseMeshes(Gl& gl);

  std::unique_ptr<QOpenGLShaderProgram> program_;
  std::vector<TemplateMesh> meshes_;
  std::uint64_t uploadedLayout_ = 0;  // LayoutBuffers::uploads() the meshes belong to
};

}  // namespace clumplab::render
