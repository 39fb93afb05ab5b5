#pragma once
// STL files of triangle meshes: binary (80-byte header, uint32 triangle count, then per triangle
// the unit normal, the three vertices as float32 and a uint16 0, all little-endian) and ASCII.
// Coordinates are written as they are (metres for ClumpLab's meshes; STL itself has no unit).
#include <string>

#include "core/clump/TriangleMesh.hpp"

namespace clumplab::shapes {

enum class StlFormat { Binary, Ascii };

// The binary STL bytes: 84 + 50 n. `header` is cut or zero-padded to 80 bytes (readers that sniff
// the format may take a header that starts with "solid" for ASCII: avoid that).
std::string binaryStl(const TriangleMesh& mesh, const std::string& header);

// The ASCII STL text; `name` (the part after "solid", line breaks replaced by spaces).
std::string asciiStl(const TriangleMesh& mesh, const std::string& name);

// Writes the mesh to `path` atomically: a temporary file in the same folder, renamed over `path`
// once complete (core's writeFileAtomically). Throws InputError naming the path when it cannot.
void writeStl(const TriangleMesh& mesh, const std::string& path, const std::string& header,
              StlFormat format = StlFormat::Binary);

}  // namespace clumplab::shapes
