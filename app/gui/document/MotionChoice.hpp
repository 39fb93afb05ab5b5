#pragma once
// PaLa's 2D / 3D switch (Mutze, Polyspherical grains, §1 (i)) as the Simulation menu and the Parameters panel
// offer it: the scene as its file says, 3D, or 2D in a coordinate plane through the middle of the bodies.
#include <QString>
#include <array>
#include <optional>

#include "core/scene/Scene.hpp"

namespace clumplab::gui {

enum class MotionChoice { AsSceneFile, ThreeD, PlaneXY, PlaneXZ, PlaneYZ };

inline constexpr std::array<MotionChoice, 5> kMotionChoices = {MotionChoice::AsSceneFile,
                                                               MotionChoice::ThreeD, MotionChoice::PlaneXY,
                                                               MotionChoice::PlaneXZ, MotionChoice::PlaneYZ};

// "2D in the x–z plane", ...
QString motionChoiceLabel(MotionChoice choice);
// The plane's normal axis (0 x, 1 y, 2 z) of a 2D choice; none for the others.
std::optional<int> motionChoiceNormalAxis(MotionChoice choice);
// What a scene's override means in the menu's terms.
MotionChoice motionChoiceOf(const std::optional<PlaneConstraint>& override);
// How a scene's own "plane" reads: "3D", "2D (x–z)", "2D (n = 0.6, 0, 0.8)".
QString describeMotion(const PlaneConstraint& plane);

}  // namespace clumplab::gui
