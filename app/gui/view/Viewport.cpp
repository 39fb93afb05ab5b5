#include "gui/view/Viewport.hpp"

#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <optional>

#include "core/world/World.hpp"
#include "gui/view/StageTimeLines.hpp"
#include "gui/widgets/Shortcuts.hpp"
#include "render/ColorMaps.hpp"
#include "render/OverlayReach.hpp"

namespace clumplab::gui {

namespace {
constexpr int kClickSlopPx = 4;  // a press and release closer than this is a click, not a drag

// Centre and radius of everything in a snapshot: the bodies' bounding spheres (non-finite ones
// skipped), a periodic box, a cavity, and the floor beneath the bodies, so bodies about to drop onto it are
// framed with the place they will land.
std::pair<Vec3, double> snapshotBounds(const Snapshot& s) {
  Eigen::AlignedBox3d box;
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    if (!s.bodies.position[i].allFinite()) continue;
    const double r = s.templates[s.bodies.templateIndex[i]]->boundingRadius;
    box.extend(s.bodies.position[i] + Vec3::Constant(r));
    box.extend(s.bodies.position[i] - Vec3::Constant(r));
  }
  const Eigen::AlignedBox3d bodies = box;
  if (s.periodic.any()) {  // the periodic cell (Meland et al., Cluster integration method)
    box.extend(s.periodic.lower);
    box.extend(s.periodic.lower + s.periodic.length);
  }
  // Inlets (core/world/Inlet.hpp): their regions, and the planes they pour towards (a box's corners).
  for (const Inlet& inlet : s.inlets) {
    Vec3 lower, upper;
    inlet.settings().region.bounds(lower, upper);
    box.extend(lower);
    box.extend(upper);
  }
  for (const Wall& w : s.walls) {
    if (!s.inlets.empty() && w.kind == Wall::Kind::Plane) box.extend(w.point);
    if (w.kind == Wall::Kind::SphereCavity) {
      box.extend(w.point + Vec3::Constant(w.radius));
      box.extend(w.point - Vec3::Constant(w.radius));
    } else if (!bodies.isEmpty() && w.normal.z() > 0.99 && w.point.z() < bodies.min().z()) {
      box.extend(Vec3(bodies.min().x(), bodies.min().y(), w.point.z()));
    }
  }
  if (bodies.isEmpty()) {
    // Nothing to frame yet (a replay of a scene that inlets fill, from a file without its inlets):
    // the walls' planes pass through their points, a box's six through its corners.
    for (const Wall& w : s.walls) {
      if (w.kind == Wall::Kind::Plane) box.extend(w.point);
    }
  }
  if (box.isEmpty()) return {Vec3::Zero(), 1.0};
  return {box.center(), std::max(0.5 * box.diagonal().norm(), 1e-6)};
}
}  // namespace

Viewport::Viewport(QWidget* parent) : QOpenGLWidget(parent) {
  setMinimumSize(320, 240);
  deferredPaint_.setSingleShot(true);
  connect(&deferredPaint_, &QTimer::timeout, this, qOverload<>(&QWidget::update));
  connect(this, &QOpenGLWidget::frameSwapped, this, [this] {
    lastSwapMs_ = fpsTimer_.elapsed();
    lastFrameCostMs_ = lastSwapMs_ - paintStartMs_;
  });
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(false);
  fpsTimer_.start();
}

Viewport::~Viewport() {
  if (initialized_) {
    makeCurrent();
    imageTarget_.reset();
    renderer_.release();
    doneCurrent();
  }
}

void Viewport::setFrame(const sim::SimulationFrame* frame) {
  frame_ = frame;
  if (frame_) {
    const Snapshot& s = frame_->snapshot;
    if (options_.selectedBody >= static_cast<int>(s.bodies.size())) setSelectedBody(-1);
    if (gesture_ == Gesture::DragBody && drag_.body.generation != frame_->bodyIndexGeneration) {
      gesture_ = Gesture::None;  // the dragged body went away or moved (deleted, reset, stepped back)
      options_.dragLine = false;
    }
    if (!fittedOnce_ || fittedGeneration_ != frame_->loadGeneration) {
      fittedGeneration_ = frame_->loadGeneration;
      fittedOnce_ = true;
      const auto [center, radius] = snapshotBounds(s);  // a new scene: frame it at once
      transition_.stop();
      camera_.fit(center, radius);
    }
    if (gesture_ == Gesture::DragBody && options_.dragLine && drag_.body.index < s.bodies.size()) {
      options_.dragFrom =
          s.bodies.position[drag_.body.index] + s.bodies.orientation[drag_.body.index] * drag_.anchorInBody;
    }
    if (tracking_ && options_.selectedBody >= 0 && !transition_.running()) {
      camera_.setTarget(s.bodies.position[static_cast<std::size_t>(options_.selectedBody)]);
    }
  }
  requestPaint();  // new simulation frames are drawn at the rate the machine affords
}

