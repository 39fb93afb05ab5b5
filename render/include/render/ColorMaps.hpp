#pragma once
// Colours: a palette of distinct, calm body colours, a perceptual colour map for scalars, and the
// colours of the overlays that widgets name too (axes, vectors).
#include <QColor>
#include <cstdint>

namespace clumplab::render {

// Body colours from OKLCH at even perceptual lightness and moderate chroma, hues a golden angle
// apart, so neighbours in index differ clearly and none shouts.
QColor paletteColor(std::uint32_t index);

// A viridis-like perceptual map of t in [0, 1] (clamped): dark blue-violet to yellow.
QColor viridis(double t);

// The colour of a magnitude (speed, |ω|) at `fraction` of the scale's top, in [0, 1]: viridis
// without its darkest eighth, where bodies would vanish against the dark background.
QColor magnitudeColor(double fraction);

// Principal axis 0, 1, 2 (named 1, 2, 3): red, green, blue, as the body axes are drawn.
QColor principalAxisColor(int axis);
// The arrows of angular velocity and angular momentum.
QColor angularVelocityColor();
QColor angularMomentumColor();

}  // namespace clumplab::render
