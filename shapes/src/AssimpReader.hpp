#pragma once
// The triangles of a mesh file through Assimp (every format but STL, which MeshImport.cpp reads
// itself; private to shapes). Failures are InputErrors in ClumpLab's words, naming the file.
#include <cstddef>
#include <string>
#include <vector>

#include "core/clump/TriangleMesh.hpp"

namespace clumplab::shapes::detail {

// Reads `path` (`format`: its extension without the dot, for messages). A file with points or
// lines but no faces, one with no mesh at all, one no reader knows and one a reader cannot parse
// each get one sentence; a reader's own detail is quoted on the same line.
TriangleMesh readAssimpTriangles(const std::string& path, const std::string& format,
                                 std::size_t maxTriangles);

// The same in a child process (ChildProcess.hpp): Assimp aborts or faults on some files (a 3MF of
// Cura's, OpenGEX and RAW files of its own test models), and a crash there must cost the user one
// message naming the file, not the app and its unsaved scene.
TriangleMesh readAssimpTrianglesIsolated(const std::string& path, const std::string& format,
                                         std::size_t maxTriangles);

// The extensions Assimp's importers claim (lower case, without the dot).
std::vector<std::string> assimpExtensions();

}  // namespace clumplab::shapes::detail
