#include "gui/wizard/ClumpPreview.hpp"

#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include "shapes/MeshMassProperties.hpp"

namespace clumplab::gui::wizard {

ClumpPreview::ClumpPreview(QWidget* parent) : QOpenGLWidget(parent) {
  setMinimumSize(280, 220);
  setToolTip(tr("Drag to orbit, right-drag to pan, wheel to zoom, double-click to fit"));
  options_.sourceMesh = true;
  options_.bodyAxes = true;
  options_.shadows = true;
  options_.selectedBody = -1;
  camera_.setAngles(-0.9, 0.5);
}

ClumpPreview::~ClumpPreview() {
  if (initialized_) {
    makeCurrent();
    renderer_.release();
    doneCurrent();
  }
}

void ClumpPreview::setMesh(std::shared_ptr<const TriangleMesh> mesh) {
  mesh_ = std::move(mesh);
  pebbles_.clear();
  userMoved_ = false;
  rebuild();
  fit();
}

void ClumpPreview::setPebbles(const std::vector<Pebble>& pebbles) {
  pebbles_ = pebbles;
  rebuild();
}

void ClumpPreview::setMeshVisible(bool on) {
  options_.sourceMesh = on;
  update();
}

void ClumpPreview::rebuild() {
  // One body at the origin with the identity pose: its template's frame is the mesh's frame, and
  // the body axes drawn at the origin are the mesh's x (red), y (green) and z (blue).
  auto t = std::make_shared<ClumpTemplate>();
  t->name = "preview";
  const std::size_t stride =
      pebbles_.size() > kMaxPebblesShown ? (pebbles_.size() + kMaxPebblesShown - 1) / kMaxPebblesShown : 1;
  for (std::size_t i = 0; i < pebbles_.size(); i += stride) t->pebbles.push_back(pebbles_[i]);
  shown_ = t->pebbles.size();
  t->mesh = mesh_;
  // The renderer draws body axes 1.25 bounding radii long: a radius of half the mesh's largest
  // extent keeps them about as long as the mesh is large.
  Vec3 lower = Vec3::Zero(), upper = Vec3::Zero();
  if (mesh_ && !mesh_->vertices.empty()) {
    shapes::meshBounds(*mesh_, lower, upper);
    t->boundingRadius = 0.5 * (upper - lower).maxCoeff();
  }
  const std::uint64_t generation = snapshot_.layoutGeneration + 1;  // every rebuild uploads again
  snapshot_ = Snapshot{};
  snapshot_.layoutGeneration = generation;
  snapshot_.templates = {t};
  snapshot_.bodies.templateIndex = {0};
  snapshot_.bodies.position = {Vec3::Zero()};
  snapshot_.bodies.orientation = {Quat::Identity()};
  snapshot_.bodies.velocity = {Vec3::Zero()};
  snapshot_.bodies.angularVelocity = {Vec3::Zero()};
  snapshot_.pebbles = shown_;
  // A floor just under the mesh gives depth cues (shadows, a grid at a readable spacing).
  if (mesh_ && !mesh_->vertices.empty()) {
    snapshot_.walls = {Wall::plane(Vec3(0.0, 0.0, lower.z() - 0.02 * (upper - lower).norm()), Vec3::UnitZ())};
  }
  update();
}

void ClumpPreview::fit() {
  if (!mesh_ || mesh_->vertices.empty()) return;
  Vec3 lower, upper;
  shapes::meshBounds(*mesh_, lower, upper);
  // The mesh and the axes drawn from the origin (1.25 bounding radii long, as the renderer draws
  // body axes): the box holding both.
  const double axis = 1.25 * snapshot_.templates.front()->boundingRadius;
  for (const Vec3& tip : {Vec3(Vec3::Zero()), Vec3(axis * Vec3::UnitX()), Vec3(axis * Vec3::UnitY()),
                          Vec3(axis * Vec3::UnitZ())}) {
    lower = lower.cwiseMin(tip);
    upper = upper.cwiseMax(tip);
  }
  camera_.fit(0.5 * (lower + upper), 0.5 * (upper - lower).norm());
  update();
}

void ClumpPreview::initializeGL() {
  try {
    renderer_.initialize();
    initialized_ = true;
  } catch (const std::exception&) {
    glFailed_ = true;
  }
}

void ClumpPreview::resizeGL(int w, int h) {
  camera_.setViewport(w, h);
  if (!userMoved_) fit();  // the fit depends on the aspect ratio, known only once laid out
}

void ClumpPreview::paintGL() {
  if (initialized_ && mesh_) {
    const double ratio = devicePixelRatioF();
    renderer_.render(snapshot_, camera_, options_, static_cast<int>(std::lround(width() * ratio)),
                     static_cast<int>(std::lround(height() * ratio)));
  }
  if (!initialized_ || !mesh_) {
    QPainter painter(this);
    painter.fillRect(rect(), QColor(40, 43, 50));
    painter.setPen(QColor(220, 220, 220));
    painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                     glFailed_ ? tr("OpenGL 3.3 is not available: no preview.") : tr("No mesh yet"));
  }
}

void ClumpPreview::addAsColumn(ClumpPreview* preview, QHBoxLayout* columns) {
  auto* column = new QVBoxLayout;
  column->addWidget(preview, 1);
  auto* caption =
      new QLabel(tr("Axes of the mesh file: x red, y green, z blue. Drag to orbit, right-drag to "
                    "pan, wheel to zoom, double-click to fit."));
  caption->setWordWrap(true);
  caption->setStyleSheet(QStringLiteral("color: #606060;"));
  column->addWidget(caption);
  columns->addLayout(column, 3);
}

void ClumpPreview::mousePressEvent(QMouseEvent* event) {
  last_ = event->position().toPoint();
}

void ClumpPreview::mouseMoveEvent(QMouseEvent* event) {
  const QPoint p = event->position().toPoint();
  const QPoint d = p - last_;
  last_ = p;
  userMoved_ = true;
  if (event->buttons() & Qt::RightButton ||
      (event->buttons() & Qt::LeftButton && event->modifiers() & Qt::ShiftModifier)) {
    camera_.pan(d.x(), d.y());
  } else if (event->buttons() & Qt::LeftButton) {
    camera_.orbit(d.x(), d.y());
  }
  update();
}

void ClumpPreview::mouseDoubleClickEvent(QMouseEvent*) {
  fit();
}

void ClumpPreview::wheelEvent(QWheelEvent* event) {
  userMoved_ = true;
  camera_.zoom(event->angleDelta().y() / 120.0);
  update();
}

}  // namespace clumplab::gui::wizard
