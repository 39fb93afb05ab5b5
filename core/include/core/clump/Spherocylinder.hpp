#pragma once
// Spherocylinders (Meland et al., Cluster integration method): a cylinder of radius r and shaft length l
// capped by two hemispheres, as a template of one capsule pebble.
#include <string>

#include "core/clump/ClumpTemplate.hpp"

namespace clumplab {

// The "shape" of a spherocylinder template in scene files (Scene.hpp).
inline constexpr const char* kSpherocylinderShape = "spherocylinder";

// Mass properties of a uniform spherocylinder about its centre, in the paper's body frame (the
// axis u along e3, Meland et al., Cluster integration method "SPHEROCYLINDERS").
struct SpherocylinderMass {
  double volume = 0.0;            // pi r^2 l + 4/3 pi r^3 [m^3]
  double mass = 0.0;              // [kg]
  double axialMoment = 0.0;       // I3 = (pi/2) rho r^4 l + (8/15) pi rho r^5 [kg m^2]
  double transverseMoment = 0.0;  // I1 = I2 = (8/15) pi rho r^5 + (3/4) pi rho r^4 l
                                  //           + (1/3) pi rho r^3 l^2 + (1/12) pi rho r^2 l^3
};

SpherocylinderMass spherocylinderMass(double radius, double shaftLength, double density);

// The template of a spherocylinder of radius `radius` > 0, shaft length `shaftLength` >= 0 and
// density > 0 (throws std::invalid_argument otherwise). Its input frame (the frame a body's
// "orientation" rotates) is the paper's: shaft along e3. Principal moments are stored ascending,
// so the shaft lies along body e1 when I3 < I1 (every l > 0) and along e3 otherwise (l = 0: a
// sphere, and then the pebble is an ordinary sphere).
ClumpTemplate makeSpherocylinderTemplate(std::string name, double radius, double shaftLength, double density);

// True when `t` is a spherocylinder template (one capsule pebble at its centre of mass).
bool isSpherocylinder(const ClumpTemplate& t);

}  // namespace clumplab
