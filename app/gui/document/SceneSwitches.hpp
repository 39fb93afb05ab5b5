#pragma once
// PaLa's scene switches in the Simulation menu (Mutze, Polyspherical grains, §1 (i), (ii)): clumps
// as built or as their bounding or volume-equivalent spheres, and motion in 3D, in a coordinate
// plane through the middle of the bodies, or as the scene file says. A choice reopens the scene
// (DocumentController::reopenWith); the menus' checks and the Parameters panel follow the switches.
#include <QObject>
#include <QString>
#include <optional>
#include <vector>

#include "core/scene/SphereSwitch.hpp"
#include "gui/document/MotionChoice.hpp"

class QAction;
class QMenu;

namespace clumplab::gui {

class DocumentController;
class ParametersDock;

class SceneSwitches : public QObject {
  Q_OBJECT
 public:
  SceneSwitches(DocumentController& document, ParametersDock& parameters, QObject* parent);

  // The two submenus, added to `menu`.
  void addMenus(QMenu* menu);

  // Reopens the scene with every clump as the sphere `spheres` (as built: nullopt); "" or the error.
  QString setSphereMode(std::optional<SphereKind> spheres);
  std::optional<SphereKind> sphereMode() const;
  // Reopens the scene moving as `choice` says; "" or the error (the scene stays then).
  QString setMotion(MotionChoice choice);
  MotionChoice motion() const;

 private:
  void showChecks();

  DocumentController& document_;
  ParametersDock& parameters_;
  std::vector<QAction*> sphereModeActions_;
  std::vector<QAction*> motionActions_;  // in kMotionChoices' order
  QString sceneFileMotion_;              // how the open scene's file moves: "3D", "2D (x–z)"
};

}  // namespace clumplab::gui
