#include "core/world/Snapshot.hpp"

#include "core/world/World.hpp"

namespace clumplab {

void captureSnapshot(const World& world, const EnergyReport& energy, Snapshot& out) {
  const BodyState& b = world.bodies();
  out.templates = world.model().templates;
  out.walls = world.model().walls;
  out.periodic = world.model().settings.periodic;
  out.inlets = world.state().inlets;
  out.bodies.templateIndex = b.templateIndex;
  out.bodies.position = b.position;
  out.bodies.orientation = b.orientation;
  out.bodies.velocity = b.velocity;
  out.bodies.angularVelocity = b.angularVelocity;
  out.contactPoints.clear();
  world.appendContactPoints(out.contactPoints);
  out.time = world.time();
  out.steps = world.stepCount();
  out.timeStep = world.model().settings.timeStep;
  out.energy = energy;
  out.pebbles = world.pebbleCount();
  out.contacts = world.contactCount();
  out.stageSeconds = world.stageSeconds();
  out.broadPhaseBodySeconds = world.neighbors().seconds().bodies;
  out.broadPhasePebbleSeconds = world.neighbors().seconds().pebbles;
}

}  // namespace clumplab
