#include "gui/docks/TemplateThumbnail.hpp"

#include <QPainter>
#include <QRadialGradient>
#include <algorithm>
#include <cmath>
#include <vector>

namespace clumplab::gui {

QImage templateThumbnail(const ClumpTemplate& clump, QSize pixels, QColor color) {
  QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  if (clump.pebbles.empty() || pixels.isEmpty()) return image;
  // The body frame has the smallest moment (the longest extent, usually) along x: lay it across
  // the picture, seen from the front, above and to the side.
  const Vec3 forward = Vec3(-0.45, 1.0, -0.55).normalized();  // viewing direction, body frame
  Vec3 right = (Vec3::UnitX() - Vec3::UnitX().dot(forward) * forward).normalized();
  Vec3 up = right.cross(forward);  // right x up = -forward: a right-handed view
  if (up.z() < 0.0) {
    right = -right;
    up = -up;
  }
  struct Disc {
    double x, y, depth, radius;
  };
  std::vector<Disc> discs;
  discs.reserve(clump.pebbles.size());
  double left = INFINITY, top = INFINITY, rightmost = -INFINITY, bottom = -INFINITY;
  for (const Pebble& p : clump.pebbles) {
    if (!p.center.allFinite() || !(p.radius > 0.0)) continue;
    // A spherocylinder as discs along its shaft, a quarter radius apart.
    const int count =
        p.isSphere() ? 1 : std::min(64, static_cast<int>(std::ceil(8.0 * p.halfLength / p.radius)) + 1);
    for (int k = 0; k < count; ++k) {
      const double s = count == 1 ? 0.0 : p.halfLength * (2.0 * k / (count - 1) - 1.0);
      const Vec3 c = p.center + s * p.axis;
      const Disc d{c.dot(right), -c.dot(up), c.dot(forward), p.radius};
      left = std::min(left, d.x - d.radius);
      rightmost = std::max(rightmost, d.x + d.radius);
      top = std::min(top, d.y - d.radius);
      bottom = std::max(bottom, d.y + d.radius);
      discs.push_back(d);
    }
  }
  if (discs.empty()) return image;
  std::sort(discs.begin(), discs.end(), [](const Disc& a, const Disc& b) { return a.depth > b.depth; });
  const double margin = 0.06 * std::min(pixels.width(), pixels.height());
  const double scale = std::min((pixels.width() - 2.0 * margin) / std::max(rightmost - left, 1e-12),
                                (pixels.height() - 2.0 * margin) / std::max(bottom - top, 1e-12));
  const double offsetX = 0.5 * (pixels.width() - scale * (rightmost - left)) - scale * left;
  const double offsetY = 0.5 * (pixels.height() - scale * (bottom - top)) - scale * top;
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(Qt::NoPen);
  const QColor light = color.lighter(165), dark = color.darker(260);
  for (const Disc& d : discs) {
    const QPointF c(offsetX + scale * d.x, offsetY + scale * d.y);
    const double r = std::max(scale * d.radius, 0.6);
    // Lit from the upper left: a highlight off centre, the rim in shade.
    QRadialGradient shade(c, r, c + QPointF(-0.35 * r, -0.4 * r));
    shade.setColorAt(0.0, light);
    shade.setColorAt(0.55, color);
    shade.setColorAt(1.0, dark);
    painter.setBrush(shade);
    painter.drawEllipse(c, r, r);
  }
  return image;
}

}  // namespace clumplab::gui
