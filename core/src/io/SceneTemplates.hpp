#pragma once
// Reading the "templates" of a scene file (private to core): pebbles with a density, given inertia,
// template files and MercuryDPM folders, meshes and built-in shapes through the mesh builder, and
// the principal form that saved scenes write.
#include <string>

#include "JsonReader.hpp"
#include "core/scene/Scene.hpp"

namespace clumplab::scene_detail {

// `relative` resolved against the folder of `sceneFile` (absolute paths stay as they are).
std::string resolvePath(const std::string& sceneFile, const std::string& relative);

// The template named `name`, defined by `node`, and where it came from when that was a mesh or a
// built-in shape; throws InputError naming the JSON path.
TemplatePtr readTemplate(const std::string& name, const json_reader::Node& node,
                         const SceneLoadOptions& options, TemplateSource& source);

// The request a mesh or built-in shape template (scene form) makes, checked, without building it;
// relative mesh paths resolve against the node's file. Throws InputError naming the JSON path.
MeshTemplateRequest readMeshTemplateRequest(const std::string& name, const json_reader::Node& node,
                                            const std::string& method);

// A template's "source" (saved scenes, template files): a mesh or built-in shape template with its
// keys checked, as a request.
MeshTemplateRequest readMeshSource(const std::string& name, const json_reader::Node& node);

}  // namespace clumplab::scene_detail
