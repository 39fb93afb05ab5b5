#include "core/clump/MassProperties.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "core/base/ThreadPool.hpp"

namespace clumplab {

PrincipalFrame principalFrame(const Mat3& inertiaTensor) {
  // MercuryDPM rigid clumps, eq. 23: I e_i = lambda e_i. The self-adjoint solver returns ascending
  // eigenvalues.
  const Mat3 symmetric = 0.5 * (inertiaTensor + inertiaTensor.transpose());
  Eigen::SelfAdjointEigenSolver<Mat3> solver(symmetric);
  if (solver.info() != Eigen::Success) {
    throw std::runtime_error("inertia tensor: eigen-decomposition failed");
  }
  PrincipalFrame frame;
  frame.moments = solver.eigenvalues();
  frame.axes = solver.eigenvectors();
  // Make the basis right-handed (MercuryDPM rigid clumps, §2.3): flip e3 if det = -1. A quaternion built from
  // a reflection would silently be wrong, a real bug in two peers (a lesson of the codebases we learnt from).
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

// Point-mass tensor m (|x|^2 1 - x x^T) (MercuryDPM rigid clumps, eq. 5 and 10 without the sphere term).
Mat3 pointInertia(double mass, const Vec3& x) {
  return mass * (x.squaredNorm() * Mat3::Identity() - x * x.transpose());
}

// Sums over sample points of 1, x and x x^T, in coordinates relative to a reference point (the
// centre of the sampled box, so that the sums lose no digits to a far-away origin).
struct MomentSums {
  double count = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();  // sum of x x^T

  void add(const Vec3& x) {
    count += 1.0;
    first += x;
    second += x * x.transpose();
  }
  // A row of points (x_i, y, z) with sum_i x_i = sx and sum_i x_i^2 = sxx.
  void addRow(double n, double sx, double sxx, double y, double z) {
    count += n;
    first += Vec3(sx, n * y, n * z);
    second(0, 0) += sxx;
    second(1, 1) += n * y * y;
    second(2, 2) += n * z * z;
    second(0, 1) += y * sx;
    second(0, 2) += z * sx;
    second(1, 2) += n * y * z;
    second(1, 0) = second(0, 1);
    second(2, 0) = second(0, 2);
    second(2, 1) = second(1, 2);
  }
  void add(const MomentSums& o) {
    count += o.count;
    first += o.first;
    second += o.second;
  }
  // cellVolume: the volume one sample stands for; reference: where the coordinates are relative to.
  MassProperties finish(double cellVolume, double density, const Vec3& reference) const {
    MassProperties m;
    m.volume = count * cellVolume;
    m.mass = density * m.volume;
    if (count == 0.0) return m;
    const Vec3 c = first / count;
    m.centerOfMass = reference + c;
    // MercuryDPM rigid clumps, eq. 10 summed: rho d^3 sum (|x|^2 1 - x x^T) = rho d^3 (trace(S) 1 - S).
    const Mat3 aboutReference = density * cellVolume * (second.trace() * Mat3::Identity() - second);
    // Mutze, Polyspherical grains, eq. 31: I = I' - m (|x|^2 1 - x x^T) (parallel-axis shift to the centre of
    // mass).
    m.inertiaTensor = aboutReference - pointInertia(m.mass, c);
    return m;
  }
};

// The whole number of voxel centres x0 + d (m + 1/2), m in [0, n), inside [a, b], and the sums of
// their offsets x - x0 and squared offsets, in closed form.
void voxelRow(double a, double b, double x0, double d, int n, double& count, double& sx, double& sxx) {
  const double lo = std::max(0.0, std::ceil((a - x0) / d - 0.5));
  const double hi = std::min(static_cast<double>(n - 1), std::floor((b - x0) / d - 0.5));
  if (hi < lo) return;
  const double k = hi - lo + 1.0;
  // u = m + 1/2: sum u = k (lo + hi + 1) / 2, sum u^2 = sum m^2 + sum m + k / 4.
  const auto sumSquares = [](double m) { return m * (m + 1.0) * (2.0 * m + 1.0) / 6.0; };
  const double sumM = 0.5 * k * (lo + hi);
  const double sumU = sumM + 0.5 * k;
  const double sumU2 = sumSquares(hi) - sumSquares(lo - 1.0) + sumM + 0.25 * k;
  count += k;
  sx += k * x0 + d * sumU;
  sxx += k * x0 * x0 + 2.0 * x0 * d * sumU + d * d * sumU2;
}

}  // namespace

void requireSpherePebbles(std::span<const Pebble> pebbles) {
  for (const Pebble& p : pebbles) {
    if (!p.isSphere()) {
      throw std::invalid_argument(
          "a clump with spherocylinder pebbles has no pebble-sum or pebble-union inertia: make a "
          "spherocylinder with a {\"shape\": \"spherocylinder\"} template");
    }
  }
}

MassProperties massFromPebbles(std::span<const Pebble> pebbles, std::span<const double> densities) {
  requireSpherePebbles(pebbles);
  if (densities.size() != pebbles.size()) {
    throw std::invalid_argument("massFromPebbles: one density per pebble expected");
  }
  MassProperties m;
  for (std::size_t j = 0; j < pebbles.size(); ++j) {
    const double r = pebbles[j].radius;
    const double volume = 4.0 / 3.0 * std::numbers::pi * r * r * r;  // MercuryDPM rigid clumps, eq. 1
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

namespace {
// Eq. 6-10 on the cube's grid shifted by `shift` voxels (0 for the grid of the seed).
MassProperties voxelSum(const Solid& solid, double density, int voxelsPerSide, double shift,
                        const WorkProgress& progress) {
  if (voxelsPerSide < 1) throw std::invalid_argument("voxels per side must be >= 1");
  Vec3 lower, upper;
  solid.bounds(lower, upper);
  // MercuryDPM rigid clumps, §2.2.2: the bounding box expanded to the smallest enclosing cube of side N d,
  // with coordinates relative to its centre.
  const Vec3 centre = 0.5 * (lower + upper);
  const double side = (upper - lower).maxCoeff();
  const int n = voxelsPerSide;
  const double d = side / n;
  const double x0 = -0.5 * side + shift * d;  // the cube's lower corner, relative to `centre`
  // One chunk per layer k of voxels; each layer's sums are reduced in order (deterministic). Layers
  // run in batches so that progress is reported from this thread between them.
  std::vector<MomentSums> layers(static_cast<std::size_t>(n));
  ThreadPool pool(ThreadPool::machineThreads());
  const std::size_t batch = static_cast<std::size_t>(std::max(8, 2 * pool.threads()));
  for (std::size_t first = 0; first < layers.size(); first += batch) {
    const std::size_t layersNow = std::min(batch, layers.size() - first);
    pool.run(layersNow, [&](std::size_t chunk) {
      const std::size_t k = first + chunk;
      std::vector<Span> spans;
      MomentSums& sums = layers[k];
      const double z = x0 + d * (static_cast<double>(k) + 0.5);
      for (int row = 0; row < n && !progress.cancelled(); ++row) {
        const double y = x0 + d * (row + 0.5);
        solid.spansAlongX(centre.y() + y, centre.z() + z, spans);
        double count = 0.0, sx = 0.0, sxx = 0.0;
        for (const Span& s : spans)
          voxelRow(s.begin - centre.x(), s.end - centre.x(), x0, d, n, count, sx, sxx);
        if (count > 0.0) sums.addRow(count, sx, sxx, y, z);  // mask M(m, n, k) summed along the row
      }
    });
    progress.report(static_cast<double>(first + layersNow) / static_cast<double>(layers.size()), "voxels");
  }
  MomentSums total;
  for (const MomentSums& layer : layers) total.add(layer);
  MassProperties m = total.finish(d * d * d, density, centre);  // eq. 6-10
  m.voxelsPerSide = n;
  return m;
}
}  // namespace

MassProperties massFromVoxels(const Solid& solid, double density, int voxelsPerSide,
                              const WorkProgress& progress) {
  return voxelSum(solid, density, voxelsPerSide, 0.0, progress);
}

MassProperties massFromVoxels(std::span<const Pebble> pebbles, double density, int voxelsPerSide) {
  return massFromVoxels(PebbleUnion(pebbles), density, voxelsPerSide);
}

MassProperties massFromVoxelsWithinBudget(const Solid& solid, double density, double relativeBudget,
                                          int maxVoxelsPerSide, const WorkProgress& progress) {
  if (!(relativeBudget > 0.0)) throw std::invalid_argument("the voxel error budget must be positive");
  Vec3 lower, upper;
  solid.bounds(lower, upper);
  const double size = (upper - lower).norm();
  // The error of N is estimated from two grids of that N, one shifted by a fraction of a voxel
  // (a face that happens to lie on the grid makes successive N agree while both are wrong), and
  // from the change since N / 2.
  const auto difference = [&](const MassProperties& a, const MassProperties& b, MassProperties& into) {
    into.volumeError = std::max(into.volumeError, std::abs(a.volume - b.volume));
    into.centerOfMassError = into.centerOfMassError.cwiseMax((a.centerOfMass - b.centerOfMass).cwiseAbs());
    into.inertiaTensorError =
        into.inertiaTensorError.cwiseMax((a.inertiaTensor - b.inertiaTensor).cwiseAbs());
  };
  // Progress: the cost grows ~N^2 a level (rows of spans), so level N's two grids get the share
  // N^2 / (sum over the levels up to the largest), the levels not taken are skipped at the end.
  double totalCost = 0.0;
  for (int n = 32; n <= maxVoxelsPerSide; n *= 2) totalCost += 2.0 * n * n;
  double done = 0.0;
  const auto level = [&](int n, double shift) {
    const double share = static_cast<double>(n) * n / totalCost;
    MassProperties m = voxelSum(solid, density, n, shift, progress.part(done, std::min(1.0, done + share)));
    done = std::min(1.0, done + share);
    return m;
  };
  MassProperties previous = voxelSum(solid, density, 16, 0.0, {nullptr, progress.cancel});
  MassProperties result;
  for (int n = 32; n <= maxVoxelsPerSide; n *= 2) {
    result = level(n, 0.0);
    difference(result, previous, result);
    difference(result, level(n, 0.382), result);
    const double change =
        std::max({result.volumeError / result.volume, result.centerOfMassError.norm() / size,
                  result.inertiaTensorError.norm() / result.inertiaTensor.norm()});
    if (change < relativeBudget) break;
    previous = result;
  }
  progress.report(1.0, "voxels");
  return result;
}

MassProperties massFromMonteCarlo(const Solid& solid, double density, std::int64_t samples,
                                  bool lowDiscrepancy, const WorkProgress& progress) {
  constexpr std::int64_t kBatches = 32;
  if (samples < kBatches) throw std::invalid_argument("Monte Carlo needs at least 32 samples");
  Vec3 lower, upper;
  solid.bounds(lower, upper);  // eq. 25-27
  const Vec3 extent = upper - lower;
  const Vec3 centre = 0.5 * (lower + upper);
  const double boxVolume = extent.prod();
  std::vector<MomentSums> batches(kBatches);
  std::vector<std::int64_t> batchSize(kBatches);
  ThreadPool pool(ThreadPool::machineThreads());
  // Batches run a group at a time so that progress is reported from this thread between groups.
  const std::size_t group = static_cast<std::size_t>(std::max(4, pool.threads()));
  for (std::size_t begin = 0; begin < batches.size(); begin += group) {
    const std::size_t count = std::min(group, batches.size() - begin);
    pool.run(count, [&](std::size_t chunk) {
      const std::size_t b = begin + chunk;
      const std::int64_t first = 1 + static_cast<std::int64_t>(b) * samples / kBatches;
      const std::int64_t last = static_cast<std::int64_t>(b + 1) * samples / kBatches;  // inclusive
      batchSize[b] = last - first + 1;
      for (std::int64_t k = first; k <= last; ++k) {
        if ((k & 4095) == 0 && progress.cancelled()) return;
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
        if (solid.contains(x)) batches[b].add(x - centre);  // chi_S(p_k), eq. 31
      }
    });
    progress.report(static_cast<double>(begin + count) / static_cast<double>(batches.size()), "Monte Carlo");
  }
  MomentSums total;
  for (const MomentSums& batch : batches) total.add(batch);
  MassProperties m = total.finish(boxVolume / static_cast<double>(samples), density, centre);
  m.samples = samples;
  // Standard errors from the scatter of the batch estimates: s / sqrt(B).
  double volume2 = 0.0;
  Vec3 centre2 = Vec3::Zero();
  Mat3 tensor2 = Mat3::Zero();
  for (std::size_t b = 0; b < batches.size(); ++b) {
    const MassProperties e =
        batches[b].finish(boxVolume / static_cast<double>(batchSize[b]), density, centre);
    volume2 += (e.volume - m.volume) * (e.volume - m.volume);
    centre2 += (e.centerOfMass - m.centerOfMass).cwiseAbs2();
    tensor2 += (e.inertiaTensor - m.inertiaTensor).cwiseAbs2();
  }
  const double norm = 1.0 / static_cast<double>(kBatches * (kBatches - 1));
  m.volumeError = std::sqrt(volume2 * norm);
  m.centerOfMassError = (centre2 * norm).cwiseSqrt();
  m.inertiaTensorError = (tensor2 * norm).cwiseSqrt();
  m.statisticalError = m.volume > 0.0 ? m.volumeError / m.volume : 1.0;
  return m;
}

MassProperties massFromMonteCarlo(std::span<const Pebble> pebbles, double density, std::int64_t samples,
                                  bool lowDiscrepancy, const WorkProgress& progress) {
  return massFromMonteCarlo(PebbleUnion(pebbles), density, samples, lowDiscrepancy, progress);
}

}  // namespace clumplab
