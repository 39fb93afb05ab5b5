#pragma once
// The test system of Meland et al., Cluster integration method, ("TEST SIMULATIONS"): elastic spherocylinders
// in a cubic periodic box in zero gravity, repelled by a linear spring only, at a given mean kinetic energy
// per particle, with no spin about their shafts, "equilibrated" until the rotational and translational
// kinetic energies are in equipartition while the kinetic energy is rescaled to the wanted value. Two
// rotational degrees of freedom (the spin about the shaft is frozen: no tangential force can change
// it) and three translational: E_rot / E_trans = 2/3. The paper: 746 particles, shaft 4 mm, radius
// 1 mm, density 2700 kg/m^3, box 5 cm (volume fraction 0.1), 6.13e-6 J per particle, Delta 0.6 mm.
#include <cstdint>
#include <functional>

#include "core/scene/Scene.hpp"

namespace clumplab::cim {

struct SpherocylinderGasRequest {
  std::size_t count = 746;
  double boxLength = 0.05;             // [m], the box [0, L]^3, periodic on all axes
  double radius = 1e-3;                // [m]
  double shaftLength = 4e-3;           // [m]
  double density = 2700.0;             // [kg/m^3]
  double meanKineticEnergy = 6.13e-6;  // [J] per particle
  double stiffness = 1e4;              // kn [N/m] of the scene and of the equilibration
  double buffer = 6e-4;                // Delta [m]
  std::uint64_t seed = 1;              // placement and velocities
  double rescaleInterval = 1e-3;  // [s]: World step of the equilibration, kinetic energy rescaled after each
  double window = 0.02;           // [s]: the ratio's running mean is taken over this much time
  double tolerance = 0.02;        // relative: the mean ratio within it of 2/3, the final one within half
  double minTime = 0.1;           // [s] of equilibration at least
  double maxTime = 3.0;           // [s] at most (then it fails)
  int threads = 1;
  // Called after every rescale with the time [s], the ratio now and its running mean (progress).
  std::function<void(double time, double ratio, double meanRatio)> progress;
};

struct SpherocylinderGasResult {
  Scene scene;                     // time 0, integrator cim, the bodies equilibrated
  double equilibrationTime = 0.0;  // [s]
  double ratio = 0.0;              // E_rot / E_trans of the scene's bodies
  double meanRatio = 0.0;          // over the last window
  double volumeFraction = 0.0;     // N V / L^3
  std::size_t placementAttempts = 0;
};

// Places the particles at random without overlaps, gives them random velocities (no rotation) with
// zero total momentum, and runs the cim integrator, rescaling the kinetic energy after every
// interval, until equipartition (SpherocylinderGasRequest). Deterministic for a seed. Throws
// std::runtime_error when the box is too full or equipartition is not reached by maxTime.
SpherocylinderGasResult makeSpherocylinderGas(const SpherocylinderGasRequest& request);

}  // namespace clumplab::cim
