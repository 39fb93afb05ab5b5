#include "core/clump/FreeRotation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace clumplab {

double ellipticK(double kComplement) {
  if (!(kComplement > 0.0)) return std::numeric_limits<double>::infinity();
  double a = 1.0, b = kComplement;
  for (int i = 0; i < 60 && std::abs(a - b) > 1e-16 * a; ++i) {
    const double m = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = m;
  }
  return std::numbers::pi / (2.0 * a);
}

FlipPrediction predictFlips(const Vec3& I, const Vec3& w) {
  FlipPrediction p;
  p.halfPeriod = std::numeric_limits<double>::infinity();
  if (!(I[0] > 0.0) || !(I[1] > I[0]) || !(I[2] > I[1]) || !w.allFinite()) return p;
  const double twoE = (I.array() * w.array().square()).sum();
  const double m2 = (I.array().square() * w.array().square()).sum();
  // M^2 - 2E I2 = sum I_i w_i^2 (I_i - I2): no cancellation between two large numbers.
  const double m2Minus2EI2 = (I.array() * w.array().square() * (I.array() - I[1])).sum();
  double kc2 = 0.0;
  if (m2Minus2EI2 > 0.0) {
    p.circlesLargestAxis = true;
    p.lambda = std::sqrt((I[2] - I[1]) * (m2 - twoE * I[0]) / (I[0] * I[1] * I[2]));
    kc2 = (I[2] - I[0]) * m2Minus2EI2 / ((I[2] - I[1]) * (m2 - twoE * I[0]));
  } else {
    p.lambda = std::sqrt((I[1] - I[0]) * (twoE * I[2] - m2) / (I[0] * I[1] * I[2]));
    kc2 = -(I[2] - I[0]) * m2Minus2EI2 / ((I[1] - I[0]) * (twoE * I[2] - m2));
  }
  p.modulusComplement = std::sqrt(std::max(kc2, 0.0));
  // omega_2 ~ sn(tau) (or cn): it changes sign every 2K of tau.
  if (p.lambda > 0.0 && p.modulusComplement > 0.0 && p.modulusComplement < 1.0) {
    p.halfPeriod = 2.0 * ellipticK(p.modulusComplement) / p.lambda;
  }
  return p;
}

Vec3 perturbedSpin(int axis, double omega0, double epsilon) {
  static constexpr int kNext[3] = {1, 2, 1};
  const int k = std::clamp(axis, 0, 2);
  Vec3 w = Vec3::Zero();
  w[k] = omega0;
  w[kNext[k]] += epsilon * omega0;
  return w;
}

double smallPerturbationHalfPeriod(const Vec3& I, double omega0, double epsilon) {
  if (!(I[0] > 0.0) || !(I[1] > I[0]) || !(I[2] > I[1]) || !(std::abs(omega0) > 0.0) || !(epsilon != 0.0)) {
    return std::numeric_limits<double>::infinity();
  }
  const double sigma = std::abs(omega0) * std::sqrt((I[1] - I[0]) * (I[2] - I[1]) / (I[0] * I[2]));
  const double kc = std::abs(epsilon) * std::sqrt(I[2] * (I[2] - I[0]) / (I[1] * (I[1] - I[0])));
  return 2.0 / sigma * std::log(4.0 / kc);
}

void FlipCounter::add(double time, double omega2) {
  if (haveLast_ && (omega2 < 0.0) != (lastOmega2_ < 0.0) && omega2 != lastOmega2_) {
    times_.push_back(lastTime_ + (time - lastTime_) * lastOmega2_ / (lastOmega2_ - omega2));
  }
  lastTime_ = time;
  lastOmega2_ = omega2;
  haveLast_ = true;
}

void FlipCounter::clear() {
  times_.clear();
  haveLast_ = false;
}

double FlipCounter::meanInterval() const {
  if (times_.size() < 2) return 0.0;
  return (times_.back() - times_.front()) / static_cast<double>(times_.size() - 1);
}

}  // namespace clumplab
