#include "render/ColorMaps.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace clumplab::render {

namespace {

double toSrgb(double linear) {
  const double c = std::clamp(linear, 0.0, 1.0);
  return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
}

// OKLCH (lightness, chroma, hue) to sRGB, through OKLab and linear sRGB (Ottosson's matrices).
QColor fromOklch(double lightness, double chroma, double hueRad) {
  const double a = chroma * std::cos(hueRad), b = chroma * std::sin(hueRad);
  const double l = std::pow(lightness + 0.3963377774 * a + 0.2158037573 * b, 3.0);
  const double m = std::pow(lightness - 0.1055613458 * a - 0.0638541728 * b, 3.0);
  const double s = std::pow(lightness - 0.0894841775 * a - 1.2914855480 * b, 3.0);
  const double r = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s;
  const double g = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s;
  const double bl = -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s;
  return QColor::fromRgbF(static_cast<float>(toSrgb(r)), static_cast<float>(toSrgb(g)),
                          static_cast<float>(toSrgb(bl)));
}

}  // namespace

QColor paletteColor(std::uint32_t index) {
  constexpr double kGoldenAngle = 2.399963229728653;  // rad, pi (3 - sqrt 5)
  constexpr std::array<double, 3> kLightness = {0.74, 0.66, 0.80};
  constexpr std::array<double, 3> kChroma = {0.115, 0.125, 0.095};
  const double hue = 0.45 + kGoldenAngle * index;  // start at a warm coral
  return fromOklch(kLightness[index % 3], kChroma[index % 3], std::fmod(hue, 2.0 * std::numbers::pi));
}

QColor magnitudeColor(double fraction) {
  return viridis(0.12 + 0.88 * std::clamp(fraction, 0.0, 1.0));
}

QColor viridis(double t) {
  // Eleven evenly spaced samples of the viridis map, interpolated linearly.
  static constexpr std::array<std::array<int, 3>, 11> kStops = {{{0x44, 0x01, 0x54},
                                                                 {0x48, 0x24, 0x75},
                                                                 {0x41, 0x44, 0x87},
                                                                 {0x35, 0x5f, 0x8d},
                                                                 {0x2a, 0x78, 0x8e},
                                                                 {0x21, 0x91, 0x8c},
                                                                 {0x22, 0xa8, 0x84},
                                                                 {0x44, 0xbf, 0x70},
                                                                 {0x7a, 0xd1, 0x51},
                                                                 {0xbd, 0xdf, 0x26},
                                                                 {0xfd, 0xe7, 0x25}}};
  const double x = std::isfinite(t) ? std::clamp(t, 0.0, 1.0) * 10.0 : 0.0;
  const int i = std::min(9, static_cast<int>(x));
  const double f = x - i;
  const auto channel = [&](int c) {
    return static_cast<float>(((1.0 - f) * kStops[i][c] + f * kStops[i + 1][c]) / 255.0);
  };
  return QColor::fromRgbF(channel(0), channel(1), channel(2));
}

QColor principalAxisColor(int axis) {
  static const QColor colors[3] = {QColor(0xff, 0x5f, 0x57), QColor(0x5c, 0xd6, 0x6f),
                                   QColor(0x5b, 0x8d, 0xff)};
  return colors[std::clamp(axis, 0, 2)];
}

QColor angularVelocityColor() {
  return QColor(0xff, 0x9f, 0x3a);
}

QColor angularMomentumColor() {
  return QColor(0xe2, 0x5c, 0xd8);
}

}  // namespace clumplab::render
