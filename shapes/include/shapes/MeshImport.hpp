#pragma once
// Reading meshes (Assimp: STL binary and ASCII, OBJ, PLY, OFF and whatever else it reads) and
// making them fit for mass properties and filling: welded, degenerate triangles dropped, shells
// oriented outwards (cavities inwards), small holes closed on request. A closed 2-manifold mesh is
// a solid exactly; any other surface (holes, non-manifold edges, several or overlapping shells)
// bounds the solid its generalized winding number encloses (MeshSolid.hpp), with warnings that say
// what was done. Bad input, and a surface that bounds no solid, is an InputError naming the file and
// the problem.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/ResourceLimits.hpp"
#include "core/base/WorkProgress.hpp"
#include "core/clump/MassProperties.hpp"
#include "core/clump/TriangleMesh.hpp"
#include "shapes/MeshSolid.hpp"

namespace clumplab::shapes {

struct MeshOptions {
  double scale = 1.0;   // multiplies every coordinate (STL has no units: 0.001 for mm)
  bool repair = false;  // close holes up to the bounding-box diagonal in perimeter with fans
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
  std::size_t triangles = 0;             // after the clean-up
  std::size_t vertices = 0;              // after welding
  std::size_t verticesMergedNearby = 0;  // with repair: welded within 1e-6 of the diagonal
  std::size_t degenerateDropped = 0;     // zero-area triangles
  std::size_t duplicatesDropped = 0;     // the same triangle twice
  std::size_t shells = 0;                // connected pieces of surface
  std::size_t trianglesReoriented = 0;   // turned to agree with the rest of their shell
  std::size_t shellsInverted = 0;        // whole shells that were inside out
  std::vector<MeshHole> holesClosed;     // with repair
  // Edges of only one triangle in the file as given (corners at equal positions joined), and
  // after its seams are welded and, with repair, holes closed; edges of more than two triangles.
  std::size_t boundaryEdgesAsGiven = 0;
  std::size_t boundaryEdges = 0;
  std::size_t nonManifoldEdgesAsGiven = 0;
  std::size_t nonManifoldEdges = 0;
  // A closed 2-manifold whose winding number is 0 or 1 (exact mass properties); false: the solid is
  // where the generalized winding number is at least 1/2 and its mass properties are sampled.
  bool closed = true;
  bool overlappingShells = false;                   // closed shells that overlap: the solid is their union
  int voxels = 0;                                   // sampled mass properties: N of the N^3 grid (0: exact)
  double volumeError = 0.0;                         // sampled: estimated error of the volume [m^3]
  Vec3 lower = Vec3::Zero(), upper = Vec3::Zero();  // bounding box [m]
  double volume = 0.0;                              // [m^3]
  double area = 0.0;                                // [m^2]
  std::vector<std::string> warnings;                // one sentence each
};

struct PreparedMesh {
  std::shared_ptr<const TriangleMesh> mesh;
  MeshReport report;
  std::shared_ptr<const MeshSolid> solid;  // the inside test of the solid the mesh bounds
  // When the mesh is not closed (report.closed false): that solid's mass properties at 1 kg/m^3,
  // sampled (solidMassProperties), which the report's volume is. Empty for a closed mesh, whose
  // mass properties are exact (meshMassProperties).
  std::optional<MassProperties> sampledUnitMass;
};

// The mass properties of the solid a prepared mesh bounds at `density`: exact for a closed mesh
// (meshMassProperties, bit for bit), otherwise the sampled ones scaled (their estimated errors too).
MassProperties preparedMassProperties(const PreparedMesh& prepared, double density);

// Reads, scales, checks and repairs. Throws InputError(path, "", problem): for a file that cannot
// be read as a mesh, one with points or lines but no faces, and a surface that bounds no solid
// (a flat sheet, or its generalized winding number never reaches 1/2). The cancel flag of `progress`
// stops the sampling of a solid that is not closed (OperationCancelled); nothing is reported.
PreparedMesh importMesh(const std::string& path, const MeshOptions& options = {},
                        const WorkProgress& progress = {});

// The triangles of a mesh file as they are (no welding, checks or repairs: open surfaces, such as
// walls, are fine), and its format ("binary STL", "ASCII STL", or the extension) in `format`.
// Throws InputError(path, "", problem) for a missing, empty or unreadable file.
TriangleMesh readMeshTriangles(const std::string& path, std::size_t maxTriangles = 20'000'000,
                               std::string* format = nullptr);

// The extensions (lower case, without the dot, sorted) of the mesh formats importMesh reads: STL
// and every format of the Assimp it was built with.
const std::vector<std::string>& meshFileExtensions();
// Whether `path`'s extension (any case) is one of them.
bool isMeshFileName(const std::string& path);

// The checks and repairs alone, on triangles already in memory (`name` is used in messages).
PreparedMesh prepareMesh(const TriangleMesh& soup, const std::string& name, const MeshOptions& options = {},
                         const WorkProgress& progress = {});

}  // namespace clumplab::shapes
