#pragma once
// Mesh walls in scene files (private to core): reading {"type": "mesh", ...} entries of "walls"
// and writing them back, and the "blocked" key of bodies.
//   {"type": "mesh", "file": "drum.stl", "scale": 0.001, "position": [..], "orientation": [w, x, y, z],
//    "motion": {"type": "velocity", "linear": [..], "angular": [..], "center": [..]}
//            | {"type": "interpolated", "times": [..], "positions": [[..], ..], "orientations": [[..], ..]}}
// "file" resolves against the scene file's folder; "scale" (default 1) multiplies its coordinates;
// "position" and "orientation" place the wall's frame at time 0 (defaults: origin, identity); a
// velocity motion's "center" defaults to "position". An interpolated motion gives the frame's pose
// itself, so "position" and "orientation" may not be given with it.
#include <cstdint>
#include <string>

#include "JsonReader.hpp"
#include "JsonWriter.hpp"
#include "core/scene/Scene.hpp"

namespace clumplab::scene_detail {

// Reads a mesh wall; throws InputError naming the JSON path (the mesh file's own errors name it).
Wall readMeshWall(const json_reader::Node& node, const WallMeshReader& reader);

// The wall's entry as written, its file relative to `targetFolder` when it can be.
json_writer::OrderedJson meshWallJson(const Wall& wall, const std::string& targetFolder);

// A body's "blocked" (BlockedDofs.hpp): the mask, checked; 0 without the key.
std::uint8_t readBlocked(const json_reader::Node& body, IntegratorKind integrator);

}  // namespace clumplab::scene_detail
