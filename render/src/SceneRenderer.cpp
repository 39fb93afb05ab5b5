#include "render/SceneRenderer.hpp"

#include <QOpenGLContext>
#include <QOpenGLVersionFunctionsFactory>
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "BackgroundPass.hpp"
#include "FloorPass.hpp"
#include "GlassPass.hpp"
#include "InletOverlay.hpp"
#include "LayoutBuffers.hpp"
#include "MeshPass.hpp"
#include "MeshWallOverlay.hpp"
#include "Overlays.hpp"
#include "PebblePass.hpp"
#include "PeriodicBoxOverlay.hpp"
#include "SegmentPass.hpp"
#include "SolidPass.hpp"
#include "Trails.hpp"
#include "WallGeometry.hpp"
#include "WireframePass.hpp"
#include "render/ColorMaps.hpp"

namespace clumplab::render {

struct SceneRenderer::Impl {
  Gl* gl = nullptr;
  LayoutBuffers layout;
  BackgroundPass background;
  PebblePass pebbles;
  WireframePass wireframe;
  FloorPass floor;
  SegmentPass segments;
  SolidPass solids;
  MeshPass meshes;
  GlassPass glass;
  Trails trails;
  OverlayGeometry overlays;
  std::vector<QColor> colors;
  RenderStats stats;

