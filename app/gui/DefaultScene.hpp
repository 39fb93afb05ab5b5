#pragma once
// The scene ClumpLab opens with: T-handles, wing nuts and dumbbells poured into a box, piling up
// (resources/scenes/default.json, embedded in the executable).
#include <memory>
#include <optional>

#include "core/Scene.hpp"

namespace clumplab::gui {

// The embedded file's resource path.
inline constexpr const char* kDefaultScenePath = ":/scenes/default.json";

// Throws (with the resource path in the message) if the embedded file cannot be read or parsed.
// With `spheres`, every clump as its bounding or volume-equivalent sphere.
std::shared_ptr<const Scene> defaultScene(std::optional<SphereKind> spheres = {});

}  // namespace clumplab::gui
