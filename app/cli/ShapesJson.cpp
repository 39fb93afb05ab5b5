#include "ShapesJson.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "Commands.hpp"
#include "core/io/PebbleFiles.hpp"

namespace clumplab::cli {

nlohmann::json matrixJson(const Mat3& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (int r = 0; r < 3; ++r) rows.push_back({m(r, 0), m(r, 1), m(r, 2)});
  return rows;
}

nlohmann::json meshReportJson(const shapes::MeshReport& r) {
  nlohmann::json holes = nlohmann::json::array();
  for (const auto& h : r.holesClosed) {
    holes.push_back({{"edges", h.edges}, {"perimeter", h.perimeter}, {"center", vectorJson(h.center)}});
  }
  return {{"file", r.file},
          {"format", r.format},
          {"triangles_read", r.trianglesRead},
          {"triangles", r.triangles},
          {"vertices", r.vertices},
          {"shells", r.shells},
          {"watertight", r.closed},
          {"solid", r.closed ? "exact" : "generalized winding number"},
          {"boundary_edges_as_given", r.boundaryEdgesAsGiven},
          {"boundary_edges", r.boundaryEdges},
          {"non_manifold_edges", r.nonManifoldEdges},
          {"overlapping_shells", r.overlappingShells},
          {"bounding_box", {{"min", vectorJson(r.lower)}, {"max", vectorJson(r.upper)}}},
          {"volume", r.volume},
          {"volume_error", r.volumeError},
          {"voxels", r.voxels},
          {"surface_area", r.area},
          {"vertices_welded_nearby", r.verticesMergedNearby},
          {"degenerate_dropped", r.degenerateDropped},
          {"duplicates_dropped", r.duplicatesDropped},
          {"triangles_reoriented", r.trianglesReoriented},
          {"shells_inverted", r.shellsInverted},
          {"holes_closed", holes},
          {"warnings", r.warnings}};
}

nlohmann::json massPropertiesJson(const MassProperties& m) {
  const PrincipalFrame frame = principalFrame(m.inertiaTensor);
  nlohmann::json out = {{"volume", m.volume},
                        {"mass", m.mass},
                        {"center_of_mass", vectorJson(m.centerOfMass)},
                        {"inertia_tensor", matrixJson(m.inertiaTensor)},
                        {"principal_moments", vectorJson(frame.moments)},
                        {"principal_axes", matrixJson(frame.axes)}};
  if (m.voxelsPerSide > 0) out["voxels"] = m.voxelsPerSide;
  if (m.samples > 0) out["samples"] = m.samples;
  if (m.volumeError > 0.0 || m.samples > 0) {
    out["errors"] = {{"kind", m.samples > 0 ? "1-sigma standard error (32 batches)"
                                            : "change from the previous voxel resolution"},
                     {"volume", m.volumeError},
                     {"center_of_mass", vectorJson(m.centerOfMassError)},
                     {"inertia_tensor", matrixJson(m.inertiaTensorError)}};
  }
  if (m.samples > 0) out["relative_error"] = m.statisticalError;
  return out;
}

Sampling samplingOptions(const Arguments& args) {
  Sampling s;
  if (const auto n = args.integer("--voxels")) {
    if (*n < 4 || *n > 4096) throw UsageError("--voxels must lie in [4, 4096]");
    s.voxels = static_cast<int>(*n);
  }
  if (const auto b = args.number("--voxel-budget")) {
    if (!(*b > 0.0 && *b < 1.0)) throw UsageError("--voxel-budget must lie in (0, 1)");
    if (s.voxels > 0) throw UsageError("give --voxels or --voxel-budget, not both");
    s.budget = *b;
  }
  if (const auto n = args.integer("--samples")) {
    if (*n < 1000) throw UsageError("--samples must be at least 1000");
    s.samples = *n;
  }
  const std::string sequence = args.text("--sequence").value_or("halton");
  if (sequence != "halton" && sequence != "sine") {
    throw UsageError("unknown --sequence \"" + sequence +
                     "\" (use halton, or sine for Mutze, Polyspherical grains, eq. 30)");
  }
  s.halton = sequence == "halton";
  return s;
}

shapes::MeshOptions meshOptions(const Arguments& args) {
  shapes::MeshOptions o;
  o.scale = args.number("--scale").value_or(1.0);
  if (!(o.scale > 0.0)) throw UsageError("--scale must be positive");
  o.repair = args.has("--repair");
  if (const auto n = args.integer("--max-triangles")) {
    if (*n < 1) throw UsageError("--max-triangles must be at least 1");
    o.maxTriangles = static_cast<std::size_t>(*n);
  }
  return o;
}

void printWarnings(const shapes::MeshReport& report) {
  for (const std::string& w : report.warnings) std::cerr << report.file << ": warning: " << w << "\n";
}

bool isMeshFile(const std::string& file) {
  if (isMercuryClumpFolder(file)) return false;
  std::string ext = std::filesystem::path(file).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext != ".json" && ext != ".txt" && ext != ".dat" && ext != ".csv" && ext != ".xyzr";
}

}  // namespace clumplab::cli
