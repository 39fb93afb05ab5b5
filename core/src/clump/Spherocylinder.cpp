#include "core/clump/Spherocylinder.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace clumplab {

SpherocylinderMass spherocylinderMass(double radius, double shaftLength, double density) {
  constexpr double pi = std::numbers::pi;
  const double r = radius, l = shaftLength, rho = density;
  const double r2 = r * r, r3 = r2 * r, r4 = r3 * r, r5 = r4 * r;
  SpherocylinderMass m;
  m.volume = pi * r2 * l + 4.0 / 3.0 * pi * r3;
  m.mass = rho * m.volume;
  // Meland et al., Cluster integration method: I3 is the sphere's plus the cylinder's moment about the axis;
  // I1 = I2 by integration.
  m.axialMoment = pi / 2.0 * rho * r4 * l + 8.0 / 15.0 * pi * rho * r5;
  m.transverseMoment = 8.0 / 15.0 * pi * rho * r5 + 3.0 / 4.0 * pi * rho * r4 * l +
                       1.0 / 3.0 * pi * rho * r3 * l * l + 1.0 / 12.0 * pi * rho * r2 * l * l * l;
  return m;
}

ClumpTemplate makeSpherocylinderTemplate(std::string name, double radius, double shaftLength,
                                         double density) {
  if (!(std::isfinite(radius) && radius > 0.0)) throw std::invalid_argument("the radius must be positive");
  if (!(std::isfinite(shaftLength) && shaftLength >= 0.0)) {
    throw std::invalid_argument("the shaft length must be finite and >= 0");
  }
  if (!(std::isfinite(density) && density > 0.0)) throw std::invalid_argument("the density must be positive");
  const SpherocylinderMass m = spherocylinderMass(radius, shaftLength, density);
  ClumpTemplate t;
  t.name = std::move(name);
  t.mass = m.mass;
  t.volume = m.volume;
  t.density = density;
  t.inertiaMethod = "spherocylinder";
  Pebble p;
  p.radius = radius;
  p.halfLength = 0.5 * shaftLength;
  if (m.axialMoment < m.transverseMoment) {
    // Smallest moment about the shaft: the shaft becomes body e1. x_body = Q x_input with Q the
    // rotation by +90 degrees about e2, which takes e3 to e1 (right-handed, exact entries).
    t.principalMoments = Vec3(m.axialMoment, m.transverseMoment, m.transverseMoment);
    t.rotationFromInput = Quat(std::sqrt(0.5), 0.0, std::sqrt(0.5), 0.0);
    p.axis = Vec3::UnitX();
  } else {
    t.principalMoments = Vec3(m.transverseMoment, m.transverseMoment, m.axialMoment);
    p.axis = Vec3::UnitZ();
  }
  t.pebbles = {p};
  t.boundingRadius = p.reach();
  t.minPebbleRadius = radius;
  return t;
}

bool isSpherocylinder(const ClumpTemplate& t) {
  return t.pebbles.size() == 1 && !t.pebbles.front().isSphere();
}

}  // namespace clumplab
