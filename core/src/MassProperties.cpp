#include "core/MassProperties.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace clumplab {

PrincipalFrame principalFrame(const Mat3& inertiaTensor) {
  // Seed 000 eq. 23: I e_i = lambda e_i. The self-adjoint solver returns ascending eigenvalues.
  const Mat3 symmetric = 0.5 * (inertiaTensor + inertiaTensor.transpose());
  Eigen::SelfAdjointEigenSolver<Mat3> solver(symmetric);
  if (solver.info() != Eigen::Success) {
    throw std::runtime_error("inertia tensor: eigen-decomposition failed");
  }
  PrincipalFrame frame;
  frame.moments = solver.eigenvalues();
  frame.axes = solver.eigenvectors();
  // Make the basis right-handed (seed 000 §2.3): flip e3 if det = -1. A quaternion built from a
  // reflection would silently be wrong, a real bug in two peers (DESIGN.md).
  if (frame.axes.determinant() < 0.0) frame.axes.col(2) = -frame.axes.col(2);
  // Deterministic signs: the largest component of e1 and e2 positive, e3 = e1 x e2.
  for (int c = 0; c < 2; ++c) {
    Eigen::Index k = 0;
    frame.axes.col(c).cwiseAbs().maxCoeff(&k);
    if (frame.axes(k, c) < 0.0) frame.axes.col(c) = -frame.axes.col(c);
  }
  frame.axes.col(2) = frame.axes.col(0).cross(frame.axes.col(1));
  return frame;
}

void pebbleBounds(std::span<const Pebble> pebbles, Vec3& lower, Vec3& upper) {
  lower = Vec3::Constant(std::numeric_limits<double>::infinity());
  upper = -lower;
  for (const Pebble& p : pebbles) {
    lower = lower.cwiseMin(p.center - Vec3::Constant(p.radius));
    upper = upper.cwiseMax(p.center + Vec3::Constant(p.radius));
  }
}

namespace {

// Point-mass tensor m (|x|^2 1 - x x^T) (seed 000 eq. 5 and 10 without the sphere term).
Mat3 pointInertia(double mass, const Vec3& x) {
  return mass * (x.squaredNorm() * Mat3::Identity() - x * x.transpose());
}

bool insideUnion(std::span<const Pebble> pebbles, const Vec3& x) {
  for (const Pebble& p : pebbles) {
    if ((x - p.center).squaredNorm() <= p.radius * p.radius) return true;
  }
  return false;
}

// Accumulates first and second moments of sample points, then shifts to the centre of mass.
struct MomentSums {
  double count = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();  // sum of (|x|^2 1 - x x^T)
  void add(const Vec3& x) {
    count += 1.0;
    first += x;
    second += pointInertia(1.0, x);
  }
  // cellVolume: volume represented by one sample.
  MassProperties finish(double cellVolume, double density) const {
    MassProperties m;
    m.volume = count * cellVolume;
    m.mass = density * m.volume;
    if (count == 0.0) return m;
    m.centerOfMass = first / count;
    // Seed 001 eq. 31: I = I' - m (|x|^2 1 - x x^T) (parallel-axis shift to the centre of mass).
    m.inertiaTensor = density * cellVolume * second - pointInertia(m.mass, m.centerOfMass);
    return m;
  }
};

}  // namespace

MassProperties massFromPebbles(std::span<const Pebble> pebbles, std::span<const double> densities) {
  if (densities.size() != pebbles.size()) {
    throw std::invalid_argument("massFromPebbles: one density per pebble expected");
  }
  MassProperties m;
  for (std::size_t j = 0; j < pebbles.size(); ++j) {
    const double r = pebbles[j].radius;
    const double volume = 4.0 / 3.0 * std::numbers::pi * r * r * r;  // seed 000 eq. 1
    m.volume += volume;
    m.mass += densities[j] * volume;
    m.centerOfMass += densities[j] * volume * pebbles[j].center;  // eq. 2
  }
  if (m.mass <= 0.0) return m;
  m.centerOfMass /= m.mass;
  for (std::size_t j = 0; j < pebbles.size(); ++j) {
    const double r = pebbles[j].radius;
    const double mj = densities[j] * 4.0 / 3.0 * std::numbers::pi * r * r * r;
    const Vec3 x = pebbles[j].center - m.centerOfMass;  // eq. 3
    // Eq. 5: sphere about its own centre (2/5 m r^2) plus Steiner's term.
    m.inertiaTensor += 0.4 * mj * r * r * Mat3::Identity() + pointInertia(mj, x);
  }
  return m;
}

MassProperties massFromVoxels(std::span<const Pebble> pebbles, double density, int voxelsPerSide) {
  if (voxelsPerSide < 1) throw std::invalid_argument("voxels per side must be >= 1");
  Vec3 lower, upper;
  pebbleBounds(pebbles, lower, upper);
  // Seed 000 §2.2.2: the bounding box expanded to the smallest enclosing cube of side N d.
  const double side = (upper - lower).maxCoeff();
  const double d = side / voxelsPerSide;
  const Vec3 origin = 0.5 * (lower + upper) - Vec3::Constant(0.5 * side);
  MomentSums sums;
  for (int k = 0; k < voxelsPerSide; ++k) {
    for (int n = 0; n < voxelsPerSide; ++n) {
      for (int m = 0; m < voxelsPerSide; ++m) {
        // Voxel centre x(m, n, k) = x_b + d (m + 0.5, n + 0.5, k + 0.5).
        const Vec3 x = origin + d * Vec3(m + 0.5, n + 0.5, k + 0.5);
        if (insideUnion(pebbles, x)) sums.add(x);  // mask M(m, n, k)
      }
    }
  }
  return sums.finish(d * d * d, density);  // eq. 6-10
}

namespace {
double radicalInverse(std::int64_t index, int base) {
  double result = 0.0;
  double f = 1.0 / base;
  while (index > 0) {
    result += f * static_cast<double>(index % base);
    index /= base;
    f /= base;
  }
  return result;
}
}  // namespace

MassProperties massFromMonteCarlo(std::span<const Pebble> pebbles, double density, std::int64_t samples,
                                  bool lowDiscrepancy) {
  if (samples < 1) throw std::invalid_argument("Monte Carlo samples must be >= 1");
  Vec3 lower, upper;
  pebbleBounds(pebbles, lower, upper);  // eq. 25-27
  const Vec3 extent = upper - lower;
  const double boxVolume = extent.prod();
  MomentSums sums;
  for (std::int64_t k = 1; k <= samples; ++k) {
    Vec3 u;
    if (lowDiscrepancy) {
      u = Vec3(radicalInverse(k, 2), radicalInverse(k, 3), radicalInverse(k, 5));
    } else {
      for (int a = 0; a < 3; ++a) {
        // Eq. 30: zeta_k = 1e6 sin(k) - floor(1e6 sin(k)), used as zeta_{3k + alpha - 1} (eq. 29).
        const double s = 1e6 * std::sin(static_cast<double>(3 * k + a));
        u[a] = s - std::floor(s);
      }
    }
    const Vec3 x = lower + u.cwiseProduct(extent);
    if (insideUnion(pebbles, x)) sums.add(x);
  }
  MassProperties m = sums.finish(boxVolume / static_cast<double>(samples), density);
  // Binomial standard error of the hit fraction, relative to the volume.
  const double p = sums.count / static_cast<double>(samples);
  m.statisticalError = p > 0.0 ? std::sqrt(p * (1.0 - p) / static_cast<double>(samples)) / p : 1.0;
  return m;
}

}  // namespace clumplab
