#pragma once
// The polhode drawn on the body in the 3D views: the direction of L in the body frame, traced as
// the body turns (SpinReport::trail) and the closed curve it follows (polhodeLoop), both on the sphere
// of radius kPolhodeRadius bounding radii about the centre of mass, where the arrow of L (fixed in
// space, as long as the body alone is shown) ends: the arrow's tip slides along the curve.
#include "gui/dzhanibekov/Polhode.hpp"
#include "render/ViewOptions.hpp"

namespace clumplab::gui {

inline constexpr double kPolhodeRadius = 2.0;  // [bounding radii] the length of a lone body's L arrow

// The traced directions (unit vectors, body frame), the newest marked, for `body`.
render::BodyCurve polhodeTrail(int body, const std::vector<Vec3>& directions);

// The closed polhode of the state (the branch the state is on), faint, for `body`.
render::BodyCurve polhodeLoop(int body, const Vec3& moments, const Vec3& omegaBody);

}  // namespace clumplab::gui
