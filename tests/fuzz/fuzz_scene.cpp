// Fuzz target: the scene JSON loader (clumplab-scene/1) and, for scenes small enough to run at once,
// building the World and taking a few steps (a loaded scene must never make the engine crash).
#include "FuzzTarget.hpp"
#include "core/base/ResourceLimits.hpp"
#include "core/scene/Scene.hpp"
#include "core/world/World.hpp"

// Scenes are capped at a few thousand pebbles (ResourceLimits) so that one input stays fast: the
// loader's checks, not the size of a world, are under test.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  clumplab::ResourceLimits limits = clumplab::resourceLimits();
  limits.maxPebbles = 5000;
  limits.maxFillPoints = 20'000;  // Monte Carlo samples of pebble inertia (1e6 unless given)
  clumplab::setResourceLimits(limits);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace clumplab;
  fuzz::expectOnlyInputErrors([&] {
    const Scene scene = parseScene(fuzz::asText(data, size), fuzz::kInputName);
    std::size_t pebbles = 0;
    for (const BodyInit& b : scene.bodies) pebbles += scene.model.templates[b.templateIndex]->pebbles.size();
    if (pebbles > 500) return;
    std::unique_ptr<World> world = buildWorld(scene);
    for (int s = 0; s < 3 && world->step(); ++s) {
    }
  });
  return 0;
}
