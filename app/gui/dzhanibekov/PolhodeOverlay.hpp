#pragma once
// The polhode drawn on the body in the 3D views: the direction of L in the body frame, traced as
// the body turns (SpinReport::trail) and the closed curve it follows (polhodeLoop), both on the sphere
// of radius kPolhodeRadius bounding radii about the centre of mass: where the line of L (fixed in
// space, as long as the body alone is shown) pierces a sphere just about the body. Looking along L
// the curve passes through the line of sight and is seen edge-on, as lines through the body's
// centre: on the sphere of the L arrow's tip (twice the body's size, its near side magnified by
// perspective) those lines crossed the whole view; on this one they end just past the body.
#include "gui/dzhanibekov/Polhode.hpp"
#include "render/ViewOptions.hpp"

namespace clumplab::gui {

// [bounding radii] just outside the body, which the curve never dips into
inline constexpr double kPolhodeRadius = 1.15;
static_assert(kPolhodeRadius > 1.0 && kPolhodeRadius <= render::kLongestArrowRadii);

// The traced directions (unit vectors, body frame), the newest marked, for `body`.
render::BodyCurve polhodeTrail(int body, const std::vector<Vec3>& directions);

// The closed polhode of the state (the branch the state is on), faint, for `body`.
render::BodyCurve polhodeLoop(int body, const Vec3& moments, const Vec3& omegaBody);

}  // namespace clumplab::gui
