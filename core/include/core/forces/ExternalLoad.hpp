#pragma once
// A force the user applies to a body (the GUI's mouse drag).
#include <cstdint>

#include "core/base/Math.hpp"

namespace clumplab {

// A force applied from outside at a point fixed in the world until it is set again or cleared. Its
// work is user input, not dissipation: EnergyLedger::externalWork books it, so that
// total + dissipated - external work is conserved while loads act.
struct ExternalLoad {
  std::uint32_t body = 0;
  Vec3 force = Vec3::Zero();  // [N], world
  Vec3 point = Vec3::Zero();  // [m], world; the torque about the centre of mass is (point - x) x force
};

}  // namespace clumplab
