#pragma once
// What the scene renderer draws and how. Plain data, filled by the viewport from the GUI's toggles.
#include <QColor>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab::render {

enum class Coloring { PerBody, BySpeed, ByAngularSpeed };

// [bounding radii] the length of the longest arrow of a family (velocity, omega, L), from the
// body's centre of mass: how far a body's arrows reach.
inline constexpr double kLongestArrowRadii = 2.0;
inline constexpr double kShortestArrowRadii = 0.35;  // [bounding radii] a vector of length zero's arrow
inline constexpr double kAxisRadii = 1.25;           // [bounding radii] the principal axes' length

// A curve carried by one body (the Dzhanibekov mode's polhode): points in the body's principal frame
// in units of its bounding radius, drawn about its centre of mass as it turns.
struct BodyCurve {
  int body = -1;
  std::vector<Vec3> points;
  QColor color;
  float widthPx = 2.0f;
  bool closed = false;    // the last point joins the first
  bool markLast = false;  // a dot on the last point (where the body is now)
};

struct ViewOptions {
  bool pebbles = true;      // ray-cast sphere impostors
  bool wireframe = false;   // PaLa wireframe (Mutze, Polyspherical grains, §8): centre of mass to pebble
                            // centres, 3 radii each
  bool sourceMesh = false;  // the template's source mesh (ClumpTemplate::mesh), translucent
  Coloring coloring = Coloring::PerBody;
  double colorScaleMax =
      0.0;  // speed [m/s] or |w| [rad/s] at the top of the colour map; 0: the max in the snapshot
  // Floor grid for a plane facing +z (other planes as translucent patches), box edges when six
  // planes form an axis-aligned box, a cavity as a translucent sphere.
  bool walls = true;
  bool shadows = true;  // soft contact shadows of the pebbles on a floor facing +z
  bool bodyAxes =
      false;  // principal axes (red/green/blue = 1/2/3) and the centre of mass, selected body or all
  bool velocityArrows = false, angularVelocityArrows = false,
       angularMomentumArrows = false;  // selected or all
  bool trails = false;  // recent centre-of-mass path of each body (reset when layoutGeneration changes)
  bool contactPoints = false;
  std::vector<BodyCurve> bodyCurves;
  // Anaglyph stereo for red/cyan glasses (Mutze, Polyspherical grains, §8, for the wireframe especially): the
  // left eye in red, the right in cyan, bodies in grey; the eyes `eyeSeparation` times the viewing distance
  // apart, converging on the camera's target.
  bool stereo = false;
  double eyeSeparation = 1.0 / 30.0;
  int selectedBody = -1;  // highlighted with a tint and a bright rim
  bool dragLine = false;  // the spring line drawn while the user drags a body
  Vec3 dragFrom = Vec3::Zero(), dragTo = Vec3::Zero();
  QColor background;  // invalid (default): a dark vertical gradient, lighter at the top; else a gradient
                      // about it
};

}  // namespace clumplab::render