void Viewport::requestPaint() {
  // A software rasteriser blocks this thread while it draws: leave at least as much time between
  // frames as the last one took, so input (handled between frames) never waits more than a frame.
  const qint64 now = fpsTimer_.elapsed();
  const qint64 earliest = lastSwapMs_ + lastFrameCostMs_;
  if (now >= earliest) {
    update();
  } else if (!deferredPaint_.isActive()) {
    deferredPaint_.start(static_cast<int>(earliest - now));
  }
}

void Viewport::fitAll() {
  if (!frame_) return;
  const auto [center, radius] = snapshotBounds(frame_->snapshot);
  render::Camera goal = camera_;
  goal.fit(center, radius);
  glideTo(goal);
}

void Viewport::glideTo(const render::Camera& goal) {
  if (!isVisible()) {  // nothing to watch: jump
    camera_ = goal;
    return;
  }
  transition_.start(camera_, goal);
  update();
}

void Viewport::lookAlongAngularMomentum() {
  if (!frame_) return;
  const Snapshot& s = frame_->snapshot;
  Vec3 l = s.energy.angularMomentum;
  std::optional<std::size_t> body;
  if (options_.selectedBody >= 0 && static_cast<std::size_t>(options_.selectedBody) < s.bodies.size()) {
    body = static_cast<std::size_t>(options_.selectedBody);
    const ClumpTemplate& t = *s.templates[s.bodies.templateIndex[*body]];
    const Quat& q = s.bodies.orientation[*body];
    l = q * t.principalMoments.cwiseProduct(q.conjugate() * s.bodies.angularVelocity[*body]);
  }
  if (l.norm() == 0.0) return;
  render::Camera goal = camera_;
  goal.lookAlong(-l.normalized());
  // The body's L arrow (and the polhode it pierces, drawn once L has moved in the body) points at
  // the eye: back off until all the body's overlays are in view, never up to the eye.
  if (body) {
    const double arrowReach =
        render::kLongestArrowRadii * s.templates[s.bodies.templateIndex[*body]]->boundingRadius;
    goal.keepInView(s.bodies.position[*body], std::max(render::overlayReach(s, options_, *body), arrowReach));
  }
  glideTo(goal);
}

void Viewport::setHelpVisible(bool on) {
  helpVisible_ = on;
  update();
}

void Viewport::setStatusVisible(bool on) {
  statusVisible_ = on;
  update();
}

void Viewport::setViewState(const ViewState& state) {
  const int w = camera_.width(), h = camera_.height();  // the view's size now
  transition_.stop();
  camera_ = state.camera;
  camera_.setViewport(w, h);
  fittedGeneration_ = state.fittedGeneration;
  fittedOnce_ = state.fittedOnce;
  update();
}

void Viewport::setStatusLines(const QStringList& lines) {
  statusLines_ = lines;
  update();
}

void Viewport::setSelectedBody(int body) {
  if (options_.selectedBody == body) return;
  options_.selectedBody = body;
  emit selectionChanged(body);
  update();
}

std::optional<render::PickHit> Viewport::pick(QPoint pixel) const {
  if (!frame_) return std::nullopt;
  return render::pickBody(frame_->snapshot, camera_.rayThroughPixel(pixel.x(), pixel.y()));
}

Vec3 Viewport::worldPointUnder(QPoint pixel) const {
  if (auto hit = pick(pixel)) return hit->point;
  const render::Ray ray = camera_.rayThroughPixel(pixel.x(), pixel.y());
  if (ray.direction.z() < -1e-6) {
    const double t = -ray.origin.z() / ray.direction.z();
    if (t > 0.0) return ray.origin + t * ray.direction;
  }
  const double t =
      (camera_.target() - ray.origin).dot(camera_.forward()) / ray.direction.dot(camera_.forward());
  return ray.origin + t * ray.direction;
}

