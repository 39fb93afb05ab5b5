#pragma once
// JSON of the shapes library's results, shared by the inertia, fill and mesh commands.
#include <nlohmann/json.hpp>
#include <string>

#include "Arguments.hpp"
#include "core/clump/MassProperties.hpp"
#include "shapes/MeshImport.hpp"

namespace clumplab::cli {

nlohmann::json matrixJson(const Mat3& m);
nlohmann::json meshReportJson(const shapes::MeshReport& report);
// volume, mass, centre, tensor, principal moments and axes (docs/formats.md `inertia`), with the
// standard errors of sampled methods when present.
nlohmann::json massPropertiesJson(const MassProperties& m);

// --voxels, --voxel-budget, --samples and --sequence, checked.
struct Sampling {
  int voxels = 0;  // 0: from the budget
  double budget = 1e-3;
  long long samples = 1000000;
  bool halton = true;
};
Sampling samplingOptions(const Arguments& args);

// --scale, --repair and --max-triangles.
shapes::MeshOptions meshOptions(const Arguments& args);
// Mesh warnings, one "FILE: warning: ..." line each on stderr.
void printWarnings(const shapes::MeshReport& report);
// Whether FILE names a mesh (not a template JSON, pebble text or MercuryDPM clump folder).
bool isMeshFile(const std::string& file);

}  // namespace clumplab::cli
