#pragma once
// "rk4": the DEM baseline of Meland et al., Cluster integration method as a World integrator: classical
// fourth-order Runge-Kutta at the constant World step over all bodies together (Rk4Baseline), forces from a
// Verlet list with the buffer Delta. The work of dissipative forces and loads and the wall impulses are
// integrated with the bodies (Rk4Baseline's tally).
#include "OwnForcesIntegrator.hpp"

namespace clumplab::cim {

class Rk4Integrator final : public OwnForcesIntegrator {
 public:
  OwnForcesStep advance(const StepContext& step, OwnForcesHistory& history, double dt, bool edited) override;
};

}  // namespace clumplab::cim
