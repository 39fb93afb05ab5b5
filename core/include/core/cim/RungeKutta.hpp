#pragma once
// Explicit Runge-Kutta integrators of the cluster integration method (Meland et al., Cluster integration
// method):
//  - classical fourth-order Runge-Kutta at a constant step (the paper's DEM baseline), and
//  - the Runge-Kutta-Fehlberg 4(5) pair with step-size control (the paper's cluster integrator):
//    relative and absolute tolerance, a maximum step, and a minimum step below which a step is
//    accepted whatever its error estimate (the paper's dt_min, which keeps stiff contacts from
//    forcing needlessly small steps).
// Both integrate exactly to a target time: the last step is clipped to land on it.
//
// References: E. Fehlberg, "Low-order classical Runge-Kutta formulas with stepsize control and
// their application to some heat transfer problems", NASA TR R-315 (1969), Table III (the 4(5)
// pair, "RKF45"); E. Hairer, S. P. Norsett, G. Wanner, "Solving Ordinary Differential Equations I",
// 2nd ed., Springer 1993: §II.1 (classical RK4, Table 1.2), §II.4 (error norm eq. (4.11), step-size
// control eq. (4.12)-(4.13), starting step size), Table 5.1 of §II.5 (RKF45 coefficients).
#include <atomic>
#include <cstddef>
#include <functional>
#include <limits>

#include "core/cim/OdeSystem.hpp"

namespace clumplab::cim {

// Scratch vectors of the steppers; keep one per thread and reuse it (no allocation once sized).
struct RungeKuttaWorkspace {
  OdeState k[6];
  OdeState stage;
  OdeState lower;   // the embedded solution (RKF: fourth order)
  OdeState higher;  // fifth order
  void resize(Eigen::Index n);
};

// One classical RK4 step of size h from (t, y): y <- y + h/6 (k1 + 2 k2 + 2 k3 + k4). Does not
// project. Four derivative evaluations.
void rk4Step(OdeSystem& system, double t, double h, OdeState& y, RungeKuttaWorkspace& work);

// One Fehlberg step of size h from (t, y): the fourth-order solution into work.lower and the
// fifth-order one into work.higher. `k1Ready`: work.k[0] already holds f(t, y) (saves one
// evaluation). Returns the number of derivative evaluations made (5 or 6).
int fehlbergStep(OdeSystem& system, double t, double h, const OdeState& y, RungeKuttaWorkspace& work,
                 bool k1Ready);

struct Rk4Stats {
  std::size_t steps = 0;
  std::size_t evaluations = 0;  // derivative (force) evaluations
};

// Integrates from t0 to t1 with steps of h [time units] (the last one clipped to t1), projecting
// after every step.
Rk4Stats integrateRk4(OdeSystem& system, double t0, double t1, double h, OdeState& y,
                      RungeKuttaWorkspace& work);

struct RkfSettings {
  double relativeTolerance = 1e-5;   // the paper's values
  double absoluteTolerance = 1e-20;  // in the units of each error block
  double minStep = 0.0;              // dt_min: steps this short are accepted whatever the error
  double maxStep = std::numeric_limits<double>::infinity();
  double initialStep = 0.0;  // 0: chosen automatically (HNW §II.4), costs one evaluation
  double safety = 0.9;       // fac in h_new = h min(maxGrowth, max(maxShrink, fac err^(-1/5)))
  double maxGrowth = 5.0;    // facmax (1 right after a rejected step, HNW)
  double maxShrink = 0.2;    // facmin
  // true: continue with the fifth-order solution (local extrapolation, as most RKF45 codes and
  // Dormand-Prince do); false: with the fourth-order one, as Fehlberg proposed. The error estimate
  // is the difference of the two either way.
  bool localExtrapolation = true;
  std::size_t maxSteps = 10'000'000;  // safety net; integrateRkf45 stops and reports it
  // Once set (any thread), integrateRkf45 stops within kRkfCancelCheckEvery steps, not finished: a
  // stiff cluster can need millions of steps, and a world being replaced must not wait for them.
  const std::atomic<bool>* cancel = nullptr;
  // Called after every accepted step with its end time and (projected) state, e.g. to sample a
  // trajectory or check it; empty: nothing.
  std::function<void(double t, const OdeState& y)> onAcceptedStep;
  // Optional bound on where the state may go (the cluster integration's displacement bound): the
  // ratio of the state at time t to its limit, at most 1 within it. A step accepted by the error
  // control that would end beyond the limit is taken again shorter, aimed just inside it by linear
  // interpolation of the ratio over the step; once the step needed is below boundResolution [s] (or
  // minStep), the integration stops where it is: not finished, `bounded`, at `reached`. A step at
  // minStep (or a first step that short) cannot be shortened: it is taken and the integration stops
  // after it, `bounded` (and `finished` if it reached t1), the limit exceeded by that step.
  std::function<double(double t, const OdeState& y)> boundRatio;
  double boundResolution = 0.0;
};

// How often (in steps tried) integrateRkf45 reads RkfSettings::cancel.
constexpr std::size_t kRkfCancelCheckEvery = 256;

struct RkfStats {
  std::size_t accepted = 0;
  std::size_t rejected = 0;
  std::size_t forced = 0;       // accepted at the minimum step with an error estimate above 1
  std::size_t evaluations = 0;  // derivative (force) evaluations, the starting-step one included
  double smallestStep = std::numeric_limits<double>::infinity();  // among accepted, clipped ones excluded
  double largestStep = 0.0;
  double nextStep = 0.0;         // the step the controller proposes after the last one (not clipped)
  bool finished = false;         // reached t1 (false: maxSteps hit, the state became non-finite, or bounded)
  double reached = 0.0;          // the time the state was left at [s] (t1 when finished)
  bool bounded = false;          // stopped at RkfSettings::boundRatio's limit
  std::size_t boundRetakes = 0;  // steps taken again shorter to stay within the bound
  void add(const RkfStats& other);
};

// The error norm of HNW eq. (4.11) with the max over blocks instead of the RMS: for each block B of
// components (system.errorBlocks()), |e_B| / (atol + rtol max(|y0_B|, |y1_B|, floor_B)); the
// largest ratio. `floors`: one per block (system.errorFloors()), or empty for none.
double errorRatio(const OdeState& error, const OdeState& y0, const OdeState& y1, double relativeTolerance,
                  double absoluteTolerance, std::span<const int> blocks, std::span<const double> floors = {});

// Integrates from t0 to t1 > t0 with RKF45 and step-size control, landing exactly on t1, projecting
// after every accepted step.
RkfStats integrateRkf45(OdeSystem& system, double t0, double t1, OdeState& y, const RkfSettings& settings,
                        RungeKuttaWorkspace& work);

}  // namespace clumplab::cim
