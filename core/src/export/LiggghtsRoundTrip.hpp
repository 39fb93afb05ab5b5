#pragma once
// What a LIGGGHTS export leaves for `clumplab-cli import` (core/export/EngineImport.hpp): the
// per-body dump commands of the deck, and beside scene.json the manifest that ties LIGGGHTS's clump
// types to the scene's templates (clumplab-liggghts.json, RoundTripFiles.hpp). Private to core's
// export.
#include <filesystem>
#include <string>
#include <vector>

#include "core/export/SceneExport.hpp"

namespace clumplab::exporting {

// The manifest's name in the export folder, and the dumps' names (LIGGGHTS's "*" is the step).
inline constexpr const char* kLiggghtsManifest = "clumplab-liggghts.json";
inline constexpr const char* kLiggghtsBodyDump = "post/bodies_*.txt";
inline constexpr const char* kLiggghtsPebbleDump = "post/pebbles_*.txt";
// The body dump's columns, in order.
inline constexpr const char* kLiggghtsBodyColumns =
    "c_ms_id c_ms_type c_ms_x[1] c_ms_x[2] c_ms_x[3] c_ms_q[1] c_ms_q[2] c_ms_q[3] c_ms_q[4] c_ms_v[1] "
    "c_ms_v[2] c_ms_v[3] c_ms_w[1] c_ms_w[2] c_ms_w[3]";

// The deck's lines that dump every body's id, clump type, centre of mass, quaternion, velocity and
// angular velocity every `every` steps, to 17 significant digits (a double exactly).
std::string liggghtsBodyDumpCommands(long long every);

// Writes scene.json and the manifest (RoundTripFiles.hpp) with, for each LIGGGHTS clump type, the
// scene's key of its template (`typeOf`: per world template, its type, 0 if not exported) and the
// dumps' names.
void writeLiggghtsRoundTripFiles(const Scene& scene, const World& world, const std::filesystem::path& folder,
                                 const ExportRun& run, const std::vector<int>& typeOf, ExportResult& result);

}  // namespace clumplab::exporting
