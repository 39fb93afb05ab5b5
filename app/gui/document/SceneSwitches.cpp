#include "gui/document/SceneSwitches.hpp"

#include <QAction>
#include <QActionGroup>
#include <QMenu>

#include "core/scene/ScenePlane.hpp"
#include "gui/docks/ParametersDock.hpp"
#include "gui/document/DocumentController.hpp"

namespace clumplab::gui {

SceneSwitches::SceneSwitches(DocumentController& document, ParametersDock& parameters, QObject* parent)
    : QObject(parent), document_(document), parameters_(parameters) {
  connect(&document_, &DocumentController::switchesChanged, this, &SceneSwitches::showChecks);
}

void SceneSwitches::addMenus(QMenu* menu) {
  // PaLa's polyspheres / spheres switch (Mutze, Polyspherical grains, §1 (ii)): the scene reopened with
  // every clump as one sphere, to show what the shape changes.
  QMenu* shapes = menu->addMenu(tr("Clumps as &spheres"));
  auto* shapeGroup = new QActionGroup(this);
  const std::pair<QString, std::optional<SphereKind>> shapeModes[] = {
      {tr("Clumps as built (polyspheres)"), std::nullopt},
      {tr("Bounding spheres"), SphereKind::Bounding},
      {tr("Volume-equivalent spheres"), SphereKind::VolumeEquivalent}};
  for (const auto& [label, kind] : shapeModes) {
    QAction* a = shapes->addAction(label, this, [this, kind = kind] { setSphereMode(kind); });
    a->setCheckable(true);
    a->setChecked(!kind);
    shapeGroup->addAction(a);
    sphereModeActions_.push_back(a);
  }
  // PaLa's 2D / 3D switch (Mutze, Polyspherical grains, §1 (i)).
  QMenu* motion = menu->addMenu(tr("&Motion (2D / 3D)"));
  auto* motionGroup = new QActionGroup(this);
  for (const MotionChoice choice : kMotionChoices) {
    QAction* a = motion->addAction(motionChoiceLabel(choice), this, [this, choice] { setMotion(choice); });
    a->setCheckable(true);
    a->setChecked(choice == MotionChoice::AsSceneFile);
    if (motionChoiceNormalAxis(choice)) {
      a->setToolTip(
          tr("Motion in this plane through the middle of the bodies: positions in the plane, "
             "rotation about its normal only"));
    }
    motionGroup->addAction(a);
    motionActions_.push_back(a);
  }
}

std::optional<SphereKind> SceneSwitches::sphereMode() const {
  return document_.overrides().spheres;
}

MotionChoice SceneSwitches::motion() const {
  return motionChoiceOf(document_.overrides().plane);
}

QString SceneSwitches::setSphereMode(std::optional<SphereKind> spheres) {
  SceneOverrides next = document_.overrides();
  next.spheres = spheres;
  return document_.reopenWith(
      next, tr("Clumps as spheres"),
      tr("Spheres take other room than the clumps (a bounding sphere much more): try the other "
         "kind of sphere, or fewer bodies."));
}

QString SceneSwitches::setMotion(MotionChoice choice) {
  SceneOverrides next = document_.overrides();
  if (choice == MotionChoice::AsSceneFile) {
    next.plane.reset();
  } else if (const auto axis = motionChoiceNormalAxis(choice)) {
    // Through the middle of the bodies as they are now: the same plane however often it is chosen.
    const std::shared_ptr<const Scene> scene = document_.scene();
    next.plane = scene ? planeThroughBodies(*scene, *axis) : PlaneConstraint{true, Vec3::Unit(*axis), 0.0};
  } else {
    next.plane = PlaneConstraint{};
  }
  return document_.reopenWith(next, tr("Motion"), tr("Try another plane, or the scene as its file says."));
}

void SceneSwitches::showChecks() {
  const SceneOverrides& o = document_.overrides();
  const int sphere = !o.spheres ? 0 : (*o.spheres == SphereKind::Bounding ? 1 : 2);
  for (int k = 0; k < static_cast<int>(sphereModeActions_.size()); ++k)
    sphereModeActions_[k]->setChecked(k == sphere);
  const MotionChoice choice = motionChoiceOf(o.plane);
  for (std::size_t k = 0; k < motionActions_.size(); ++k)
    motionActions_[k]->setChecked(kMotionChoices[k] == choice);
  // With no override the scene on screen moves as its file says (opening a file drops the override).
  if (!o.plane && document_.scene())
    sceneFileMotion_ = describeMotion(document_.scene()->model.settings.plane);
  if (!motionActions_.empty())
    motionActions_.front()->setText(tr("As the scene file says (%1)").arg(sceneFileMotion_));
  parameters_.showMotion(choice, sceneFileMotion_);
}

}  // namespace clumplab::gui
