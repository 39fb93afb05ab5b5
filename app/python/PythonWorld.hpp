#pragma once
// A world as the Python module holds it: the scene it was loaded from (for saving) and the World
// built from it, stepped in slices so that the binding can let other Python threads run and look
// for Ctrl+C between them. No Python here: WorldBindings.cpp wraps it.
#include <memory>
#include <string>

#include "core/scene/Scene.hpp"
#include "core/world/World.hpp"

namespace clumplab::python {

// What one slice of steps did.
struct StepSlice {
  long long steps = 0;    // steps taken
  bool diverged = false;  // the world stopped at a divergence (WorldState::divergence)
};

class PythonWorld {
 public:
  explicit PythonWorld(Scene scene);

  World& world() { return *world_; }
  const World& world() const { return *world_; }
  const Scene& scene() const { return scene_; }

  // Up to `steps` steps, returning once `sliceSeconds` of wall time have passed (at least one step
  // is taken whatever the clock says), at a divergence, or when all are done.
  StepSlice stepSlice(long long steps, double sliceSeconds);

  // The world as it is now, as a scene file at `path` (atomic; InputError naming the path).
  void save(const std::string& path) const;
  // The world as it is now, as scene JSON text (paths relative to `folder`).
  std::string sceneJson(const std::string& folder) const;

  // A body of `t` with the scene file's meaning of its keys: `userOrientation` rotates the template
  // as it was written, position is the centre of mass (docs/formats.md). Returns its index.
  std::uint32_t addBody(const TemplatePtr& t, const Vec3& position, const Quat& userOrientation,
                        const Vec3& velocity, const Vec3& angularVelocity);

 private:
  Scene scene_;
  std::unique_ptr<World> world_;
};

}  // namespace clumplab::python
