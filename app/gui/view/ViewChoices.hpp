#pragma once
// What to draw, by name: the command line's --view and --coloring and the lessons' "view" use the
// same words (pebbles, wireframe, mesh, axes, velocity, omega, L, trails, contacts, stereo; body, speed,
// omega).
#include <QString>
#include <QStringList>

#include "render/ViewOptions.hpp"

namespace clumplab::gui {

// The names setViewItems() knows.
const QStringList& viewItemNames();

// Draws exactly the named items (the others off); "" or the first unknown name (case-insensitive).
QString setViewItems(render::ViewOptions& options, const QStringList& items);

// "body", "speed" or "omega"; false for another word.
bool setColoring(render::ViewOptions& options, const QString& name);

}  // namespace clumplab::gui
