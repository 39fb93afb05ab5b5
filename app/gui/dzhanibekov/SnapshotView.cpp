#include "gui/dzhanibekov/SnapshotView.hpp"

#include <QMouseEvent>
#include <cmath>
#include <cstdio>

namespace clumplab::gui {

SnapshotView::SnapshotView(QWidget* parent) : QOpenGLWidget(parent) {
  camera_.setAngles(-1.0, 0.35);
  options_.walls = false;
  options_.shadows = false;
}

SnapshotView::~SnapshotView() {
  if (initialized_) {
    makeCurrent();
    renderer_.release();
    doneCurrent();
  }
}

void SnapshotView::setSnapshot(const Snapshot& snapshot, double radius) {
  snapshot_ = snapshot;
  if (radius > 0.0 && std::abs(radius - framed_) > 1e-9 * radius) {
    framed_ = radius;
    camera_.fit(Vec3::Zero(), radius);
  }
  update();
}

void SnapshotView::initializeGL() {
  try {
    renderer_.initialize();
    initialized_ = true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clumplab: the comparison view cannot be drawn: %s\n", e.what());
  }
}

void SnapshotView::resizeGL(int w, int h) {
  camera_.setViewport(w, h);
  if (framed_ > 0.0) camera_.fit(Vec3::Zero(), framed_);
}

void SnapshotView::paintGL() {
  if (!initialized_ || snapshot_.bodies.size() == 0) return;
  const double ratio = devicePixelRatioF();
  renderer_.render(snapshot_, camera_, options_, static_cast<int>(std::lround(width() * ratio)),
                   static_cast<int>(std::lround(height() * ratio)));
}

void SnapshotView::mousePressEvent(QMouseEvent* event) {
  lastMouse_ = event->position().toPoint();
}

void SnapshotView::mouseMoveEvent(QMouseEvent* event) {
  const QPoint p = event->position().toPoint();
  camera_.orbit(p.x() - lastMouse_.x(), p.y() - lastMouse_.y());
  lastMouse_ = p;
  update();
}

}  // namespace clumplab::gui
