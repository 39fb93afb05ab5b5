#include "WorldValidation.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace clumplab {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

void checkDamping(double linear, double angular) {
  require(std::isfinite(linear) && linear >= 0.0, "linear damping must be finite and >= 0 [1/s]");
  require(std::isfinite(angular) && angular >= 0.0, "angular damping must be finite and >= 0 [1/s]");
}

// The ranges the scene loader enforces, for models set from code (the GUI).
void checkContactModel(const ContactModel& c) {
  const auto inRange = [](double v, double lo, double hi) { return std::isfinite(v) && v >= lo && v <= hi; };
  const double inf = std::numeric_limits<double>::infinity();
  if (c.kind == ContactModel::Kind::Linear) {
    const LinearContactParameters& p = c.linear;
    require(std::isfinite(p.stiffness) && p.stiffness > 0.0, "contact stiffness must be positive");
    require(inRange(p.restitution, 0.0, 1.0), "restitution must lie in [0, 1]");
    require(inRange(p.damping, 0.0, inf), "normal damping must be >= 0");
    require(inRange(p.friction, 0.0, inf), "friction must be >= 0");
    require(inRange(p.tangentialStiffnessRatio, 0.0, inf), "tangential stiffness ratio must be >= 0");
    require(inRange(p.tangentialDamping, 0.0, inf), "tangential damping must be >= 0");
  } else if (c.kind == ContactModel::Kind::HertzMindlin) {
    const HertzMindlinContactParameters& p = c.hertzMindlin;
    require(std::isfinite(p.youngsModulus) && p.youngsModulus > 0.0, "Young's modulus must be positive");
    // nu = 0.5 leaves E* finite but is no solid a DEM code models; below -1 the shear modulus flips.
    require(std::isfinite(p.poisson) && p.poisson >= 0.0 && p.poisson < 0.5,
            "Poisson's ratio must lie in [0, 0.5)");
    require(inRange(p.restitution, 0.0, 1.0), "restitution must lie in [0, 1]");
    require(inRange(p.friction, 0.0, inf), "friction must be >= 0");
  } else {
    const HertzContactParameters& p = c.hertz;
    require(std::isfinite(p.young) && p.young > 0.0, "Young's modulus must be positive");
    require(inRange(p.poisson, 0.0, 0.5), "Poisson's ratio must lie in [0, 0.5]");
    require(inRange(p.restitutionSquared, 0.0, 1.0), "restitution_squared must lie in [0, 1]");
    require(inRange(p.friction, 0.0, inf), "friction must be >= 0");
    require(std::isfinite(p.regularizingVelocity) && p.regularizingVelocity > 0.0,
            "regularizing velocity must be positive");
  }
}

void checkFields(const FieldSettings& f) {
  require(f.electric.allFinite() && f.magnetic.allFinite(), "electric and magnetic fields must be finite");
  require(std::isfinite(f.gravitationalConstant) && f.gravitationalConstant >= 0.0,
          "the gravitational constant must be finite and >= 0");
  require(std::isfinite(f.softening) && f.softening >= 0.0, "the softening length must be finite and >= 0");
}

void checkPointProperties(const PointProperties& p) {
  require(std::isfinite(p.charge) && p.electricDipole.allFinite() && p.magneticDipole.allFinite(),
          "charge and dipoles must be finite");
}

// The automatic softening: a tenth of the smallest pebble radius (centres of mass closer than that
// belong to pebbles overlapping far beyond any contact's range).
double resolveSoftening(double softening, double minPebbleRadius) {
  if (softening > 0.0) return softening;
  return std::isfinite(minPebbleRadius) ? 0.1 * minPebbleRadius : 1e-4;
}
}  // namespace clumplab
