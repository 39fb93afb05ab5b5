// bench_render: draws a pile of clumps (default 1000 bodies x 10 pebbles) at 1280x720 into an
// offscreen framebuffer, glFinish after every frame, and prints the frame times as JSON. The
// bodies turn a little every frame, so each frame uploads poses as the app does.
//
//   bench_render [--frames N] [--bodies N] [--width W] [--height H] [--samples S] [--shots DIR]
//                [--no-pebbles] [--no-walls] [--no-shadows] [--wireframe]
//
// --shots DIR also writes showcase images (DIR/render-*.png) of the pile and of other options.
#include <QGuiApplication>
#include <QImage>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "core/world/Snapshot.hpp"
#include "render/Camera.hpp"
#include "render/SceneRenderer.hpp"

using namespace clumplab;

namespace {

struct Options {
  int frames = 60, bodies = 1000, width = 1280, height = 720, samples = 0;
  QString shots;
  render::ViewOptions view;
};

TemplatePtr makeShape(const std::string& name, const std::vector<Pebble>& pebbles) {
  ClumpTemplate t;
  t.name = name;
  Vec3 com = Vec3::Zero();
  for (const Pebble& p : pebbles) com += p.center;
  com /= static_cast<double>(pebbles.size());
  for (Pebble p : pebbles) {
    p.center -= com;
    t.pebbles.push_back(p);
    t.boundingRadius = std::max(t.boundingRadius, p.center.norm() + p.radius);
  }
  t.minPebbleRadius = pebbles.front().radius;
  t.mass = 1e-3;
  t.principalMoments = Vec3(1e-8, 2e-8, 2.5e-8);
  return std::make_shared<const ClumpTemplate>(std::move(t));
}

// Three 10-pebble shapes, ~1 cm across: a T-bar, a bent rod, a compact cluster.
std::vector<TemplatePtr> shapes() {
  const double r = 1e-3;
  std::vector<Pebble> tbar, bent, cluster;
  for (int k = 0; k < 5; ++k) tbar.push_back({Vec3(0, 0, 1e-3 * k), r});
  for (int k = -2; k <= 2; ++k) tbar.push_back({Vec3(1e-3 * k, 0, 5e-3), r});
  for (int k = 0; k < 10; ++k) {
    const double a = 0.25 * k;
    bent.push_back({Vec3(4e-3 * std::sin(a), 4e-3 * (1 - std::cos(a)), 0.3e-3 * k), 0.8 * r + 0.04e-3 * k});
  }
  for (int k = 0; k < 10; ++k) {
    const double z = 1.0 - 2.0 * (k + 0.5) / 10.0, phi = 2.399963 * k;
    const double s = std::sqrt(1.0 - z * z);
    cluster.push_back({1.6e-3 * Vec3(s * std::cos(phi), s * std::sin(phi), z), 1.15 * r});
  }
  return {makeShape("t-bar", tbar), makeShape("bent rod", bent), makeShape("cluster", cluster)};
}

// A loose pile in a box: `perLayer` bodies a layer on a jittered grid, random orientations.
Snapshot pile(int bodies, int perLayer) {
  Snapshot s;
  s.layoutGeneration = 1;
  s.templates = shapes();
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int side = std::max(1, static_cast<int>(std::ceil(std::sqrt(perLayer))));
  const double spacing = 8e-3;
  for (int i = 0; i < bodies; ++i) {
    const int layer = i / (side * side), k = i % (side * side);
    const Vec3 x((k % side - 0.5 * (side - 1)) * spacing + 1.5e-3 * u(rng),
                 (k / side - 0.5 * (side - 1)) * spacing + 1.5e-3 * u(rng),
                 4e-3 + layer * 5.5e-3 + 1e-3 * u(rng));
    const Quat q = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
    s.bodies.templateIndex.push_back(static_cast<std::uint32_t>(i % 3));
    s.bodies.position.push_back(x);
    s.bodies.orientation.push_back(q);
    s.bodies.velocity.push_back(Vec3(u(rng), u(rng), u(rng)) * 0.05 * (1.0 + layer));
    s.bodies.angularVelocity.push_back(Vec3(u(rng), u(rng), u(rng)) * 20.0);
    s.pebbles += s.templates[static_cast<std::size_t>(i % 3)]->pebbles.size();
  }
  const double half = 0.5 * side * spacing + 4e-3;
  s.walls = Wall::box(Vec3(-half, -half, 0.0), Vec3(half, half, 0.0 + 2.0 * half));
  return s;
}

// Cube clumps (eight pebbles each) with their cube meshes, on an open floor.
Snapshot cubes() {
  Snapshot s;
  s.layoutGeneration = 2;
  const double a = 2e-3;
  ClumpTemplate t;
  t.name = "cube";
  for (int i = 0; i < 8; ++i)
    t.pebbles.push_back({a * Vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1), 1.25 * a});
  t.boundingRadius = std::sqrt(3.0) * a + 1.25 * a;
  t.minPebbleRadius = 1.25 * a;
  t.mass = 1e-3;
  t.principalMoments = Vec3(1e-8, 1e-8, 1e-8);
  auto mesh = std::make_shared<TriangleMesh>();
  const double h = 2.0 * a;
  for (int i = 0; i < 8; ++i)
    mesh->vertices.push_back(h * Vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1));
  // Two counter-clockwise triangles a face, seen from outside.
  mesh->triangles = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                     {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  t.mesh = mesh;
  s.templates.push_back(std::make_shared<const ClumpTemplate>(std::move(t)));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 9; ++i) {
    const Vec3 x(1.4e-2 * (i % 3 - 1) + 2e-3 * u(rng), 1.4e-2 * (i / 3 - 1) + 2e-3 * u(rng),
                 5e-3 + 4e-3 * (i % 2));
    s.bodies.templateIndex.push_back(0);
    s.bodies.position.push_back(x);
    s.bodies.orientation.push_back(Quat(u(rng), u(rng), u(rng), u(rng)).normalized());
    s.bodies.velocity.push_back(Vec3::Zero());
    s.bodies.angularVelocity.push_back(Vec3::Zero());
    s.pebbles += 8;
  }
  s.walls = {Wall::plane(Vec3::Zero(), Vec3::UnitZ())};
  return s;
}