void Viewport::initializeGL() {
  try {
    renderer_.initialize();
    initialized_ = true;
  } catch (const std::exception& e) {
    emit glError(QString::fromStdString(e.what()));
  }
}

void Viewport::resizeGL(int w, int h) {
  camera_.setViewport(w, h);
}

void Viewport::paintGL() {
  paintStartMs_ = fpsTimer_.elapsed();
  QElapsedTimer timer;
  timer.start();
  if (transition_.advance(camera_)) update();
  if (initialized_ && frame_) {
    const double ratio = devicePixelRatioF();
    renderer_.render(frame_->snapshot, camera_, options_, static_cast<int>(std::lround(width() * ratio)),
                     static_cast<int>(std::lround(height() * ratio)));
  }
  paintOverlay();
  lastPaintMs_ = static_cast<double>(timer.nsecsElapsed()) * 1e-6;
  ++paintCount_;
  countFrame();
}

void Viewport::countFrame() {
  const qint64 now = fpsTimer_.elapsed();
  frameTimes_.push_back(now);
  while (!frameTimes_.empty() && now - frameTimes_.front() > 1000) frameTimes_.pop_front();
  fps_ = frameTimes_.size() > 1 ? 1000.0 * static_cast<double>(frameTimes_.size() - 1) /
                                      static_cast<double>(std::max<qint64>(1, now - frameTimes_.front()))
                                : 0.0;
}

void Viewport::paintOverlay() {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  if (!initialized_) {
    painter.fillRect(rect(), QColor(30, 32, 38));
    painter.setPen(Qt::white);
    painter.drawText(rect(), Qt::AlignCenter,
                     tr("OpenGL 3.3 is not available: the 3D view cannot be drawn."));
    return;
  }
  if (statusVisible_ && frame_ && !helpVisible_) paintStatus(painter);
  if (frame_ && options_.coloring != render::Coloring::PerBody && !helpVisible_)
    paintColorLegend(painter, size());
  if (helpVisible_) paintHelp(painter, size());
}

QImage Viewport::renderImage(QSize pixels, bool withStatus) {
  if (!initialized_ || !frame_ || pixels.isEmpty()) return {};
  makeCurrent();
  if (!imageTarget_ || imageTarget_->size() != pixels) {
    imageTarget_.reset();
    imageTarget_ = std::make_unique<QOpenGLFramebufferObject>(pixels, QOpenGLFramebufferObject::Depth);
  }
  imageTarget_->bind();
  render::Camera camera = camera_;
  camera.setViewport(pixels.width(), pixels.height());
  renderer_.render(frame_->snapshot, camera, options_, pixels.width(), pixels.height());
  QImage image = imageTarget_->toImage(true).convertToFormat(QImage::Format_RGB32);
  imageTarget_->release();
  doneCurrent();
  // The overlays keep their proportion to the image's height, as on a view of the widget's height.
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::TextAntialiasing);
  const double scale = static_cast<double>(pixels.height()) / std::max(1, height());
  painter.scale(scale, scale);
  const QSize area(static_cast<int>(std::lround(pixels.width() / scale)), height());
  if (withStatus) paintStatus(painter);
  if (options_.coloring != render::Coloring::PerBody) paintColorLegend(painter, area);
  return image;
}

namespace {
void drawPanel(QPainter& painter, const QRect& box, int alpha = 170) {
  QPainterPath path;
  path.addRoundedRect(box, 8, 8);
  painter.fillPath(path, QColor(12, 14, 20, alpha));
}
}  // namespace