  void bodyColors(const Snapshot& snapshot, const ViewOptions& options);
  FloorSpec floorSpec(const WallLayout& walls, const SceneBounds& bounds, const PeriodicBox& periodic) const;
  // Everything of one frame seen through `camera`, written to the colour channels of `mask`
  // (depth cleared by the caller).
  struct View {
    const Snapshot& snapshot;
    const ViewOptions& options;
    const WallLayout& walls;
    const SceneBounds& bounds;
    int widthPx, heightPx;
  };
  struct ColorMask {
    bool red, green, blue;
  };
  void draw(const View& view, const Camera& camera, ColorMask mask);
};

SceneRenderer::SceneRenderer() : impl_(std::make_unique<Impl>()) {}
SceneRenderer::~SceneRenderer() = default;

bool SceneRenderer::isInitialized() const {
  return impl_->gl != nullptr;
}
const RenderStats& SceneRenderer::stats() const {
  return impl_->stats;
}
QColor SceneRenderer::bodyColor(std::uint32_t body) {
  return paletteColor(body);
}

void SceneRenderer::initialize() {
  if (impl_->gl) return;
  QOpenGLContext* context = QOpenGLContext::currentContext();
  if (!context) throw std::runtime_error("SceneRenderer::initialize: no current OpenGL context");
  const QSurfaceFormat format = context->format();
  if (context->isOpenGLES() || format.version() < qMakePair(3, 3))
    throw std::runtime_error("SceneRenderer needs desktop OpenGL 3.3 or later; the context has " +
                             std::string(context->isOpenGLES() ? "OpenGL ES " : "OpenGL ") +
                             std::to_string(format.majorVersion()) + "." +
                             std::to_string(format.minorVersion()));
  Gl* gl = QOpenGLVersionFunctionsFactory::get<Gl>(context);
  if (!gl) throw std::runtime_error("SceneRenderer: the OpenGL 3.3 core functions are not available");
  Impl& d = *impl_;
  d.layout.create(*gl);
  try {
    d.background.initialize(*gl);
    d.pebbles.initialize(*gl, d.layout);
    d.wireframe.initialize(*gl, d.layout);
    d.floor.initialize(*gl);
    d.segments.initialize(*gl);
    d.solids.initialize(*gl);
    d.meshes.initialize(*gl);
    d.glass.initialize(*gl);
  } catch (...) {
    d.gl = gl;
    release();
    throw;
  }
  d.gl = gl;
  d.stats = RenderStats{};
}

void SceneRenderer::release() {
  Impl& d = *impl_;
  if (!d.gl) return;
  Gl& gl = *d.gl;
  d.glass.release(gl);
  d.meshes.release(gl);
  d.solids.release(gl);
  d.segments.release(gl);
  d.floor.release(gl);
  d.wireframe.release(gl);
  d.pebbles.release(gl);
  d.background.release(gl);
  d.layout.destroy(gl);
  d.trails = Trails{};
  d.gl = nullptr;
}

void SceneRenderer::Impl::bodyColors(const Snapshot& snapshot, const ViewOptions& options) {
  const SnapshotBodies& bodies = snapshot.bodies;
  colors.resize(bodies.size());
  if (options.coloring == Coloring::PerBody) {
    for (std::size_t b = 0; b < bodies.size(); ++b) colors[b] = paletteColor(static_cast<std::uint32_t>(b));
  } else {
    const std::vector<Vec3>& v =
        options.coloring == Coloring::BySpeed ? bodies.velocity : bodies.angularVelocity;
    const double top = colorScaleTop(snapshot, options);
    for (std::size_t b = 0; b < bodies.size(); ++b)
      colors[b] = magnitudeColor(top > 0.0 ? v[b].norm() / top : 0.0);
  }
  if (options.stereo) {
    // Each eye sees one colour channel: hues would differ between the eyes (retinal rivalry), so
    // bodies keep only their lightness, lifted a little so both channels carry them.
    for (QColor& c : colors) {
      const double grey = 0.25 + 0.75 * (0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF());
      c = QColor::fromRgbF(static_cast<float>(grey), static_cast<float>(grey), static_cast<float>(grey));
    }
  }
}

void SceneRenderer::Impl::draw(const View& v, const Camera& camera, ColorMask mask) {
  Gl& g = *gl;
  const Snapshot& snapshot = v.snapshot;
  const ViewOptions& options = v.options;
  const WallLayout& walls = v.walls;
  const SceneBounds& bounds = v.bounds;
  FrameContext frame = makeFrameContext(&g, camera, v.widthPx, v.heightPx);
  frame.poseTexture = layout.poseTexture();
  frame.sceneRadius = bounds.radius;
  g.glColorMask(mask.red, mask.green, mask.blue, GL_TRUE);
  g.glDepthMask(GL_TRUE);
  background.draw(frame, options.background);
  // The background wrote alpha 1; keep it so the image stays opaque whatever the passes blend.
  g.glColorMask(mask.red, mask.green, mask.blue, GL_FALSE);

  // Opaque surfaces first, then the floor and everything read against their depth.
  stats.pebbles = 0;
  if (options.pebbles) {
    pebbles.draw(frame, layout);
    stats.pebbles = static_cast<std::size_t>(layout.pebbleCount());
  }
  if (walls.floorHeight) {
    floor.draw(frame, floorSpec(walls, bounds, snapshot.periodic));
    if (options.pebbles && options.shadows) pebbles.drawShadows(frame, layout, *walls.floorHeight);
  }
  if (options.wireframe) wireframe.draw(frame, layout, 1.4f);

  segments.draw(frame, overlays.tested, SegmentPass::Depth::Tested);
  solids.drawOpaque(frame, overlays.solids, true);
  segments.draw(frame, overlays.annotated, SegmentPass::Depth::ShowHidden);

  // Translucent surfaces last.
  if (options.sourceMesh) meshes.draw(frame, snapshot, layout);
  solids.drawTranslucent(frame, overlays.patches, false);
  for (const Wall& cavity : walls.cavities) glass.draw(frame, cavity.point, cavity.radius);
  segments.draw(frame, overlays.onTop, SegmentPass::Depth::OnTop);
}

double SceneRenderer::colorScaleTop(const Snapshot& snapshot, const ViewOptions& options) {
  if (options.colorScaleMax > 0.0) return options.colorScaleMax;
  const std::vector<Vec3>& v =
      options.coloring == Coloring::BySpeed ? snapshot.bodies.velocity : snapshot.bodies.angularVelocity;
  double top = 0.0;
  for (const Vec3& x : v) top = std::max(top, x.norm());
  return top;
}

FloorSpec SceneRenderer::Impl::floorSpec(const WallLayout& walls, const SceneBounds& bounds,
                                         const PeriodicBox& periodic) const {
  FloorSpec f;
  f.height = *walls.floorHeight;
  // A floor under a box periodic in x and y is drawn over the box's footprint, like a box's floor.
  std::optional<Box> footprint;
  if (walls.box && walls.box->lower.z() == f.height) {
    footprint = walls.box;
  } else if (periodic.periodic[0] && periodic.periodic[1]) {
    footprint = Box{periodic.lower, periodic.lower + periodic.length};
  }
  if (footprint) {
    const Box& box = *footprint;
    const Vec3 size = box.upper - box.lower;
    f.center = 0.5 * (box.lower + box.upper);
    f.halfSize = 0.5 * std::max(size.x(), size.y());
    f.fadeRadius = 10.0 * size.norm();
    f.minor = niceSpacing(std::max(size.x(), size.y()) / 12.0);
    f.bounds[0] = box.lower.x();
    f.bounds[1] = box.lower.y();
    f.bounds[2] = box.upper.x();
    f.bounds[3] = box.upper.y();
  } else {
    f.center = bounds.center;
    f.halfSize = 9.0 * bounds.radius;
    f.fadeRadius = 7.0 * bounds.radius;
    f.minor = niceSpacing(bounds.radius / 4.0);
  }
  f.major = 10.0 * f.minor;
  return f;
}

void SceneRenderer::render(const Snapshot& snapshot, const Camera& camera, const ViewOptions& options,
                           int framebufferWidthPx, int framebufferHeightPx) {
  if (!impl_->gl) initialize();
  Impl& d = *impl_;
  Gl& gl = *d.gl;

  if (d.layout.update(gl, snapshot)) ++d.stats.layoutUploads;
  d.bodyColors(snapshot, options);
  d.layout.uploadPoses(gl, snapshot, d.colors, options.selectedBody);
  d.trails.update(snapshot, options.trails);
  const WallLayout walls = options.walls ? analyzeWalls(snapshot.walls) : WallLayout{};
  const SceneBounds bounds = sceneBounds(snapshot, walls);

  d.overlays.clear();
  if (options.walls) {
    buildWallOverlays(walls, bounds, d.overlays);
    buildMeshWallOverlays(walls.meshes, snapshot.time, d.overlays);
    buildPeriodicBoxOverlay(snapshot.periodic, d.overlays);
    for (const Inlet& inlet : snapshot.inlets) buildInletOverlay(inlet, d.overlays);
  }
  buildBodyOverlays(snapshot, options, d.overlays);
  if (options.trails) d.trails.appendSegments(d.overlays.tested, d.colors);

  gl.glViewport(0, 0, std::max(1, framebufferWidthPx), std::max(1, framebufferHeightPx));
  gl.glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  gl.glDepthMask(GL_TRUE);
  gl.glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  gl.glClearDepth(1.0);
  gl.glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  const Impl::View view{snapshot, options, walls, bounds, framebufferWidthPx, framebufferHeightPx};
  if (!options.stereo) {
    d.draw(view, camera, {true, true, true});
  } else {
    // Anaglyph (Mutze, Polyspherical grains, §8): the left eye in red, the right eye in green and blue, each
    // drawn whole through its colour mask over the depth it alone wrote.
    const double half = 0.5 * options.eyeSeparation * camera.distance();
    d.draw(view, camera.stereoEye(-half), {true, false, false});
    gl.glClear(GL_DEPTH_BUFFER_BIT);
    d.draw(view, camera.stereoEye(half), {false, true, true});
  }

  // Leave the state as OpenGL's defaults have it.
  gl.glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  gl.glDepthMask(GL_TRUE);
  gl.glDepthFunc(GL_LESS);
  gl.glDisable(GL_DEPTH_TEST);
  gl.glDisable(GL_BLEND);
  gl.glDisable(GL_CULL_FACE);
  gl.glBlendFunc(GL_ONE, GL_ZERO);
  gl.glBindTexture(GL_TEXTURE_BUFFER, 0);
  gl.glBindVertexArray(0);
}

}  // namespace clumplab::render
