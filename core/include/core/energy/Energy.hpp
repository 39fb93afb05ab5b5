#pragma once
#include "core/base/Math.hpp"

namespace clumplab {

// Energy and momentum bookkeeping at one instant (Mutze, Polyspherical grains, §8: the total is conserved
// without friction; with it, total + dissipated is; with external loads, total + dissipated - externalWork;
// with inlets, less the inserted energy).
struct EnergyReport {
  double time = 0.0;             // [s]
  double keTranslational = 0.0;  // [J]
  double keRotational = 0.0;     // [J]
  double peGravity = 0.0;        // [J], -m g.x summed
  double peElastic = 0.0;        // [J], stored in contact springs
  // [J], fields and point interactions (Fields.hpp): -q E.x - p.E - m.B and the pairwise Coulomb,
  // dipole and gravitational energies (Mutze, Polyspherical grains, §1 (vii)); 0 without them.
  double peFields = 0.0;
  double dissipated = 0.0;              // [J], accumulated work of damping and friction
  double externalWork = 0.0;            // [J], accumulated work of external loads (user input)
  double wallWork = 0.0;                // [J], accumulated work of moving mesh walls (EnergyLedger::wallWork)
  double inserted = 0.0;                // [J], kinetic + potential energy inlets' bodies brought in
  Vec3 momentum = Vec3::Zero();         // [kg m/s]
  Vec3 angularMomentum = Vec3::Zero();  // [kg m^2/s], about the world origin

  double total() const { return keTranslational + keRotational + peGravity + peElastic + peFields; }
  // What is conserved: total + dissipated - external work - moving walls' work - inserted energy.
  double balance() const { return total() + dissipated - externalWork - wallWork - inserted; }
};

}  // namespace clumplab