void Viewport::paintStatus(QPainter& painter) {
  const Snapshot& s = frame_->snapshot;
  const sim::SimulationStats& st = frame_->stats;
  QStringList lines;
  lines << tr("t = %1 s").arg(s.time, 0, 'f', s.timeStep < 1e-4 ? 5 : 4);
  const QString target = st.asFastAsPossible ? tr("as fast as possible")
                                             : QString::number(st.targetSpeed, 'g', 3) + QStringLiteral("×");
  if (st.paused) {
    lines << tr("speed %1 when running").arg(target);
  } else {
    lines << tr("speed %1 (target %2)%3")
                 .arg(QString::number(st.measuredSpeed, 'g', 3) + QStringLiteral("×"), target,
                      st.fallingBehind ? tr(" · behind") : QString());
    lines << tr("%1 steps/s · %2 fps")
                 .arg(QString::number(st.stepsPerSecond, 'f', 0),
                      QString::number(fps_, 'f', fps_ < 10.0 ? 1 : 0));  // not "0 fps" below one a second
  }
  lines << tr("%1 bodies · %2 pebbles · %3 contacts").arg(s.bodies.size()).arg(s.pebbles).arg(s.contacts);
  lines << stageTimeLines(frame_->recentStages);  // the recent steps' (none: no line)
  if (st.paused) lines.prepend(tr("PAUSED  (Space runs)"));
  if (st.paused && frame_->history.states > 0) {
    lines << tr("history: %1 %2 · %3 s · %4 of %5 MB (%6 steps back)")
                 .arg(frame_->history.states)
                 .arg(frame_->history.states == 1 ? tr("state") : tr("states"))
                 .arg(frame_->history.seconds, 0, 'f', 2)
                 .arg(static_cast<double>(frame_->history.bytes) / (1 << 20), 0, 'f', 1)
                 .arg(static_cast<double>(frame_->history.capBytes) / (1 << 20), 0, 'f', 0)
                 .arg(QKeySequence(keys::stepBack).toString(QKeySequence::NativeText));
  }
  if (!statusLines_.isEmpty()) lines = statusLines_;  // another document's (a replay's)

  QFont font = painter.font();
  font.setPointSizeF(9.5);
  painter.setFont(font);
  const QFontMetrics metrics(font);
  int width = 0;
  for (const QString& l : lines) width = std::max(width, metrics.horizontalAdvance(l));
  const int lineHeight = metrics.height();
  const QRect box(10, 10, width + 20, lineHeight * static_cast<int>(lines.size()) + 14);
  drawPanel(painter, box);
  painter.setPen(QColor(230, 233, 240));
  int y = box.top() + 7 + metrics.ascent();
  for (const QString& l : lines) {
    painter.drawText(box.left() + 10, y, l);
    y += lineHeight;
  }
}

void Viewport::paintColorLegend(QPainter& painter, QSize area) {
  // Bottom right: the magnitude map from 0 to the top of the scale, with its unit.
  const bool speed = options_.coloring == render::Coloring::BySpeed;
  const double top = render::SceneRenderer::colorScaleTop(frame_->snapshot, options_);
  const QString title = speed ? tr("speed [m/s]") : tr("|ω| [rad/s]");
  QFont font = painter.font();
  font.setPointSizeF(9.0);
  painter.setFont(font);
  const QFontMetrics metrics(font);
  constexpr int kBarWidth = 180, kBarHeight = 10;
  const QRect box(area.width() - kBarWidth - 40, area.height() - 2 * metrics.height() - kBarHeight - 28,
                  kBarWidth + 30, 2 * metrics.height() + kBarHeight + 18);
  drawPanel(painter, box);
  const QRect bar(box.left() + 15, box.top() + 8 + metrics.height(), kBarWidth, kBarHeight);
  QLinearGradient gradient(bar.topLeft(), bar.topRight());
  for (int k = 0; k <= 10; ++k) gradient.setColorAt(k / 10.0, render::magnitudeColor(k / 10.0));
  painter.fillRect(bar, gradient);
  painter.setPen(QColor(230, 233, 240));
  painter.drawText(bar.left(), box.top() + 4 + metrics.ascent(), title);
  const int labelY = bar.bottom() + 4 + metrics.ascent();
  painter.drawText(bar.left(), labelY, QStringLiteral("0"));
  const QString topText = QString::number(top, 'g', 3);
  painter.drawText(bar.right() - metrics.horizontalAdvance(topText), labelY, topText);
}

