#include "gui/widgets/NiceTicks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace clumplab::gui {

namespace {
// The smallest nice step (1, 2, 5 x 10^k) not below `raw` > 0.
double niceStepAtLeast(double raw) {
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= raw * (1.0 - 1e-12)) return m * power;
  }
  return 10.0 * power;
}
}  // namespace

NiceTicks niceTicks(double lo, double hi, int maxTicks) {
  // Three at least: a range across zero on whole steps has one there besides its ends.
  maxTicks = std::max(3, maxTicks);
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = hi = 0.0;
  if (hi < lo) std::swap(lo, hi);
  if (hi - lo <= 1e-12 * std::max(std::abs(lo), std::abs(hi)) || hi == lo) {
    const double half = lo == 0.0 ? 0.5 : 0.5 * std::pow(10.0, std::floor(std::log10(std::abs(lo))));
    lo -= half;
    hi += half;
  }
  NiceTicks t;
  t.step = niceStepAtLeast((hi - lo) / (maxTicks - 1));
  // Whole steps around the data; a step grows while they would be too many (a few times at most).
  for (int grow = 0; grow < 64; ++grow) {
    t.lower = std::floor(lo / t.step + 1e-9) * t.step;
    t.upper = std::ceil(hi / t.step - 1e-9) * t.step;
    t.count = static_cast<int>(std::lround((t.upper - t.lower) / t.step)) + 1;
    if (t.count <= maxTicks) break;
    t.step = niceStepAtLeast(t.step * 1.5);
  }
  t.format = tickLabelFormat(t.step, std::max(std::abs(t.lower), std::abs(t.upper)));
  return t;
}

ValueAxis valueAxis(double lo, double hi, int maxTicks, double headroom) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = hi = 0.0;
  if (hi < lo) std::swap(lo, hi);
  ValueAxis a;
  const NiceTicks whole = niceTicks(lo, hi, maxTicks);
  if (hi - lo <= 1e-12 * std::max(std::abs(lo), std::abs(hi)) || hi == lo) {
    // One value: niceTicks put it amid a unit of its magnitude, away from both ends.
    a.lower = whole.lower;
    a.upper = whole.upper;
  } else {
    const double pad = std::max(headroom, 0.0) * (hi - lo);
    a.lower = lo - pad;
    a.upper = hi + pad;
  }
  // The step of whole steps around the range, smaller while fewer than two ticks fall inside it.
  double step = niceTicks(a.lower, a.upper, maxTicks).step;
  const auto inside = [&](double s) {
    return std::floor(a.upper / s + 1e-9) - std::ceil(a.lower / s - 1e-9) + 1.0;
  };
  for (int k = 0; k < 8 && inside(step) < 2.0; ++k) {
    const double power = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    const double mantissa = std::round(step / power);
    step = mantissa >= 5.0 ? 2.0 * power : mantissa >= 2.0 ? power : 0.5 * power;
  }
  a.step = step;
  a.anchor = std::ceil(a.lower / step - 1e-9) * step;
  a.format = tickLabelFormat(step, std::max(std::abs(a.lower), std::abs(a.upper)));
  return a;
}

std::string tickLabelFormat(double step, double magnitude) {
  if (!(step > 0.0) || !std::isfinite(step)) return "%.3g";
  const int stepExponent = static_cast<int>(std::floor(std::log10(step) + 1e-9));
  if (magnitude < 1e5 && step >= 1e-3) return "%." + std::to_string(std::max(0, -stepExponent)) + "f";
  const int exponent =
      magnitude > 0.0 ? static_cast<int>(std::floor(std::log10(magnitude) + 1e-9)) : stepExponent;
  return "%." + std::to_string(std::max(0, exponent - stepExponent)) + "e";
}

std::string tickLabel(double value, const std::string& format) {
  char text[64];
  std::snprintf(text, sizeof text, format.c_str(), value);
  std::string s(text);
  if (s == "-0" || s.rfind("-0.", 0) == 0) {  // "-0.00": a tick at zero
    bool zero = true;
    for (char c : s.substr(1)) zero &= c == '0' || c == '.';
    if (zero) s.erase(0, 1);
  }
  return s;
}

}  // namespace clumplab::gui
