#pragma once
// Clump template files ("clumplab-template/1", see INTERFACES.md).
#include <string>

#include "core/ClumpTemplate.hpp"

namespace clumplab {

// Reads a template file; pebbles are in the body (principal) frame.
ClumpTemplate loadTemplateFile(const std::string& path);
ClumpTemplate parseTemplateFile(const std::string& text, const std::string& file);

// The metrics object of a template file (INTERFACES.md), as compact JSON text.
std::string metricsToJson(const ClumpMetrics& metrics);

// Writes the template as JSON text (pretty-printed).
std::string templateToJson(const ClumpTemplate& t);

}  // namespace clumplab
