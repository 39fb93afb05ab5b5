#pragma once
// The 3D view: a thin QOpenGLWidget that initialises, resizes and paints a snapshot through the
// render library, draws the status and help overlays, and turns mouse input into camera moves,
// picks and drags. It never reads live simulation state: MainWindow hands it each new frame.
#include <QElapsedTimer>
#include <QOpenGLFramebufferObject>
#include <QOpenGLWidget>
#include <QPainter>
#include <QPoint>
#include <QTimer>
#include <deque>
#include <memory>
#include <optional>

#include "gui/view/CameraTransition.hpp"
#include "render/Camera.hpp"
#include "render/Picking.hpp"
#include "render/SceneRenderer.hpp"
#include "sim/SimulationLoop.hpp"

namespace clumplab::gui {

class Viewport : public QOpenGLWidget {
  Q_OBJECT
 public:
  explicit Viewport(QWidget* parent = nullptr);
  ~Viewport() override;

  // The frame to draw (owned by the caller, valid until the next call).
  void setFrame(const sim::SimulationFrame* frame);
  const sim::SimulationFrame* shownFrame() const { return frame_; }
  render::ViewOptions& options() { return options_; }
  render::Camera& camera() { return camera_; }
  const render::Camera& camera() const { return camera_; }

  void fitAll();
  // Glides the camera to `goal`'s view (or jumps there when the view is not shown).
  void glideTo(const render::Camera& goal);
  void setTracking(bool on) { tracking_ = on; }
  bool tracking() const { return tracking_; }
  void lookAlongAngularMomentum();
  void setHelpVisible(bool on);
  bool helpVisible() const { return helpVisible_; }
  void setStatusVisible(bool on);
  bool statusVisible() const { return statusVisible_; }

  // The camera and what it was fitted to, kept while another document (a replay) is shown.
  struct ViewState {
    render::Camera camera;
    std::uint64_t fittedGeneration = 0;
    bool fittedOnce = false;
  };
  ViewState viewState() const { return {camera_, fittedGeneration_, fittedOnce_}; }
  void setViewState(const ViewState& state);
  // Off: a press on a body selects it and orbits (a replay has nothing to drag).
  void setBodyDragEnabled(bool on) { bodyDragEnabled_ = on; }
  // Lines that replace the simulation's status in the overlay (a replay's); empty: the simulation's.
  void setStatusLines(const QStringList& lines);

  int selectedBody() const { return options_.selectedBody; }
  void setSelectedBody(int body);
  // The world point under a pixel: a body's surface if one is hit, else the floor plane z = 0 or,
  // failing that, the plane through the camera target facing the camera.
  Vec3 worldPointUnder(QPoint pixel) const;
  std::optional<render::PickHit> pick(QPoint pixel) const;

  // The current frame drawn offscreen at `pixels` (any size, independent of the widget's) with
  // the colour legend and, if asked, the status overlay, both scaled with the image. A null image
  // when OpenGL is not available or no frame has been shown.
  QImage renderImage(QSize pixels, bool withStatus);

  // Frames drawn per second (measured over the last second).
  double framesPerSecond() const { return fps_; }
  // Frames drawn since the view was made.
  std::uint64_t paintCount() const { return paintCount_; }
  // Time the last paintGL took [ms].
  double lastPaintMilliseconds() const { return lastPaintMs_; }

 signals:
  void selectionChanged(int body);
  void dragMoved(const sim::DragTarget& target);
  void dragEnded();
  void glError(const QString& message);

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  void requestPaint();
  void paintOverlay();
  // The overlays into `area` (logical pixels of the painter's current transform).
  void paintStatus(QPainter& painter);
  void paintHelp(QPainter& painter, QSize area);
  void paintColorLegend(QPainter& painter, QSize area);
  void countFrame();

  render::SceneRenderer renderer_;
  render::Camera camera_;
  render::ViewOptions options_;
  CameraTransition transition_;
  const sim::SimulationFrame* frame_ = nullptr;
  bool initialized_ = false;
  bool tracking_ = false;
  bool helpVisible_ = false;
  bool statusVisible_ = true;
  bool fittedOnce_ = false;
  bool bodyDragEnabled_ = true;
  QStringList statusLines_;
  std::uint64_t fittedGeneration_ = 0;

  enum class Gesture { None, Orbit, OrbitFromBody, Pan, DragBody };  // OrbitFromBody: keeps the selection
  Gesture gesture_ = Gesture::None;
  QPoint pressPosition_;
  QPoint lastPosition_;
  bool moved_ = false;
  sim::DragTarget drag_;
  double dragPlaneDistance_ = 0.0;  // camera-to-grab-point distance along the view direction [m]

  QElapsedTimer fpsTimer_;
  QTimer deferredPaint_;
  qint64 paintStartMs_ = 0;
  qint64 lastSwapMs_ = 0;
  qint64 lastFrameCostMs_ = 0;  // from the start of paintGL to the frame on screen
  std::deque<qint64> frameTimes_;
  double fps_ = 0.0;
  double lastPaintMs_ = 0.0;
  std::uint64_t paintCount_ = 0;
  std::unique_ptr<QOpenGLFramebufferObject> imageTarget_;  // renderImage's, kept while its size holds
};

}  // namespace clumplab::gui
