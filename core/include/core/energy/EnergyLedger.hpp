#pragma once
// The energy a run books beside what its state holds (WorldState::ledger).
namespace clumplab {

// [J] since construction, so that total + dissipated - externalWork - wallWork - inserted is
// conserved to the integrator's order (Mutze, Polyspherical grains, §8).
struct EnergyLedger {
  // The work done against damping and friction: contact dashpots and hysteresis, tangential forces
  // less the change of the energy their springs store, global damping.
  double dissipated = 0.0;
  double externalWork = 0.0;  // the work of external loads (user input) on the bodies
  // The work the imposed motion of mesh walls did on the bodies: the contact forces on the bodies
  // times the walls' surface velocity.
  double wallWork = 0.0;
  double inserted = 0.0;  // the kinetic and potential energy the inlets' bodies brought in
};

}  // namespace clumplab
