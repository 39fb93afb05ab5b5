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

#include "core/Snapshot.hpp"
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

// A loose pile in a box: bodies on a jittered grid, lower layers denser, random orientations.
Snapshot pile(int bodies) {
  Snapshot s;
  s.layoutGeneration = 1;
  s.templates = shapes();
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int side = std::max(1, static_cast<int>(std::ceil(std::sqrt(bodies / 10.0))));
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
  Snapshot s = pile(300);
  render::Camera camera;
  camera.setViewport(w, h);
  camera.setAngles(-0.9, 0.55);
  camera.fit(Vec3(0, 0, 0.012), 0.045);
  render::ViewOptions o;
  save(shot(renderer, s, camera, o, w, h), "pile");

  o.pebbles = false;
  o.wireframe = true;
  camera.fit(Vec3(0, 0, 0.012), 0.03);
  save(shot(renderer, s, camera, o, w, h), "wireframe");

  o = render::ViewOptions{};
  o.coloring = render::Coloring::BySpeed;
  o.selectedBody = 5;
  o.bodyAxes = o.velocityArrows = o.angularVelocityArrows = o.angularMomentumArrows = true;
  o.contactPoints = true;
  camera.fit(s.bodies.position[5], 0.012);
  save(shot(renderer, s, camera, o, w, h), "overlays");
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

    Snapshot s = pile(opt.bodies);
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
