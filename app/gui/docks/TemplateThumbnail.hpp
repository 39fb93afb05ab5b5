#pragma once
// A small picture of a clump for lists and menus, drawn on the CPU: its pebbles as shaded discs
// seen along a fixed oblique direction, the far ones first (painter's algorithm), fitted into the
// image. Cheap enough for thousands of pebbles, and needs no OpenGL context.
#include <QColor>
#include <QImage>
#include <QSize>

#include "core/clump/ClumpTemplate.hpp"

namespace clumplab::gui {

// Transparent background; `color` is the pebbles' base colour.
QImage templateThumbnail(const ClumpTemplate& clump, QSize pixels, QColor color);

}  // namespace clumplab::gui