// Mutze, Polyspherical grains, §8's example: ten grains of four overlapping spheres in a spherical cavity.
Snapshot cavity() {
  Snapshot s;
  s.layoutGeneration = 3;
  std::vector<Pebble> grain = {{Vec3(0, 0, 0), 5e-3},
                               {Vec3(6e-3, 0, 0), 4e-3},
                               {Vec3(-2e-3, 5e-3, 0), 4e-3},
                               {Vec3(-2e-3, -1e-3, 5e-3), 3.5e-3}};
  s.templates.push_back(makeShape("grain", grain));
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 10; ++i) {
    const double phi = 2.399963 * i, z = 1.0 - 2.0 * (i + 0.5) / 10.0;
    const Vec3 x =
        0.026 * Vec3(std::sqrt(1 - z * z) * std::cos(phi), std::sqrt(1 - z * z) * std::sin(phi), z);
    s.bodies.templateIndex.push_back(0);
    s.bodies.position.push_back(x);
    s.bodies.orientation.push_back(Quat(u(rng), u(rng), u(rng), u(rng)).normalized());
    s.bodies.velocity.push_back(Vec3(u(rng), u(rng), u(rng)) * 0.1);
    s.bodies.angularVelocity.push_back(Vec3(u(rng), u(rng), u(rng)) * 10.0);
    s.pebbles += 4;
  }
  s.walls = {Wall::cavity(Vec3::Zero(), 0.0442)};
  return s;
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--no-pebbles") {
      o.view.pebbles = false;
      continue;
    }
    if (a == "--no-walls") {
      o.view.walls = false;
      continue;
    }
    if (a == "--no-shadows") {
      o.view.shadows = false;
      continue;
    }
    if (a == "--wireframe") {
      o.view.wireframe = true;
      continue;
    }
    const char* v = next();
    if (!v) return false;
    if (a == "--frames")
      o.frames = std::atoi(v);
    else if (a == "--bodies")
      o.bodies = std::atoi(v);
    else if (a == "--width")
      o.width = std::atoi(v);
    else if (a == "--height")
      o.height = std::atoi(v);
    else if (a == "--samples")
      o.samples = std::atoi(v);
    else if (a == "--shots")
      o.shots = QString::fromLocal8Bit(v);
    else
      return false;
  }
  return o.frames > 0 && o.bodies > 0 && o.width > 0 && o.height > 0;
}

class Offscreen {
 public:
  bool create() {
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    surface_.setFormat(format);
    surface_.create();
    context_.setFormat(format);
    return context_.create() && context_.makeCurrent(&surface_);
  }
  QOpenGLContext& context() { return context_; }

 private:
  QOffscreenSurface surface_;
  QOpenGLContext context_;
};

// One frame into a throwaway framebuffer (to advance the renderer's trails).
void render(render::SceneRenderer& renderer, const Snapshot& s, const render::Camera& camera,
            const render::ViewOptions& o, int w, int h) {
  QOpenGLFramebufferObject fbo(w, h, QOpenGLFramebufferObject::Depth);
  fbo.bind();
  renderer.render(s, camera, o, w, h);
  fbo.release();
}

QImage shot(render::SceneRenderer& renderer, const Snapshot& s, const render::Camera& camera,
            const render::ViewOptions& o, int w, int h) {
  QOpenGLFramebufferObjectFormat f;
  f.setAttachment(QOpenGLFramebufferObject::Depth);
  f.setSamples(4);
  QOpenGLFramebufferObject fbo(w, h, f);
  fbo.bind();
  renderer.render(s, camera, o, w, h);
  QImage image = fbo.toImage().convertToFormat(QImage::Format_RGB32);
  fbo.release();
  return image;
}

