#pragma once
// The wizard's 3D preview: a thin QOpenGLWidget drawing a translucent mesh, pebbles and the mesh's
// axes through the render library (SceneRenderer), with its own orbit camera (left-drag orbits,
// right-drag pans, the wheel zooms, a double click fits). Geometry is in the mesh's frame [m].
#include <QHBoxLayout>
#include <QOpenGLWidget>
#include <QPoint>
#include <memory>
#include <vector>

#include "core/world/Snapshot.hpp"
#include "render/Camera.hpp"
#include "render/SceneRenderer.hpp"

namespace clumplab::gui::wizard {

class ClumpPreview : public QOpenGLWidget {
  Q_OBJECT
 public:
  // Pebbles beyond this many are thinned out evenly (every k-th shown) to keep the preview fluid.
  static constexpr std::size_t kMaxPebblesShown = 150'000;

  explicit ClumpPreview(QWidget* parent = nullptr);
  ~ClumpPreview() override;

  // A new mesh refits the camera; null shows nothing.
  void setMesh(std::shared_ptr<const TriangleMesh> mesh);
  // Pebbles in the mesh's frame (keeps the camera).
  void setPebbles(const std::vector<Pebble>& pebbles);
  std::size_t pebblesShown() const { return shown_; }
  void setMeshVisible(bool on);
  void fit();
  // Adds `preview` to `columns` as the page's right-hand column (stretch 3 against the controls'
  // 2), with a caption saying what the colours and the mouse do.
  static void addAsColumn(ClumpPreview* preview, QHBoxLayout* columns);

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  void rebuild();

  render::SceneRenderer renderer_;
  render::Camera camera_;
  render::ViewOptions options_;
  Snapshot snapshot_;
  std::shared_ptr<const TriangleMesh> mesh_;
  std::vector<Pebble> pebbles_;
  std::size_t shown_ = 0;
  bool initialized_ = false;
  bool glFailed_ = false;
  bool userMoved_ = false;  // the user orbited, panned or zoomed since the mesh came: keep the view
  QPoint last_;
};

}  // namespace clumplab::gui::wizard
