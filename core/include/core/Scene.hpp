#pragma once
// Scene files ("clumplab-scene/1", see INTERFACES.md): loading with clear errors, and building a
// World from a loaded scene.
#include <memory>
#include <string>
#include <vector>

#include "core/MeshTemplate.hpp"
#include "core/World.hpp"

namespace clumplab {

struct Scene {
  std::string file;  // where it came from (for messages and relative paths)
  std::string description;
  double duration = 0.0;  // suggested run length [s] (0: none given)
  WorldSettings settings;
  ContactModel contact;
  std::vector<Wall> walls;
  std::vector<TemplatePtr> templates;  // generated scaled copies are appended
  std::vector<BodyInit> bodies;        // explicit bodies, then generated ones
};

struct SceneLoadOptions {
  // Builds templates that name a mesh; without it such templates are an error that says so.
  MeshTemplateBuilder meshTemplates;
};

// Throws InputError naming the file, the JSON path and the problem, before any work starts.
Scene loadScene(const std::string& path, const SceneLoadOptions& options = {});
Scene parseScene(const std::string& text, const std::string& file, const SceneLoadOptions& options = {});

std::unique_ptr<World> buildWorld(const Scene& scene);

}  // namespace clumplab
