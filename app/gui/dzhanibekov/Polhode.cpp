#include "gui/dzhanibekov/Polhode.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/clump/FreeRotation.hpp"

namespace clumplab::gui {

double rotationalEnergy(const Vec3& moments, const Vec3& omegaBody) {
  return 0.5 * omegaBody.dot(moments.cwiseProduct(omegaBody));
}

double angularMomentumMagnitude(const Vec3& moments, const Vec3& omegaBody) {
  return moments.cwiseProduct(omegaBody).norm();
}

namespace {

// The branches of a polhode circling axis `c` (0 or 2): with o the third axis, the two other
// coordinates run on the ellipse u_j = a_j cos t, u_o = a_o sin t (j: the axis of the cos), and
// u_c = +-sqrt(1 - u_j^2 - u_o^2) on the unit sphere (u = L / M). Eliminating u_c from eq. 37.5
// and 37.6: u_j^2 (1/I_j - 1/I_c) + u_o^2 (1/I_o - 1/I_c) = 1/D - 1/I_c.
std::vector<Curve> branches(const Vec3& inverse, double invD, double momentum, int circled, int samples) {
  const int j = circled == 2 ? 0 : 1;
  const int o = circled == 2 ? 1 : 2;
  const double rhs = invD - inverse[circled];
  const double dj = inverse[j] - inverse[circled];
  const double dOther = inverse[o] - inverse[circled];
  if (!(dj != 0.0) || !(dOther != 0.0)) return {};
  const double aj2 = std::clamp(rhs / dj, 0.0, 1.0);
  const double ao2 = std::clamp(rhs / dOther, 0.0, 1.0);
  const double aj = std::sqrt(aj2), ao = std::sqrt(ao2);
  std::vector<Curve> out(2);
  for (int side = 0; side < 2; ++side) {
    Curve& curve = out[static_cast<std::size_t>(side)];
    curve.reserve(static_cast<std::size_t>(samples));
    for (int n = 0; n < samples; ++n) {
      const double t = 2.0 * std::numbers::pi * n / samples;
      Vec3 u;
      u[j] = aj * std::cos(t);
      u[o] = ao * std::sin(t);
      // 1 - u_j^2 - u_o^2 formed as (1 - aj2 cos^2) - ao2 sin^2, exact zero on the separatrix.
      const double rest = 1.0 - aj2 * std::cos(t) * std::cos(t) - ao2 * std::sin(t) * std::sin(t);
      u[circled] = (side == 0 ? 1.0 : -1.0) * std::sqrt(std::max(0.0, rest));
      curve.push_back(momentum * u);
    }
  }
  return out;
}

}  // namespace

std::vector<Curve> polhode(const Vec3& I, double momentum, double energy, int samples) {
  samples = std::max(samples, 8);
  if (!(I.minCoeff() > 0.0) || !(momentum > 0.0) || !(energy > 0.0)) return {};
  const double d = momentum * momentum / (2.0 * energy);
  const double tolerance = 1e-12 * I[2];
  if (d < I[0] - tolerance || d > I[2] + tolerance) return {};
  const Vec3 inverse = I.cwiseInverse();
  // Circling axis 3 needs I3 > I1 and the side D >= I2 (all of [I1, I3] when I1 = I2).
  const int circled = (d >= I[1] && I[2] > I[1]) || I[0] == I[1] ? 2 : 0;
  return branches(inverse, 1.0 / d, momentum, circled, samples);
}

std::vector<Curve> separatrix(const Vec3& I, double momentum, int samples) {
  if (!(I[0] > 0.0) || !(I[1] > I[0]) || !(I[2] > I[1]) || !(momentum > 0.0)) return {};
  samples = std::max(samples, 8);
  // D = I2 in the axis-3 form: u1 = a cos t, u2 = sin t, u3 = +-a' cos t, a^2 + a'^2 = 1: the
  // branches u3 > 0 and u3 < 0 meet at +-axis 2; recombined as the two planes u3 = +-(a'/a) u1.
  const double a = std::sqrt((1.0 / I[1] - 1.0 / I[2]) / (1.0 / I[0] - 1.0 / I[2]));
  const double b = std::sqrt(std::max(0.0, 1.0 - a * a));
  std::vector<Curve> out(2);
  for (int plane = 0; plane < 2; ++plane) {
    const double sign = plane == 0 ? 1.0 : -1.0;
    Curve& curve = out[static_cast<std::size_t>(plane)];
    for (int n = 0; n < samples; ++n) {
      const double t = 2.0 * std::numbers::pi * n / samples;
      curve.push_back(momentum * Vec3(a * std::cos(t), std::sin(t), sign * b * std::cos(t)));
    }
  }
  return out;
}

std::vector<Curve> polhodeOf(const Vec3& I, const Vec3& w, int samples) {
  return polhode(I, angularMomentumMagnitude(I, w), rotationalEnergy(I, w), samples);
}

double predictedFlipInterval(const Vec3& I, const Vec3& w, int axis) {
  const FlipPrediction p = predictFlips(I, w);
  const int circled = p.circlesLargestAxis ? 2 : 0;
  if (axis == circled || !std::isfinite(p.halfPeriod)) return std::numeric_limits<double>::infinity();
  return p.halfPeriod;
}

}  // namespace clumplab::gui
