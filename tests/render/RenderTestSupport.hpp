#pragma once
// Helpers of the render tests: an offscreen OpenGL 3.3 core context with a framebuffer object,
// snapshots built in code, and pixel measurements against the background.
#include <QImage>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QtTest>
#include <cmath>
#include <memory>
#include <numbers>

#include "core/world/Snapshot.hpp"
#include "render/Camera.hpp"
#include "render/SceneRenderer.hpp"

namespace clumplab::test {

// A template made directly in its body frame (no principal-axis rotation), unit mass and moments.
inline TemplatePtr bodyFrameTemplate(const std::vector<Pebble>& pebbles, const std::string& name = "t") {
  ClumpTemplate t;
  t.name = name;
  t.pebbles = pebbles;
  t.mass = 1.0;
  t.principalMoments = Vec3(1.0, 2.0, 3.0);
  t.minPebbleRadius = pebbles.empty() ? 0.0 : pebbles.front().radius;
  for (const Pebble& p : pebbles) {
    t.boundingRadius = std::max(t.boundingRadius, p.center.norm() + p.reach());
    t.minPebbleRadius = std::min(t.minPebbleRadius, p.radius);
  }
  return std::make_shared<const ClumpTemplate>(std::move(t));
}

inline void addBody(Snapshot& s, std::uint32_t templateIndex, const Vec3& x, const Quat& q = Quat::Identity(),
                    const Vec3& v = Vec3::Zero(), const Vec3& w = Vec3::Zero()) {
  s.bodies.templateIndex.push_back(templateIndex);
  s.bodies.position.push_back(x);
  s.bodies.orientation.push_back(q);
  s.bodies.velocity.push_back(v);
  s.bodies.angularVelocity.push_back(w);
  s.pebbles += s.templates[templateIndex]->pebbles.size();
}

// An offscreen OpenGL 3.3 core context, current on this thread while the object lives, and a
// renderer drawing into framebuffer objects.
class GlHarness {
 public:
  bool create(QString* why) {
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    surface_.setFormat(format);
    surface_.create();
    context_.setFormat(format);
    if (!context_.create()) return fail(why, "QOpenGLContext::create failed");
    if (!context_.makeCurrent(&surface_)) return fail(why, "makeCurrent failed");
    if (context_.format().version() < qMakePair(3, 3)) return fail(why, "no OpenGL 3.3");
    return true;
  }
  QOpenGLContext& context() { return context_; }

  // Renders into a fresh width x height framebuffer (multisampled if samples > 1) and reads it back.
  QImage render(render::SceneRenderer& renderer, const Snapshot& s, const render::Camera& camera,
                const render::ViewOptions& options, int width, int height, int samples = 0) {
    QOpenGLFramebufferObjectFormat f;
    f.setAttachment(QOpenGLFramebufferObject::Depth);
    f.setSamples(samples);
    QOpenGLFramebufferObject fbo(width, height, f);
    fbo.bind();
    renderer.render(s, camera, options, width, height);
    QImage image = fbo.toImage().convertToFormat(QImage::Format_RGB32);
    fbo.release();
    return image;
  }

 private:
  static bool fail(QString* why, const char* what) {
    if (why) *why = QString::fromLatin1(what);
    return false;
  }
  QOffscreenSurface surface_;
  QOpenGLContext context_;
};

inline int channelDifference(QRgb a, QRgb b) {
  return std::max(
      {std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b))});
}

// Pixels that differ from the background image by more than `threshold` in some channel.
inline std::vector<bool> foreground(const QImage& image, const QImage& background, int threshold = 12) {
  std::vector<bool> mask(static_cast<std::size_t>(image.width() * image.height()), false);
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      mask[static_cast<std::size_t>(y * image.width() + x)] =
          channelDifference(image.pixel(x, y), background.pixel(x, y)) > threshold;
  return mask;
}

struct Blob {
  double area = 0.0;          // pixels
  double cx = 0.0, cy = 0.0;  // centroid of pixel centres, origin top-left
  double radius() const { return std::sqrt(area / std::numbers::pi); }
};

inline Blob measure(const std::vector<bool>& mask, int width) {
  Blob b;
  for (std::size_t i = 0; i < mask.size(); ++i) {
    if (!mask[i]) continue;
    const int x = static_cast<int>(i) % width, y = static_cast<int>(i) / width;
    b.area += 1.0;
    b.cx += x + 0.5;
    b.cy += y + 0.5;
  }
  if (b.area > 0.0) {
    b.cx /= b.area;
    b.cy /= b.area;
  }
  return b;
}

}  // namespace clumplab::test