void writeShots(render::SceneRenderer& renderer, const QString& dir, int w, int h) {
  const auto save = [&](const QImage& image, const char* name) {
    const QString path = dir + "/render-" + name + ".png";
    std::printf("%s %s\n", image.save(path) ? "wrote" : "could not write", qPrintable(path));
  };
  render::Camera camera;
  camera.setViewport(w, h);
  camera.setAngles(-0.9, 0.5);

  Snapshot s = pile(400, 144);
  camera.fit(Vec3(0, 0, 0.01), 0.06);
  render::ViewOptions o;
  save(shot(renderer, s, camera, o, w, h), "pile");

  o.pebbles = false;
  o.wireframe = true;
  camera.fit(Vec3(0, 0, 0.01), 0.035);
  save(shot(renderer, s, camera, o, w, h), "wireframe");

  o = render::ViewOptions{};
  o.coloring = render::Coloring::BySpeed;
  o.selectedBody = 150;
  o.bodyAxes = o.velocityArrows = o.angularVelocityArrows = o.angularMomentumArrows = true;
  camera.fit(s.bodies.position[150], 0.014);
  save(shot(renderer, s, camera, o, w, h), "overlays");

  const Snapshot c = cubes();
  o = render::ViewOptions{};
  o.sourceMesh = true;
  camera.setAngles(-0.6, 0.45);
  camera.fit(Vec3(0, 0, 0.005), 0.03);
  save(shot(renderer, c, camera, o, w, h), "mesh");

  // Trails need a history: move the grains along straight lines for a while.
  Snapshot g = cavity();
  o = render::ViewOptions{};
  o.trails = true;
  camera.setAngles(-0.5, 0.35);
  camera.fit(Vec3::Zero(), 0.0442);
  for (int frame = 0; frame < 60; ++frame) {
    for (std::size_t b = 0; b < g.bodies.size(); ++b) {
      g.bodies.position[b] +=
          2.5e-4 * g.bodies.velocity[b] / g.bodies.velocity[b].norm() + Vec3(0, 0, -2e-5 * frame);
      g.bodies.orientation[b] =
          (Quat(Eigen::AngleAxisd(0.05, g.bodies.angularVelocity[b].normalized())) * g.bodies.orientation[b])
              .normalized();
    }
    render(renderer, g, camera, o, w, h);
  }
  save(shot(renderer, g, camera, o, w, h), "cavity");
  o.pebbles = false;
  o.wireframe = true;
  save(shot(renderer, g, camera, o, w, h), "cavity-wireframe");
}

}  // namespace

int main(int argc, char** argv) {
  QGuiApplication app(argc, argv);
  Options opt;
  if (!parse(argc, argv, opt)) {
    std::fprintf(stderr,
                 "usage: bench_render [--frames N] [--bodies N] [--width W] [--height H] [--samples S] "
                 "[--shots DIR] [--no-pebbles] [--no-walls] [--no-shadows] [--wireframe]\n");
    return 2;
  }
  Offscreen gl;
  if (!gl.create()) {
    std::fprintf(stderr, "bench_render: no OpenGL 3.3 core context\n");
    return 1;
  }
  render::SceneRenderer renderer;
  try {
    renderer.initialize();
    if (!opt.shots.isEmpty()) writeShots(renderer, opt.shots, opt.width, opt.height);

    Snapshot s = pile(opt.bodies, opt.bodies / 10);
    render::Camera camera;
    camera.setViewport(opt.width, opt.height);
    camera.setAngles(-0.9, 0.55);
    const double extent = 0.5 * std::sqrt(opt.bodies / 10.0) * 8e-3 + 8e-3;
    camera.fit(Vec3(0, 0, 0.3 * extent), 1.2 * extent);
    const render::ViewOptions options = opt.view;

    QOpenGLFramebufferObjectFormat f;
    f.setAttachment(QOpenGLFramebufferObject::Depth);
    f.setSamples(opt.samples);
    QOpenGLFramebufferObject fbo(opt.width, opt.height, f);
    fbo.bind();
    QOpenGLFunctions* fn = gl.context().functions();
    std::vector<double> ms;
    const Quat spin(Eigen::AngleAxisd(0.02, Vec3(0.3, 0.5, 0.8).normalized()));
    for (int frame = -2; frame < opt.frames; ++frame) {  // two warm-up frames
      for (Quat& q : s.bodies.orientation) q = (spin * q).normalized();
      const auto t0 = std::chrono::steady_clock::now();
      renderer.render(s, camera, options, opt.width, opt.height);
      fn->glFinish();
      const auto t1 = std::chrono::steady_clock::now();
      if (frame >= 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    fbo.release();
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) {
      return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * static_cast<double>(ms.size())))];
    };
    std::printf(
        "{\"pebbles\": %zu, \"bodies\": %zu, \"width\": %d, \"height\": %d, \"samples\": %d, \"frames\": %d, "
        "\"ms_per_frame_median\": %.3f, \"ms_per_frame_p90\": %.3f}\n",
        s.pebbles, s.bodies.size(), opt.width, opt.height, opt.samples, opt.frames, at(0.5), at(0.9));
    renderer.release();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_render: %s\n", e.what());
    return 1;
  }
  return 0;
}
