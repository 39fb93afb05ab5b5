#pragma once
// The scene ClumpLab opens with: T-handles, wing nuts and dumbbells poured into a box, piling up
// (resources/scenes/default.json, embedded in the executable).
#include <memory>
#include <optional>

#include "core/scene/Scene.hpp"

namespace clumplab::gui {

// The embedded file's resource path.
inline constexpr const char* kDefaultScenePath = ":/scenes/default.json";

// Throws (with the resource path in the message) if the embedded file cannot be read or parsed.
// With `overrides`, PaLa's switches: every clump as a sphere, 2D in a plane or 3D.
std::shared_ptr<const Scene> defaultScene(const SceneOverrides& overrides = {});

}  // namespace clumplab::gui
