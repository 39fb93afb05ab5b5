#pragma once
// What a body carries at its centre of mass for the fields (Mutze, Polyspherical grains, §1 (v), (vi)):
// a point charge, an electric dipole, a magnetic dipole and a point-mass flag. The fields that act on
// them are forces/Fields.hpp.
#include "core/base/Math.hpp"

namespace clumplab {

// A body's point properties, located at its centre of mass. Dipoles are stored in the body
// (principal) frame and turn with the body.
struct PointProperties {
  double charge = 0.0;                 // q [C]
  Vec3 electricDipole = Vec3::Zero();  // p [C m], body frame
  Vec3 magneticDipole = Vec3::Zero();  // m [A m^2], body frame
  bool pointMass = false;              // attracts other point masses with G m1 m2 / r^2

  bool any() const {
    return charge != 0.0 || pointMass || electricDipole != Vec3::Zero() || magneticDipole != Vec3::Zero();
  }
  bool operator==(const PointProperties&) const = default;
};

}  // namespace clumplab
