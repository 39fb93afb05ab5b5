#pragma once
// What every engine export refuses or flags, shared by the LIGGGHTS, Yade and MercuryDPM writers.
#include <filesystem>
#include <fstream>
#include <string>

#include "core/base/Errors.hpp"
#include "core/export/SceneExport.hpp"
#include "core/io/AtomicOutputFile.hpp"

namespace clumplab::exporting {

// Throws InputError naming the scene file and `where` (a JSON path): `engine` cannot express it.
[[noreturn]] inline void refuse(const Scene& scene, const std::string& where, const std::string& engine,
                                const std::string& why) {
  throw InputError(scene.file, where, "cannot be exported to " + engine + ": " + why);
}

// Refuses the scene features no engine export maps (fields, point properties, the 2D plane,
// global damping, the gyroscopic switch, spherocylinder pebbles).
void refuseCommonUnsupported(const Scene& scene, const World& world, const std::string& engine);

// The index of the wall's axis (0, 1, 2) when its normal is along a coordinate axis, else -1.
int axisOf(const Vec3& normal);

// Creates `folder` (and parents); throws std::runtime_error naming it if it cannot.
void makeFolder(const std::filesystem::path& folder);

// Opens a file for writing through a temporary file beside it (AtomicOutputFile: commit() renames it
// into place; an engine never reads half a deck); throws InputError naming it if it cannot.
AtomicOutputFile openOutput(const std::filesystem::path& path);

// A number with 17 significant digits (every double round-trips).
std::string number(double x);

// The three components of `v` as number() writes them, separated by `separator`.
std::string vec(const Vec3& v, const char* separator = " ");

}  // namespace clumplab::exporting
