#pragma once
// A small 3D view of one Snapshot through the render library (the comparison's panes): its own
// camera framing the bodies, turned by dragging; no picking, no overlays of its own.
#include <QOpenGLWidget>

#include "core/world/Snapshot.hpp"
#include "render/Camera.hpp"
#include "render/SceneRenderer.hpp"

namespace clumplab::gui {

class SnapshotView : public QOpenGLWidget {
  Q_OBJECT
 public:
  explicit SnapshotView(QWidget* parent = nullptr);
  ~SnapshotView() override;

  // The picture to draw; `radius` [m] is what the camera frames about the origin.
  void setSnapshot(const Snapshot& snapshot, double radius);
  render::ViewOptions& options() { return options_; }
  render::Camera& camera() { return camera_; }
  QSize sizeHint() const override { return {300, 260}; }

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

 private:
  render::SceneRenderer renderer_;
  render::Camera camera_;
  render::ViewOptions options_;
  Snapshot snapshot_;
  double framed_ = 0.0;  // radius the camera was fitted to
  bool initialized_ = false;
  QPoint lastMouse_;
};

}  // namespace clumplab::gui
