#pragma once
// Reading the "templates" of a scene file (private to core): pebbles with a density, given inertia,
// template files and MercuryDPM folders, meshes and built-in shapes through the mesh builder, and
// the principal form that saved scenes write.
#include <string>

#include "JsonReader.hpp"
#include "core/Scene.hpp"

namespace clumplab::scene_detail {

// `relative` resolved against the folder of `sceneFile` (absolute paths stay as they are).
std::string resolvePath(const std::string& sceneFile, const std::string& relative);

// The template named `name`, defined by `node`, and where it came from when that was a mesh or a
// built-in shape; throws InputError naming the JSON path.
TemplatePtr readTemplate(const std::string& name, const json_reader::Node& node,
                         const SceneLoadOptions& options, TemplateSource& source);

}  // namespace clumplab::scene_detail
