#include "gui/spawn/SpawnController.hpp"

#include <QComboBox>
#include <QCursor>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QStatusBar>
#include <algorithm>

#include "gui/docks/TemplateLibraryDock.hpp"
#include "gui/view/Viewport.hpp"
#include "sim/SimulationLoop.hpp"

namespace clumplab::gui {

SpawnController::SpawnController(SpawnHost& host, QMainWindow& window)
    : QObject(&window), host_(host), window_(window) {
  templateBox_ = new QComboBox;
  templateBox_->setToolTip(tr("Template spawned at the cursor (S) or shot from the camera (G)"));
  templateBox_->setMinimumContentsLength(10);
  shootSpeed_ = new QDoubleSpinBox;
  shootSpeed_->setRange(0.0, 100.0);
  shootSpeed_->setValue(2.0);
  shootSpeed_->setSuffix(QStringLiteral(" m/s"));
  shootSpeed_->setToolTip(tr("Speed of a shot body"));
}

void SpawnController::spawnAtCursor(bool shoot) {
  const Viewport& view = *host_.viewport();
  const QPoint cursor = view.mapFromGlobal(QCursor::pos());
  spawnAt(view.rect().contains(cursor) ? cursor : view.rect().center(), shoot);
}

void SpawnController::spawnAt(QPoint pixel, bool shoot) {
  const sim::SimulationFrame* f = host_.currentFrame();
  if (!f || templateBox_->currentIndex() < 0) return;
  const auto templateIndex = static_cast<std::uint32_t>(templateBox_->currentData().toUInt());
  if (templateIndex >= f->snapshot.templates.size()) return;
  const Placement place = placementAt(pixel, f->snapshot.templates[templateIndex]->boundingRadius, shoot);
  BodyInit body = place.body;
  body.templateIndex = templateIndex;
  const QString name = QString::fromStdString(f->snapshot.templates[templateIndex]->name);
  host_.spawnUndoable({body}, nullptr, place.aimedAt,
                      shoot ? tr("shoot %1").arg(name) : tr("spawn %1").arg(name));
}

void SpawnController::spawnTemplateAt(TemplatePtr clump, QPoint pixel) {
  if (!clump || !host_.currentFrame()) return;
  const Placement place = placementAt(pixel, clump->boundingRadius, false);
  const QString what = tr("spawn %1").arg(QString::fromStdString(clump->name));
  host_.spawnUndoable({place.body}, std::move(clump), std::nullopt, what);
}

bool SpawnController::spawnLibraryTemplate(const QString& path, QPoint pixel) {
  TemplateLibraryDock& library = *host_.templateLibrary();
  library.refresh();  // the file may have changed since the list was drawn
  const LibraryEntry* entry = library.library().find(QFileInfo(path).absoluteFilePath());
  if (!entry || !entry->clump) {
    QMessageBox::warning(&window_, tr("Spawn template"),
                         entry ? entry->error : tr("%1: not a template of the library").arg(path));
    return false;
  }
  spawnTemplateAt(entry->clump, pixel);
  window_.statusBar()->showMessage(tr("Spawned %1").arg(QString::fromStdString(entry->clump->name)), 3000);
  return true;
}

SpawnController::Placement SpawnController::placementAt(QPoint pixel, double radius, bool shoot) const {
  // The simulation thread moves the body to the first clear pose (ClearSpotFinder): above the pile
  // under the cursor, or on the shot's way where it is clear.
  const Viewport& view = *host_.viewport();
  const Vec3 point = view.worldPointUnder(pixel);
  Placement place;
  place.body.position = point;
  if (shoot) {
    const Vec3 from = view.camera().eye();
    const Vec3 direction = (point - from).normalized();
    place.body.position = from + direction * std::min((point - from).norm() * 0.5, 6.0 * radius);
    place.body.velocity = direction * shootSpeed_->value();
    place.aimedAt = point;
  }
  return place;
}

void SpawnController::deleteSelected() {
  Viewport& view = *host_.viewport();
  const int body = view.selectedBody();
  if (body < 0) return;
  view.setSelectedBody(-1);
  // The body as the frame on screen numbers it: refused if indices shifted before it arrives.
  const sim::SimulationFrame* f = host_.currentFrame();
  host_.simulation().removeBody(
      {static_cast<std::uint32_t>(body), f != nullptr ? f->bodyIndexGeneration : 0});
}

void SpawnController::updateTemplateList() {
  const sim::SimulationFrame* f = host_.currentFrame();
  if (!f) return;
  const QString current = templateBox_->currentText();
  templateBox_->clear();
  for (std::size_t i = 0; i < f->snapshot.templates.size(); ++i) {
    templateBox_->addItem(QString::fromStdString(f->snapshot.templates[i]->name), static_cast<uint>(i));
  }
  const int keep = templateBox_->findText(current);
  if (keep >= 0) templateBox_->setCurrentIndex(keep);
}

}  // namespace clumplab::gui