void Viewport::paintHelp(QPainter& painter, QSize area) {
  const QList<ShortcutHelp> entries = shortcutHelp();
  QFont font = painter.font();
  font.setPointSizeF(10.5);
  painter.setFont(font);
  const QFontMetrics metrics(font);
  QFont boldFont = font;
  boldFont.setBold(true);
  const QFontMetrics boldMetrics(boldFont);
  int keyWidth = 0, textWidth = 0;
  for (const ShortcutHelp& e : entries) {
    keyWidth = std::max(keyWidth, boldMetrics.horizontalAdvance(e.keys));
    textWidth = std::max(textWidth, metrics.horizontalAdvance(e.action));
  }
  const int lineHeight = metrics.height() + 2;
  const int w = keyWidth + textWidth + 60;
  const int h = lineHeight * (static_cast<int>(entries.size()) + 2) + 20;
  const QRect box((area.width() - w) / 2, std::max(10, (area.height() - h) / 2), w, h);
  drawPanel(painter, box, 225);
  painter.setPen(QColor(255, 255, 255));
  QFont bold = font;
  bold.setBold(true);
  painter.setFont(bold);
  int y = box.top() + 14 + metrics.ascent();
  painter.drawText(box.left() + 20, y, tr("Keys and mouse (F1 closes)"));
  y += lineHeight * 2;
  for (const ShortcutHelp& e : entries) {
    painter.setFont(bold);
    painter.setPen(QColor(140, 200, 255));
    painter.drawText(box.left() + 20, y, e.keys);
    painter.setFont(font);
    painter.setPen(QColor(230, 233, 240));
    painter.drawText(box.left() + 40 + keyWidth, y, e.action);
    y += lineHeight;
  }
}

void Viewport::mousePressEvent(QMouseEvent* event) {
  transition_.stop();
  pressPosition_ = lastPosition_ = event->position().toPoint();
  moved_ = false;
  gesture_ = Gesture::None;
  if (event->button() == Qt::LeftButton && !(event->modifiers() & Qt::ShiftModifier)) {
    if (auto hit = pick(pressPosition_); hit && !bodyDragEnabled_) {
      setSelectedBody(static_cast<int>(hit->body));
      gesture_ = Gesture::OrbitFromBody;
    } else if (hit) {
      const Snapshot& s = frame_->snapshot;
      gesture_ = Gesture::DragBody;
      drag_.body = {hit->body, frame_->bodyIndexGeneration};
      drag_.anchorInBody =
          s.bodies.orientation[hit->body].conjugate() * (hit->point - s.bodies.position[hit->body]);
      drag_.target = hit->point;
      dragPlaneDistance_ = (hit->point - camera_.eye()).dot(camera_.forward());
      setSelectedBody(static_cast<int>(hit->body));
      options_.dragLine = false;
    } else {
      gesture_ = Gesture::Orbit;
    }
  } else if (event->button() == Qt::RightButton || event->button() == Qt::MiddleButton ||
             (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier))) {
    gesture_ = Gesture::Pan;
  }
  event->accept();
}

void Viewport::mouseMoveEvent(QMouseEvent* event) {
  const QPoint p = event->position().toPoint();
  const QPoint delta = p - lastPosition_;
  lastPosition_ = p;
  if ((p - pressPosition_).manhattanLength() > kClickSlopPx) moved_ = true;
  switch (gesture_) {
    case Gesture::Orbit:
    case Gesture::OrbitFromBody:
      camera_.orbit(delta.x(), delta.y());
      break;
    case Gesture::Pan:
      camera_.pan(delta.x(), delta.y());
      break;
    case Gesture::DragBody: {
      if (!moved_) break;
      // The target lies on the plane through the grabbed point that faces the camera.
      const render::Ray ray = camera_.rayThroughPixel(p.x(), p.y());
      const double t = dragPlaneDistance_ / ray.direction.dot(camera_.forward());
      drag_.target = ray.origin + t * ray.direction;
      if (frame_ && drag_.body.index < frame_->snapshot.bodies.size()) {
        const Snapshot& s = frame_->snapshot;
        options_.dragLine = true;
        options_.dragFrom =
            s.bodies.position[drag_.body.index] + s.bodies.orientation[drag_.body.index] * drag_.anchorInBody;
        options_.dragTo = drag_.target;
      }
      emit dragMoved(drag_);
      break;
    }
    case Gesture::None:
      break;
  }
  update();
  event->accept();
}

void Viewport::mouseReleaseEvent(QMouseEvent* event) {
  if (!moved_ && gesture_ == Gesture::Orbit) setSelectedBody(-1);  // a click on empty space
  if (gesture_ == Gesture::DragBody) {
    options_.dragLine = false;
    if (moved_) emit dragEnded();
  }
  gesture_ = Gesture::None;
  update();
  event->accept();
}

void Viewport::wheelEvent(QWheelEvent* event) {
  transition_.stop();
  camera_.zoom(event->angleDelta().y() / 120.0);
  update();
  event->accept();
}

}  // namespace clumplab::gui
