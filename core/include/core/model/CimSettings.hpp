#pragma once
// Settings of the integrators that evaluate their own forces (Meland et al., Cluster integration method): the
// cluster integration method ("cim") and its DEM baseline, classical RK4 at a constant step ("rk4"). Scene
// key "cim".
#include <limits>

namespace clumplab {

struct CimSettings {
  // Delta [m]: the neighbour-list buffer of both (the paper: 0.6 mm for radius 1 mm). 0 picks
  // 0.6 x the smallest pebble radius, the paper's ratio.
  double buffer = 0.0;
  // Per-cluster Runge-Kutta-Fehlberg 4(5) (cim only; the paper's rtol 1e-5 and atol 1e-20): the
  // relative and absolute tolerances, the minimum step dt_min [s] (steps this short are accepted
  // whatever their error estimate) and the maximum step [s] (the largest double: no maximum). Their
  // ranges: core/model/ModelParameters.hpp ("cim.buffer", ...).
  double relativeTolerance = 1e-5;
  double absoluteTolerance = 1e-20;
  double minStep = 0.0;
  double maxStep = std::numeric_limits<double>::max();

  bool operator==(const CimSettings&) const = default;
};

}  // namespace clumplab
