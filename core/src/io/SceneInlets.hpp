#pragma once
// The "inlets" key of scene files (private to core): reading it with errors that name the JSON path,
// and writing it back with each inlet's progress, so a saved running world continues its inlets.
#include <map>
#include <string>
#include <vector>

#include "JsonReader.hpp"
#include "JsonWriter.hpp"
#include "core/scene/Scene.hpp"

namespace clumplab::scene_detail {

// Appends the inlets `node` (an array) defines to scene.inlets; `names` maps template keys to
// indices. Needs scene.model.templates and scene.model.settings (the 2D plane) to be read already.
void readInlets(const json_reader::Node& node, const std::map<std::string, std::uint32_t>& names,
                Scene& scene);

// The inlets as the scene file writes them, templates named by `templateKeys` (SceneWriter.hpp).
json_writer::OrderedJson inletsJson(const std::vector<Inlet>& inlets,
                                    const std::vector<std::string>& templateKeys);

}  // namespace clumplab::scene_detail
