#include "gui/document/DocumentLoader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "core/base/Errors.hpp"
#include "core/scene/ScenePlane.hpp"
#include "core/scene/SphereSwitch.hpp"
#include "core/world/World.hpp"
#include "shapes/MeshImport.hpp"
#include "shapes/MeshTemplateBuilder.hpp"
#include "shapes/SceneLoading.hpp"

namespace clumplab::gui {

namespace {
std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}
}  // namespace

bool isSceneFile(const std::string& path) {
  return lowerExtension(path) == ".json";
}

bool isMeshFile(const std::string& path) {
  // Every format the import reads (STL and Assimp's), not the few most common: a file a user drops
  // either opens or says why it does not.
  return !isSceneFile(path) && !isTrajectoryFile(path) && shapes::isMeshFileName(path);
}

bool isTrajectoryFile(const std::string& path) {
  return lowerExtension(path) == ".cltraj";
}

std::string meshFilePatterns() {
  std::string patterns;
  for (const std::string& extension : shapes::meshFileExtensions()) {
    patterns += (patterns.empty() ? "*." : " *.") + extension;
  }
  return patterns;
}

std::string openFileFilter() {
  const std::string meshes = meshFilePatterns();
  return "Scenes, meshes and trajectories (*.json " + meshes + " *.cltraj);;Scenes (*.json);;Meshes (" +
         meshes + ");;Trajectories (*.cltraj);;All files (*)";
}

std::shared_ptr<const Scene> loadDocument(const std::string& path, const SceneOverrides& overrides,
                                          bool repairMesh, bool* holesToClose, const WorkProgress& progress) {
  if (!std::filesystem::exists(path)) throw InputError(path, "", "no such file");
  if (isSceneFile(path)) {
    progress.report(0.0, "reading the scene");
    auto scene = std::make_shared<const Scene>(loadScene(path, shapes::sceneLoadOptions(overrides)));
    progress.report(1.0, "");
    return scene;
  }
  // A mesh by its extension, or a file whose extension says nothing (Assimp's readers know many
  // formats by their contents): read as a mesh, its failure in the mesh reader's words.
  if (!isTrajectoryFile(path)) {
    std::shared_ptr<const Scene> scene = sceneFromMesh(path, 300, repairMesh, holesToClose, progress);
    if (overrides == SceneOverrides{}) return scene;
    auto switched = std::make_shared<Scene>(*scene);  // one body above a floor: no overlap to fear
    if (overrides.spheres) switchToSpheres(*switched, *overrides.spheres);
    if (overrides.plane) confineToPlane(*switched, *overrides.plane);
    return switched;
  }
  throw InputError(path, "", "a trajectory is opened for replay, not as a scene");
}

std::shared_ptr<const Scene> sceneFromMesh(const std::string& meshPath, int pebbleCount, bool repair,
                                           bool* holesToClose, const WorkProgress& progress) {
  MeshTemplateRequest request;
  request.repair = repair;
  request.name = std::filesystem::path(meshPath).stem().string();
  request.meshFile = meshPath;
  request.density = 1000.0;
  request.inertia = "mesh";
  request.hasFill = true;
  request.fill.targetCount = pebbleCount;
  progress.report(0.0, "reading the mesh");
  const shapes::MeshTemplateResult built = shapes::buildMeshTemplate(request, {}, progress);
  if (holesToClose != nullptr) *holesToClose = !repair && built.report.boundaryEdges > 0;
  auto clump = std::make_shared<const ClumpTemplate>(built.clump);

  auto scene = std::make_shared<Scene>();
  scene->file = meshPath;
  // What the import did to the mesh (a hole filled by the winding number, pieces turned), said to
  // the user when the scene opens.
  const std::string meshName = std::filesystem::path(meshPath).filename().string();
  for (const std::string& warning : built.report.warnings) scene->notes.push_back(meshName + ": " + warning);
  scene->description =
      "The mesh " + std::filesystem::path(meshPath).filename().string() + " as a clump of " +
      std::to_string(clump->pebbles.size()) + " pebbles (regular-grid fill, " +
      (built.report.closed ? "exact mesh inertia" : "inertia sampled from the solid it bounds") +
      "), dropped onto a floor.";
  const double size = 2.0 * clump->boundingRadius;  // [m]
  const double dropHeight = 1.5 * size;
  // Stiffness so that the impact from the drop height compresses a contact by at most a tenth of the
  // smallest pebble radius: k = m v^2 / delta^2 with v = sqrt(2 g H).
  const double g = 9.81;
  const double impactSpeed = std::sqrt(2.0 * g * dropHeight);
  const double overlap = 0.1 * clump->minPebbleRadius;
  scene->model.contact.kind = ContactModel::Kind::Linear;
  scene->model.contact.linear.stiffness = clump->mass * impactSpeed * impactSpeed / (overlap * overlap);
  scene->model.contact.linear.restitution = 0.5;
  scene->model.contact.linear.friction = 0.5;
  scene->model.settings.gravity = Vec3(0.0, 0.0, -g);
  scene->model.settings.integrator = IntegratorKind::Splitting;
  scene->model.walls.push_back(Wall::plane(Vec3::Zero(), Vec3::UnitZ()));
  scene->model.templates.push_back(clump);
  BodyInit body;
  body.position = Vec3(0.0, 0.0, clump->boundingRadius + dropHeight);
  body.orientation = Quat(Eigen::AngleAxisd(0.4, Vec3(1.0, 0.6, 0.2).normalized()));
  body.angularVelocity = Vec3(0.3, -0.2, 1.0) * std::sqrt(g / size);
  scene->bodies.push_back(body);
  // The recommended step of this template and stiffness (a tenth of a contact's duration or less).
  World probe(scene->model.settings, scene->model.contact, {}, scene->model.templates);
  scene->model.settings.timeStep = probe.timeSteps().recommended;
  scene->duration = 4.0 * std::sqrt(2.0 * dropHeight / g);
  return scene;
}

}  // namespace clumplab::gui
