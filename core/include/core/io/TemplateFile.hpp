#pragma once
// Clump template files ("clumplab-template/1", see docs/formats.md).
#include <string>

#include "core/clump/ClumpTemplate.hpp"
#include "core/clump/MeshTemplate.hpp"

namespace clumplab {

// Reads a template file; pebbles are in the body (principal) frame.
ClumpTemplate loadTemplateFile(const std::string& path);
ClumpTemplate parseTemplateFile(const std::string& text, const std::string& file);

// The metrics object of a template file (docs/formats.md), as compact JSON text.
std::string metricsToJson(const ClumpMetrics& metrics);

// Writes the template as JSON text (pretty-printed), with its "source" when it has one.
std::string templateToJson(const ClumpTemplate& t);

// Writes templateToJson(t) to `path` atomically (a temporary file renamed over it: readers see the
// old file or the new one). Throws InputError naming `path`.
void saveTemplateFile(const ClumpTemplate& t, const std::string& path);

// A mesh template request in its written form: the JSON object of a scene's mesh or built-in
// shape template (docs/formats.md: "mesh" or "shape" and "size", "scale", "density", "inertia",
// "fill", "repair", "voxels" or "voxel_budget", "samples", "sequence"), compact. "mesh" is written
// as the request names it.
std::string meshTemplateRequestToJson(const MeshTemplateRequest& request);

}  // namespace clumplab
