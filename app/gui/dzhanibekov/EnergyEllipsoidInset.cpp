#include "gui/dzhanibekov/EnergyEllipsoidInset.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "render/ColorMaps.hpp"

namespace clumplab::gui {

namespace {

const QColor kFamilyColor(0xa8, 0xb4, 0xc6);
const QColor kSeparatrixColor(0xf2, 0xf4, 0xf8);
const QColor kEllipsoidColor(0x4f, 0xd3, 0xe0);
const QColor kPolhodeColor(0xff, 0xd1, 0x66);                  // as on the body in the 3D view
const QColor kMomentumColor = render::angularMomentumColor();  // L, as its arrow in the 3D view
const QColor kBackground(0x16, 0x1a, 0x21, 215);
constexpr int kFamilyLevels = 9;  // polhodes drawn on each side of the separatrix

struct Segment {
  QPointF a, b;
  double depth;  // towards the viewer, in units of the sphere radius
  QPen pen;
};

// The inset's orthographic view: body axis 3 up at zero pitch, turned by yaw about it and tilted by
// pitch [rad]; the sphere of radius `reach` fills the area above the legend.
struct Projection {
  Projection(double yaw, double pitch, const QRect& rect, double legendHeight, double reach) {
    const Eigen::AngleAxisd turn(yaw, Vec3::UnitZ());
    const Eigen::AngleAxisd tilt(pitch, Vec3::UnitX());
    view = (tilt * Eigen::AngleAxisd(-0.5 * std::numbers::pi, Vec3::UnitX()) * turn).toRotationMatrix();
    const QRectF area = QRectF(rect).adjusted(6, 6 + 0.5 * legendHeight, -6, -6 - legendHeight);
    scale = 0.46 * std::min(area.width(), area.height()) / reach;
    centre = area.center();
  }
  Vec3 eye(const Vec3& p) const { return view * p; }
  QPointF screen(const Vec3& v) const { return {centre.x() + scale * v.x(), centre.y() - scale * v.y()}; }

