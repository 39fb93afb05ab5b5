#pragma once
// Torque-free rotation of a rigid body with distinct principal moments I1 < I2 < I3: the
// Dzhanibekov (intermediate axis) flip predicted in closed form (Landau & Lifshitz, Mechanics §37),
// the perturbed spins that start one, and a counter of the flips a run shows.
#include <cstddef>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab {

// Complete elliptic integral of the first kind K(k), from the complementary modulus
// k' = sqrt(1 - k^2) (arithmetic-geometric mean: K = pi / (2 AGM(1, k'))). Accurate as k' -> 0.
double ellipticK(double kComplement);

struct FlipPrediction {
  // Interval between sign changes of omega_2, the body-frame angular velocity about the
  // intermediate axis: T/2 = 2 K(k) / lambda [s] (L&L §37). Infinite when omega_2 never changes sign
  // (a spin exactly about a principal axis, or moments not distinct).
  double halfPeriod = 0.0;
  double lambda = 0.0;              // [1/s] the time scale of L&L's tau = lambda t
  double modulusComplement = 0.0;   // k'
  bool circlesLargestAxis = false;  // M^2 > 2 E I2: the tip of omega circles axis 3, else axis 1
};

// `moments` ascending [kg m^2], `omegaBody` the body-frame angular velocity [rad/s].
// k'^2 = 1 - k^2 = (I3 - I1)(M^2 - 2E I2) / ((I3 - I2)(M^2 - 2E I1)) for M^2 > 2E I2 (indices 1 and 3
// swapped otherwise), formed without cancellation.
FlipPrediction predictFlips(const Vec3& moments, const Vec3& omegaBody);

// The spin a lesson starts: omega0 about principal axis `axis` (0, 1, 2 for I1, I2, I3) plus
// epsilon * omega0 about the next axis (axis 0 -> 1, 1 -> 2, 2 -> 1), in the body frame [rad/s].
Vec3 perturbedSpin(int axis, double omega0, double epsilon);

// The flip interval for perturbedSpin(1, omega0, epsilon) to leading order in epsilon:
// T/2 ~ (2 / sigma) ln(4 / k'), with sigma = omega0 sqrt((I2 - I1)(I3 - I2) / (I1 I3)) the rate at
// which a perturbation of the intermediate axis grows and k' ~ epsilon sqrt(I3 (I3 - I1) /
// (I2 (I2 - I1))) (K(k) ~ ln(4 / k') as k' -> 0).
double smallPerturbationHalfPeriod(const Vec3& moments, double omega0, double epsilon);

// Counts the flips of a run from samples of omega_2 (body frame): a flip is a sign change, timed by
// linear interpolation between the samples around it.
class FlipCounter {
 public:
  void add(double time, double omega2);
  void clear();
  std::size_t count() const { return times_.size(); }
  const std::vector<double>& times() const { return times_; }
  // Mean interval between successive flips [s]; 0 with fewer than two.
  double meanInterval() const;

 private:
  std::vector<double> times_;
  double lastTime_ = 0.0;
  double lastOmega2_ = 0.0;
  bool haveLast_ = false;
};

}  // namespace clumplab
