#pragma once
// Adding and removing bodies by hand: the toolbar's template list and shot speed, a spawn at the
// cursor (above the point under it) or a shot from the camera towards it, a template of the library
// dropped on the view, and deleting the selected body. The simulation thread starts every body where
// it overlaps nothing (SimulationLoop::spawn). It gets what it asks of the window (SpawnHost), not the
// window.
#include <QObject>
#include <QPoint>
#include <QString>
#include <optional>

#include "core/clump/ClumpTemplate.hpp"
#include "core/world/BodyInit.hpp"
#include "gui/spawn/SpawnHost.hpp"

class QComboBox;
class QDoubleSpinBox;
class QMainWindow;

namespace clumplab::gui {

class SpawnController : public QObject {
  Q_OBJECT
 public:
  // `window`: the parent of its messages and the status bar its reports go to.
  SpawnController(SpawnHost& host, QMainWindow& window);

  // The toolbar's widgets: the template spawned, and the speed of a shot body [m/s].
  QComboBox* templateBox() const { return templateBox_; }
  QDoubleSpinBox* shootSpeedBox() const { return shootSpeed_; }

  // The template chosen in the toolbar at the world point under `pixel` of the 3D view, or shot from
  // the camera towards that point at the chosen speed.
  void spawnAt(QPoint pixel, bool shoot);
  // The same at the cursor (the view's centre when the cursor is elsewhere).
  void spawnAtCursor(bool shoot);
  // A template (not necessarily one of the world's yet) at the world point under `pixel`.
  void spawnTemplateAt(TemplatePtr clump, QPoint pixel);
  // A template file of the library at `pixel`; false with a message when it cannot be read.
  bool spawnLibraryTemplate(const QString& path, QPoint pixel);
  // Deletes the body selected in the view (refused by the thread if indices shifted meanwhile).
  void deleteSelected();
  // The template list follows the world's templates (kept on the same name).
  void updateTemplateList();

 private:
  // A spawn asked for at the view's `pixel`: the body at the point under it (dropped there), or at
  // the shooter's start with the shot's velocity and the point aimed at.
  struct Placement {
    BodyInit body;
    std::optional<Vec3> aimedAt;
  };
  Placement placementAt(QPoint pixel, double radius, bool shoot) const;

  SpawnHost& host_;
  QMainWindow& window_;
  QComboBox* templateBox_ = nullptr;
  QDoubleSpinBox* shootSpeed_ = nullptr;
};

}  // namespace clumplab::gui
