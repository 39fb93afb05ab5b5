#pragma once
// Draws a Snapshot with OpenGL 3.3 core into the bound framebuffer. Each template's pebbles are
// uploaded once per layoutGeneration; a frame uploads only per-body poses and colours (a texture
// buffer the vertex shaders read), and the shaders place pebbles, wireframes and meshes.
#include <QColor>
#include <cstdint>
#include <memory>

#include "core/world/Snapshot.hpp"
#include "render/Camera.hpp"
#include "render/ViewOptions.hpp"

namespace clumplab::render {

struct RenderStats {
  std::size_t pebbles = 0;        // impostors drawn
  std::size_t layoutUploads = 0;  // times the pebble instances were uploaded since initialize()
};

class SceneRenderer {
 public:
  SceneRenderer();
  ~SceneRenderer();
  SceneRenderer(const SceneRenderer&) = delete;
  SceneRenderer& operator=(const SceneRenderer&) = delete;

  // All of these need a current OpenGL 3.3+ core context (the same one each time).
  void initialize();  // compiles shaders, creates buffers; throws std::runtime_error with the GLSL log
  void render(const Snapshot& snapshot, const Camera& camera, const ViewOptions& options,
              int framebufferWidthPx, int framebufferHeightPx);  // into the currently bound framebuffer
  void release();                                                // deletes the GL objects
  bool isInitialized() const;
  const RenderStats& stats() const;

  static QColor bodyColor(std::uint32_t body);
  // The speed [m/s] or |ω| [rad/s] drawn in the top colour of the magnitude map (for a legend).
  static double colorScaleTop(const Snapshot& snapshot, const ViewOptions& options);  // the palette

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace clumplab::render
