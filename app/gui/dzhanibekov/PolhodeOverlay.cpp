#include "gui/dzhanibekov/PolhodeOverlay.hpp"

#include <limits>

namespace clumplab::gui {

namespace {
const QColor kTrailColor(0xff, 0xd1, 0x66);
const QColor kLoopColor(0xff, 0xe7, 0xa8, 100);
}  // namespace

render::BodyCurve polhodeTrail(int body, const std::vector<Vec3>& directions) {
  render::BodyCurve c;
  c.body = body;
  c.color = kTrailColor;
  c.widthPx = 2.5f;
  c.markLast = true;
  c.points.reserve(directions.size());
  for (const Vec3& u : directions) c.points.push_back(kPolhodeRadius * u);
  return c;
}

render::BodyCurve polhodeLoop(int body, const Vec3& moments, const Vec3& omegaBody) {
  render::BodyCurve c;
  c.body = body;
  c.color = kLoopColor;
  c.widthPx = 1.5f;
  c.closed = true;
  const Vec3 l = moments.cwiseProduct(omegaBody);
  double nearest = std::numeric_limits<double>::infinity();
  for (const Curve& branch : polhodeOf(moments, omegaBody, 192)) {
    double d = std::numeric_limits<double>::infinity();
    for (const Vec3& p : branch) d = std::min(d, (p - l).squaredNorm());
    if (d >= nearest) continue;
    nearest = d;
    c.points.clear();
    const double m = l.norm();
    for (const Vec3& p : branch) c.points.push_back(kPolhodeRadius / m * p);
  }
  return c;
}

}  // namespace clumplab::gui
