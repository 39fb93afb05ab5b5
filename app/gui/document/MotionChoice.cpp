#include "gui/document/MotionChoice.hpp"

#include <QCoreApplication>

namespace clumplab::gui {

namespace {
QString trMotionChoice(const char* text) {
  return QCoreApplication::translate("MotionChoice", text);
}
const char* planeName(int normalAxis) {
  return normalAxis == 0 ? "y–z" : normalAxis == 1 ? "x–z" : "x–y";
}
}  // namespace

QString motionChoiceLabel(MotionChoice choice) {
  switch (choice) {
    case MotionChoice::AsSceneFile:
      return trMotionChoice("As the scene file says");
    case MotionChoice::ThreeD:
      return trMotionChoice("3D");
    default:
      return trMotionChoice("2D in the %1 plane")
          .arg(QString::fromUtf8(planeName(*motionChoiceNormalAxis(choice))));
  }
}

std::optional<int> motionChoiceNormalAxis(MotionChoice choice) {
  switch (choice) {
    case MotionChoice::PlaneYZ:
      return 0;
    case MotionChoice::PlaneXZ:
      return 1;
    case MotionChoice::PlaneXY:
      return 2;
    default:
      return std::nullopt;
  }
}

MotionChoice motionChoiceOf(const std::optional<PlaneConstraint>& override) {
  if (!override) return MotionChoice::AsSceneFile;
  if (!override->enabled) return MotionChoice::ThreeD;
  switch (override->axis()) {
    case 0:
      return MotionChoice::PlaneYZ;
    case 1:
      return MotionChoice::PlaneXZ;
    default:
      return MotionChoice::PlaneXY;
  }
}

QString describeMotion(const PlaneConstraint& plane) {
  if (!plane.enabled) return trMotionChoice("3D");
  if (const int a = plane.axis(); a >= 0)
    return trMotionChoice("2D (%1)").arg(QString::fromUtf8(planeName(a)));
  const Vec3& n = plane.normal;
  return trMotionChoice("2D (n = %1, %2, %3)")
      .arg(n.x(), 0, 'g', 3)
      .arg(n.y(), 0, 'g', 3)
      .arg(n.z(), 0, 'g', 3);
}

}  // namespace clumplab::gui
