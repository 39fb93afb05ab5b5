#pragma once
// Integrator order analysis (Mutze, Polyspherical grains, §1 (viii), (ix)): a series of runs over the same
// time span, the number of steps multiplied by a factor f from one run to the next. The distance between
// synchronous configurations of successive runs, in a natural metric on positions and
// orientations, scales as dt^p for an integrator of order p, so successive distances fall by f^p;
// the same holds for the deviation of the conserved energy. Both orders are fitted over a chosen
// window of time.
#include <cstddef>
#include <vector>

#include "core/base/WorkProgress.hpp"
#include "core/scene/Scene.hpp"

namespace clumplab {

struct OrderSettings {
  int runs = 4;                               // >= 3 (two distances are compared)
  int factor = 2;                             // steps multiply by this from run to run (>= 2)
  double timeStep = 0.0;                      // [s] of the first (coarsest) run; 0: the scene's
  double duration = 0.0;                      // [s]; 0: the scene's duration
  double windowBegin = 0.0, windowEnd = 0.0;  // [s] the fit window; end 0: the whole span
  int samples = 200;                          // synchronous instants over the span
};

struct OrderAnalysis {
  int factor = 2;
  std::vector<double> timeSteps;  // [s] of each run
  std::vector<double> times;      // [s] synchronous instants (multiples of the coarsest step)
  // distance[k][j]: between runs k and k + 1 at times[j] [m]. The metric: the root mean square over
  // bodies of sqrt(|dx|^2 + (b theta)^2), theta the angle between the two orientations and b the
  // body's bounding radius (so a rotation counts as the displacement of its farthest pebble).
  std::vector<std::vector<double>> distance;
  // energyDeviation[k][j]: |C(t) - C(0)| of run k [J], C = total + dissipated - external work (what
  // is conserved; the total alone without friction).
  std::vector<std::vector<double>> energyDeviation;
  // Orders fitted over the window: log(rms d_k / rms d_(k+1)) / log f for each pair of successive
  // distances, and log(rms dE_k / rms dE_(k+1)) / log f for successive runs; and their means.
  // Root mean square of each distance and energy series over the window (what the orders are fitted from).
  std::vector<double> rmsDistance, rmsEnergyDeviation;
  std::vector<double> trajectoryOrders, energyOrders;
  double trajectoryOrder = 0.0, energyOrder = 0.0;
  double windowBegin = 0.0, windowEnd = 0.0;
};

// Runs the series (each run on the calling thread; progress reported per run and sample). Throws
// std::invalid_argument for settings that cannot work (naming the setting), std::runtime_error
// when a run diverges (naming its time step), OperationCancelled when cancelled.
OrderAnalysis analyzeOrder(const Scene& scene, const OrderSettings& settings,
                           const WorkProgress& progress = {});

// Fits the orders again over [windowBegin, windowEnd] of `analysis` (after moving its window).
void refitOrders(OrderAnalysis& analysis);

}  // namespace clumplab
