// Fuzz target: the scene JSON loader (clumplab-scene/1) and, for scenes small enough to run at once,
// building the World and taking a few steps (a loaded scene must never make the engine crash).
#include "FuzzTarget.hpp"
#include "core/Scene.hpp"
#include "core/World.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace clumplab;
  fuzz::expectOnlyInputErrors([&] {
    const Scene scene = parseScene(fuzz::asText(data, size), fuzz::kInputName);
    std::size_t pebbles = 0;
    for (const BodyInit& b : scene.bodies) pebbles += scene.templates[b.templateIndex]->pebbles.size();
    if (pebbles > 2000) return;
    std::unique_ptr<World> world = buildWorld(scene);
    for (int s = 0; s < 3 && world->step(); ++s) {
    }
  });
  return 0;
}
