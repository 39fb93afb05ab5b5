#include "shapes/MeshTemplateBuilder.hpp"

#include <filesystem>
#include <stdexcept>

#include "shapes/BuiltinShapes.hpp"
#include "shapes/MeshMassProperties.hpp"
#include "shapes/SphereFit.hpp"

namespace clumplab::shapes {

MeshTemplateResult buildMeshTemplate(const MeshTemplateRequest& request, const MeshOptions& meshOptions,
                                     const WorkProgress& progress) {
  if (!(request.density > 0.0)) throw std::invalid_argument("a mesh template needs a positive density");
  MeshOptions options = meshOptions;
  options.scale = request.scale;
  options.repair = request.repair || meshOptions.repair;
  std::vector<Pebble> shapePebbles;
  PreparedMesh prepared;
  if (!request.shape.empty()) {
    BuiltinShape shape = makeBuiltinShape(request.shape, request.shapeSize);
    for (Pebble& p : shape.pebbles) {  // scale applies to built-in shapes too (after their size)
      p.center *= request.scale;
      p.radius *= request.scale;
    }
    shapePebbles = std::move(shape.pebbles);
    prepared = prepareMesh(shape.mesh, "built-in shape " + request.shape, options, progress.silent());
  } else {
    prepared = importMesh(request.meshFile, options, progress.silent());
  }
  progress.report(0.05, "mass properties of the mesh");
  MeshTemplateResult result;
  result.report = prepared.report;
  result.meshProperties = preparedMassProperties(prepared, request.density);
  const MeshSolid& solid = *prepared.solid;
  // Shares of the time: the fill (or fit) about as long as the measures against the mesh.
  const WorkProgress filling = progress.part(0.1, 0.55), measuring = progress.part(0.55, 1.0);
  progress.report(0.1, "filling");

  std::vector<Pebble> pebbles;
  if (request.hasFill && request.fill.spheres) {
    result.sphereFit = fitSpheres(solid, sphereFitSettings(request.fill), filling);
    pebbles = result.sphereFit.pebbles;
    result.fill.pebbles = pebbles;
  } else if (request.hasFill) {
    result.fill = fillMesh(solid, request.fill, 0, 0, filling);
    pebbles = result.fill.pebbles;
  } else if (!request.pebbles.empty()) {
    // MClump mode 4: another tool's pebbles, in the mesh's units and frame.
    for (Pebble p : request.pebbles) {
      p.center *= request.scale;
      p.radius *= request.scale;
      pebbles.push_back(p);
    }
  } else if (!shapePebbles.empty()) {
    pebbles = shapePebbles;  // the built-in shape's own clump
  } else {
    throw std::invalid_argument("a mesh template needs a fill or pebbles");
  }
  QualityOptions quality;
  quality.voxelBudget = request.voxelBudget;
  quality.voxels = request.voxels;
  progress.report(0.55, "measuring against the mesh");
  QualityResult measured = compareWithMesh(pebbles, solid, result.meshProperties, quality, measuring);
  if (request.hasFill) measured.metrics.fillMethod = describeFill(request.fill);
  result.clumpProperties = measured.clump;

  MassProperties mass;
  if (request.inertia == "mesh") {
    mass = result.meshProperties;  // MClump mode 3: the clump moves like the solid the mesh bounds
  } else if (request.inertia == "voxel") {
    mass = measured.clump;
  } else if (request.inertia == "monte-carlo") {
    mass = massFromMonteCarlo(PebbleUnion(pebbles), request.density, request.samples, request.halton);
  } else if (request.inertia == "pebbles") {
    mass = massFromPebbles(pebbles, std::vector<double>(pebbles.size(), request.density));
  } else {
    throw std::invalid_argument("unknown inertia method \"" + request.inertia +
                                "\" for a mesh template (use mesh, voxel, monte-carlo or pebbles)");
  }
  result.clump =
      meshClumpTemplate(request.name, pebbles, mass, request.inertia, request.density, *prepared.mesh,
                        request.shape.empty() ? std::filesystem::path(request.meshFile).filename().string()
                                              : "built-in:" + request.shape,
                        measured.metrics);
  return result;
}

ClumpTemplate meshClumpTemplate(const std::string& name, const std::vector<Pebble>& pebbles,
                                const MassProperties& mass, const std::string& inertiaMethod, double density,
                                const TriangleMesh& mesh, const std::string& sourceMesh,
                                const ClumpMetrics& metrics) {
  ClumpTemplate t = makeTemplate(name, pebbles, mass, inertiaMethod, density);
  t.sourceMesh = sourceMesh;
  t.metrics = metrics;
  // The mesh in the body frame, for drawing: x_body = R (x - centre of mass).
  auto body = std::make_shared<TriangleMesh>(mesh);
  const Mat3 r = t.rotationFromInput.toRotationMatrix();
  for (Vec3& v : body->vertices) v = r * (v - t.centerOfMassInInput);
  t.mesh = std::move(body);
  return t;
}

MeshTemplateBuilder meshTemplateBuilder() {
  return [](const MeshTemplateRequest& request) { return buildMeshTemplate(request).clump; };
}

}  // namespace clumplab::shapes