  Mat3 view;
  QPointF centre;
  double scale = 1.0;  // [pixels per unit of L]
};

// The legend: four keys in two columns, or in one where a narrow inset has no room for two (the
// keys never run into each other).
struct LegendLayout {
  QStringList keys;
  int columns = 2;
  double height = 0.0;  // [pixels]
};

LegendLayout legendLayout(const QStringList& keys, const QFont& font, int width) {
  const QFontMetrics metrics(font);
  double widest = 0.0;
  for (const QString& k : keys) widest = std::max(widest, static_cast<double>(metrics.horizontalAdvance(k)));
  const int columns = 2.0 * (widest + 24.0) <= width - 16.0 ? 2 : 1;
  return {keys, columns, (columns == 2 ? 2.2 : 4.4) * metrics.height()};
}

// The curves the inset draws, faintest first.
struct InsetCurves {
  const std::vector<Curve>& family;
  const std::vector<Curve>& ellipsoid;
  const std::vector<Curve>& separatrix;
  const std::vector<Curve>& current;
};

// The curves and the principal axes as line segments on screen, each with its depth.
std::vector<Segment> curveSegments(const Projection& projection, const InsetCurves& curves, double reach,
                                   double momentum) {
  std::vector<Segment> segments;
  const auto addCurves = [&](const std::vector<Curve>& list, QColor color, double width) {
    for (const Curve& c : list) {
      for (std::size_t i = 0; i < c.size(); ++i) {
        const Vec3 a = projection.eye(c[i]), b = projection.eye(c[(i + 1) % c.size()]);
        QPen pen(color, width);
        pen.setCapStyle(Qt::RoundCap);
        segments.push_back(
            {projection.screen(a), projection.screen(b), 0.5 * (a.z() + b.z()) / momentum, pen});
      }
    }
  };
  QColor family = kFamilyColor;
  family.setAlpha(120);
  addCurves(curves.family, family, 0.8);
  QColor wire = kEllipsoidColor;
  wire.setAlpha(150);
  addCurves(curves.ellipsoid, wire, 1.0);
  addCurves(curves.separatrix, kSeparatrixColor, 1.5);
  addCurves(curves.current, kPolhodeColor, 2.6);
  for (int a = 0; a < 3; ++a) {
    const Vec3 tip = projection.eye(1.25 * reach * Vec3::Unit(a));
    const QPen pen(render::principalAxisColor(a), 1.4);
    segments.push_back(
        {projection.screen(-tip), projection.screen(Vec3::Zero()), -tip.z() / (2.0 * reach), pen});
    segments.push_back(
        {projection.screen(Vec3::Zero()), projection.screen(tip), tip.z() / (2.0 * reach), pen});
  }
  return segments;
}

// The segments in front of the sphere's middle plane, or those behind it (faint).
void drawSegments(QPainter& painter, const std::vector<Segment>& segments, bool front) {
  for (const Segment& s : segments) {
    if ((s.depth >= 0.0) != front) continue;
    QPen pen = s.pen;
    if (!front) {
      QColor c = pen.color();
      c.setAlphaF(c.alphaF() * 0.35f);
      pen.setColor(c);
    }
    painter.setPen(pen);
    painter.drawLine(s.a, s.b);
  }
}

// The sphere |L| = M, translucent and shaded.
void drawSphere(QPainter& painter, const Projection& projection, double momentum) {
  const double radius = projection.scale * momentum;
  QRadialGradient shade(projection.centre + QPointF(-0.3, -0.35) * radius, 1.3 * radius);
  shade.setColorAt(0.0, QColor(120, 140, 170, 70));
  shade.setColorAt(1.0, QColor(40, 50, 66, 90));
  painter.setBrush(shade);
  painter.setPen(QPen(QColor(190, 200, 215, 150), 1.0));
  painter.drawEllipse(projection.centre, radius, radius);
  painter.setBrush(Qt::NoBrush);
}

// The principal axes' numbers at their tips, and the current point L.
void drawAxisLabelsAndPoint(QPainter& painter, const Projection& projection, double reach, const Vec3& l) {
  for (int a = 0; a < 3; ++a) {
    const QPointF p = projection.screen(projection.eye(1.36 * reach * Vec3::Unit(a)));
    painter.setPen(render::principalAxisColor(a));
    painter.drawText(QRectF(p.x() - 10, p.y() - 9, 20, 18), Qt::AlignCenter, QString::number(a + 1));
  }
  const QPointF now = projection.screen(projection.eye(l));
  painter.setPen(QPen(QColor(20, 22, 26), 2.0));
  painter.setBrush(kMomentumColor);
  painter.drawEllipse(now, 5.0, 5.0);
  painter.setBrush(Qt::NoBrush);
}

// The title at the top left, the key of the point at the top right.
void drawTitle(QPainter& painter, const QRect& rect, const QString& title, const QString& pointKey) {
  painter.setPen(QColor(210, 215, 225));
  painter.drawText(QRectF(rect).adjusted(8, 4, -8, 0), Qt::AlignLeft | Qt::AlignTop, title);
  const QFontMetrics metrics(painter.font());
  const double x = rect.right() - 8 - metrics.horizontalAdvance(pointKey);
  painter.drawText(QPointF(x, 4 + metrics.ascent()), pointKey);
  painter.setPen(QPen(QColor(20, 22, 26), 1.5));
  painter.setBrush(kMomentumColor);
  painter.drawEllipse(QPointF(x - 9, 4 + 0.5 * metrics.height()), 4.0, 4.0);
  painter.setBrush(Qt::NoBrush);
}

// The curves' keys along the bottom.
void drawLegend(QPainter& painter, const QRect& rect, const LegendLayout& layout) {
  const QRectF legend(rect.left() + 8, rect.bottom() - layout.height - 2, rect.width() - 16, layout.height);
  const auto key = [&](double x, double y, QColor c, const QString& text) {
    painter.setPen(QPen(c, 2.2));
    painter.drawLine(QPointF(x, y), QPointF(x + 14, y));
    painter.setPen(QColor(210, 215, 225));
    painter.drawText(QPointF(x + 18, y + 4), text);
  };
  const int rows = 4 / layout.columns;
  const double row = layout.height / rows;
  const double col = legend.width() / layout.columns;
  const QColor colours[4] = {QColor(190, 200, 215), kEllipsoidColor, kPolhodeColor, kSeparatrixColor};
  for (int k = 0; k < 4; ++k) {
    const int r = layout.columns == 2 ? k / 2 : k, c = layout.columns == 2 ? k % 2 : 0;
    key(legend.left() + c * col, legend.top() + (r + 0.5) * row, colours[k], layout.keys[k]);
  }
}

// The ellipsoid with semi-axes `r`: its three principal sections and two parallels each side.
std::vector<Curve> ellipsoidWires(const Vec3& r, int samples) {
  std::vector<Curve> out;
  const auto ring = [&](int a, int b, int c, double height) {
    Curve curve;
    const double shrink = std::sqrt(std::max(0.0, 1.0 - height * height));
    for (int n = 0; n < samples; ++n) {
      const double t = 2.0 * std::numbers::pi * n / samples;
      Vec3 p;
      p[a] = r[a] * shrink * std::cos(t);
      p[b] = r[b] * shrink * std::sin(t);
      p[c] = r[c] * height;
      curve.push_back(p);
    }
    out.push_back(std::move(curve));
  };
  ring(0, 1, 2, 0.0);
  ring(1, 2, 0, 0.0);
  ring(2, 0, 1, 0.0);
  for (double h : {-0.7, 0.7}) ring(0, 1, 2, h);
  return out;
}

}  // namespace

EnergyEllipsoidInset::EnergyEllipsoidInset(QWidget* parent) : QWidget(parent) {
  setToolTip(
      tr("Angular momentum L in the body frame (Landau & Lifshitz §37): it stays on the sphere |L| = M "
         "and on the energy ellipsoid, so it moves along their intersection, the polhode (orange). "
         "Near axes 1 and 3 the polhodes are small loops; the separatrix (yellow) runs through axis 2. "
         "Drag to turn the view."));
  setMouseTracking(false);
}

void EnergyEllipsoidInset::clear() {
  valid_ = false;
  update();
}

void EnergyEllipsoidInset::setState(const Vec3& moments, const Vec3& omegaBody) {
  if (!moments.allFinite() || !omegaBody.allFinite() || !(moments.minCoeff() > 0.0)) {
    clear();
    return;
  }
  moments_ = moments;
  omega_ = omegaBody;
  l_ = moments.cwiseProduct(omegaBody);
  momentum_ = l_.norm();
  energy_ = rotationalEnergy(moments, omegaBody);
  valid_ = momentum_ > 0.0 && energy_ > 0.0;
  // The curves follow E and M: rebuilt when they moved by more than a part in a thousand.
  const Vec3 key(moments.sum(), momentum_, energy_);
  if (valid_ && ((key - builtFor_).cwiseAbs().array() > 1e-3 * key.cwiseAbs().array()).any()) {
    builtFor_ = key;
    rebuildCurves();
  }
  update();
}

void EnergyEllipsoidInset::rebuildCurves() {
  family_.clear();
  const double m = momentum_;
  // Energies of the family: D = M^2 / 2E evenly between I1 and I2, and between I2 and I3.
  for (int side = 0; side < 2; ++side) {
    const double lo = side == 0 ? moments_[0] : moments_[1];
    const double hi = side == 0 ? moments_[1] : moments_[2];
    for (int k = 1; k <= kFamilyLevels; ++k) {
      const double d = lo + (hi - lo) * k / (kFamilyLevels + 1.0);
      for (Curve& c : polhode(moments_, m, m * m / (2.0 * d), 128)) family_.push_back(std::move(c));
    }
  }
  separatrix_ = separatrix(moments_, m, 256);
  current_ = polhode(moments_, m, energy_, 256);
  ellipsoid_ = ellipsoidWires((2.0 * energy_ * moments_).cwiseSqrt(), 96);
}

void EnergyEllipsoidInset::mousePressEvent(QMouseEvent* event) {
  lastMouse_ = event->position().toPoint();
}

void EnergyEllipsoidInset::mouseMoveEvent(QMouseEvent* event) {
  const QPoint p = event->position().toPoint();
  yaw_ += 0.01 * (p.x() - lastMouse_.x());
  pitch_ = std::clamp(pitch_ + 0.01 * (p.y() - lastMouse_.y()), -1.5, 1.5);
  lastMouse_ = p;
  update();
}

void EnergyEllipsoidInset::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(QPen(QColor(255, 255, 255, 40), 1.0));
  painter.setBrush(kBackground);
  painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
  painter.setBrush(Qt::NoBrush);
  painter.setPen(QColor(200, 206, 216));
  QFont small = font();
  small.setPointSizeF(std::max(7.0, small.pointSizeF() - 1.0));
  painter.setFont(small);
  if (!valid_) {
    painter.drawText(rect(), Qt::AlignCenter, tr("No rotation to show"));
    return;
  }
  const QStringList keys = {tr("sphere |L| = M"), tr("energy ellipsoid"), tr("polhode"), tr("separatrix")};
  const LegendLayout legend = legendLayout(keys, small, width());
  const double reach = std::max(momentum_, std::sqrt(2.0 * energy_ * moments_[2]));
  const Projection projection(yaw_, pitch_, rect(), legend.height, reach);
  const std::vector<Segment> segments =
      curveSegments(projection, {family_, ellipsoid_, separatrix_, current_}, reach, momentum_);
  // Behind the sphere's middle plane faint, then the sphere (translucent), then the front.
  drawSegments(painter, segments, false);
  drawSphere(painter, projection, momentum_);
  drawSegments(painter, segments, true);
  drawAxisLabelsAndPoint(painter, projection, reach, l_);
  drawTitle(painter, rect(), tr("L in the body frame"), tr("L now"));
  drawLegend(painter, rect(), legend);
}

}  // namespace clumplab::gui
