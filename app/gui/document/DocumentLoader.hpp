#pragma once
// What `clumplab FILE`, File → Open and drag-and-drop accept: a scene (JSON) or a mesh (STL, OBJ,
// PLY, every format Assimp reads, and a file without a telling extension, read as a mesh by its
// contents), which becomes one clump with the default fill dropped onto a floor; or a trajectory
// (.cltraj), which the window opens in replay mode (ReplayController, not loadDocument). Loading never
// touches the running scene: it returns a new Scene or throws with a message naming the file.
#include <memory>
#include <optional>
#include <string>

#include "core/base/WorkProgress.hpp"
#include "core/scene/Scene.hpp"

namespace clumplab::gui {

bool isSceneFile(const std::string& path);
bool isMeshFile(const std::string& path);  // STL and every format of Assimp's
bool isTrajectoryFile(const std::string& path);

// Throws InputError (or std::exception) naming the file and the problem. `overrides` are PaLa's
// switches (Mutze, Polyspherical grains, §1 (i), (ii)): every clump as a sphere, 2D in a plane or 3D.
// `repairMesh`: a mesh's small holes are closed (shapes::MeshOptions::repair); `holesToClose` (if
// given) is set when a mesh was opened with holes that repair would close. `progress`
// (WorkProgress.hpp): a mesh's fill and measures report there and stop when it is cancelled
// (OperationCancelled); a scene reports when it is read.
std::shared_ptr<const Scene> loadDocument(const std::string& path, const SceneOverrides& overrides = {},
                                          bool repairMesh = false, bool* holesToClose = nullptr,
                                          const WorkProgress& progress = {});

// A mesh as a clump (the default fill: about `pebbleCount` pebbles on a regular grid, exact mesh
// inertia) dropped from 1.5 sizes above a floor, with stiffness and time step chosen from its size.
std::shared_ptr<const Scene> sceneFromMesh(const std::string& meshPath, int pebbleCount = 300,
                                           bool repair = false, bool* holesToClose = nullptr,
                                           const WorkProgress& progress = {});

// "*.3ds *.3mf ... *.stl ...": the file-name patterns of isMeshFile.
std::string meshFilePatterns();
// File-dialog filter listing every file kind loadDocument reads.
std::string openFileFilter();

}  // namespace clumplab::gui
