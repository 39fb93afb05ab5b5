#pragma once
// Reading meshes (Assimp: STL binary and ASCII, OBJ, PLY and whatever else it reads) and making
// them fit for mass properties and filling: welded, degenerate triangles dropped, every edge shared
// by exactly two triangles, shells oriented outwards (cavities inwards), small holes closed on
// request. Bad input is an InputError naming the file and the problem.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/base/ResourceLimits.hpp"
#include "core/clump/TriangleMesh.hpp"

namespace clumplab::shapes {

struct MeshOptions {
  double scale = 1.0;   // multiplies every coordinate (STL has no units: 0.001 for mm)
  bool repair = false;  // close holes instead of refusing an open mesh
  std::size_t maxTriangles = resourceLimits().maxTriangles;  // refuse larger meshes before reading them
  double maxCoordinate = 1e9;  // [m] after scaling; larger is taken as a unit mistake
};

struct MeshHole {
  std::size_t edges = 0;
  double perimeter = 0.0;      // [m]
  Vec3 center = Vec3::Zero();  // mean of the hole's corners [m]
};

struct MeshReport {
  std::string file;
  std::string format;  // "binary STL", "ASCII STL", or the file's extension
  std::size_t trianglesRead = 0;
  std::size_t triangles = 0;                        // after the clean-up
  std::size_t vertices = 0;                         // after welding
  std::size_t verticesMergedNearby = 0;             // with repair: welded within 1e-6 of the diagonal
  std::size_t degenerateDropped = 0;                // zero-area triangles
  std::size_t duplicatesDropped = 0;                // the same triangle twice
  std::size_t shells = 0;                           // connected pieces of surface
  std::size_t trianglesReoriented = 0;              // turned to agree with the rest of their shell
  std::size_t shellsInverted = 0;                   // whole shells that were inside out
  std::vector<MeshHole> holesClosed;                // with repair
  Vec3 lower = Vec3::Zero(), upper = Vec3::Zero();  // bounding box [m]
  double volume = 0.0;                              // [m^3]
  double area = 0.0;                                // [m^2]
  std::vector<std::string> warnings;                // one sentence each
};

struct PreparedMesh {
  std::shared_ptr<const TriangleMesh> mesh;
  MeshReport report;
};

// Reads, scales, checks and repairs. Throws InputError(path, "", problem).
PreparedMesh importMesh(const std::string& path, const MeshOptions& options = {});

// The triangles of a mesh file as they are (no welding, checks or repairs: open surfaces, such as
// walls, are fine), and its format ("binary STL", "ASCII STL", or the extension) in `format`.
// Throws InputError(path, "", problem) for a missing, empty or unreadable file.
TriangleMesh readMeshTriangles(const std::string& path, std::size_t maxTriangles = 20'000'000,
                               std::string* format = nullptr);

// The checks and repairs alone, on triangles already in memory (`name` is used in messages).
PreparedMesh prepareMesh(const TriangleMesh& soup, const std::string& name, const MeshOptions& options = {});

}  // namespace clumplab::shapes
