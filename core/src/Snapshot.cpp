#include "core/Snapshot.hpp"

#include "core/World.hpp"

namespace clumplab {

void captureSnapshot(const World& world, const EnergyReport& energy, Snapshot& out) {
  const BodyState& b = world.bodies();
  out.templates = world.templates();
  out.walls = world.walls();
  out.periodic = world.settings().periodic;
  out.inlets = world.inlets();
  out.bodies.templateIndex = b.templateIndex;
  out.bodies.position = b.position;
  out.bodies.orientation = b.orientation;
  out.bodies.velocity = b.velocity;
  out.bodies.angularVelocity = b.angularVelocity;
  out.contactPoints.clear();
  const ContactSolver& solver = world.contactSolver();
  for (std::size_t c = 0; c < solver.chunkCount(); ++c) {
    for (const ContactRecord& r : solver.chunks()[c].records) out.contactPoints.push_back(r.point);
  }
  out.time = world.time();
  out.steps = world.stepCount();
  out.timeStep = world.settings().timeStep;
  out.energy = energy;
  out.pebbles = world.pebbleCount();
  out.contacts = world.contactCount();
  out.stageSeconds = world.stageSeconds();
  out.broadPhaseBodySeconds = world.neighbors().seconds().bodies;
  out.broadPhasePebbleSeconds = world.neighbors().seconds().pebbles;
}

}  // namespace clumplab
