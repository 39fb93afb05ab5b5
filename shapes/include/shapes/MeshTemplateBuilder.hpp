#pragma once
// Clump templates from meshes (MClump modes 3 and 4, MercuryDPM rigid clumps, §3): the mesh is read and
// checked, its exact mass properties computed, pebbles generated on a regular grid (or taken from another
// tool), the clump's mass properties taken from the chosen method, and the clump measured against
// the mesh. Scene files reach this through core's MeshTemplateBuilder hook.
#include "core/clump/MeshTemplate.hpp"
#include "shapes/ClumpQuality.hpp"
#include "shapes/MeshImport.hpp"
#include "shapes/PebbleFill.hpp"
#include "shapes/SphereFit.hpp"

namespace clumplab::shapes {

struct MeshTemplateResult {
  ClumpTemplate clump;
  MeshReport report;
  FillResult fill;                 // empty when the pebbles came from another tool
  SphereFitResult sphereFit;       // mode spheres: how the spheres were chosen (fill.pebbles are they)
  MassProperties meshProperties;   // exact, of the mesh
  MassProperties clumpProperties;  // of the pebble union, by voxels
};

// The template of a clump made from a mesh: `pebbles` (in the mesh's frame) with `mass` (their mass
// properties by `inertiaMethod`, mesh frame), the metrics against the mesh, and the mesh itself
// carried into the body frame for drawing. `sourceMesh` names it ("gear.stl", "built-in:wingnut").
ClumpTemplate meshClumpTemplate(const std::string& name, const std::vector<Pebble>& pebbles,
                                const MassProperties& mass, const std::string& inertiaMethod, double density,
                                const TriangleMesh& mesh, const std::string& sourceMesh,
                                const ClumpMetrics& metrics);

// Throws InputError (a bad mesh file) or std::invalid_argument (settings that cannot work).
// `progress` (WorkProgress.hpp) is reported after the import, over the fill and over the measures
// against the mesh; a set cancel flag stops the work there (OperationCancelled).
MeshTemplateResult buildMeshTemplate(const MeshTemplateRequest& request, const MeshOptions& meshOptions = {},
                                     const WorkProgress& progress = {});

// The same, as the hook scene loading takes (SceneLoadOptions::meshTemplates).
MeshTemplateBuilder meshTemplateBuilder();

}  // namespace clumplab::shapes
