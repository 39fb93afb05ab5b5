#include "sim/SceneParameters.hpp"
#include "core/world/World.hpp"

namespace clumplab::sim {

SceneParameters SceneParameters::fromScene(const Scene& scene) {
  SceneParameters p;
  p.timeStep = scene.settings.timeStep;
  p.integrator = scene.settings.integrator;
  p.eulerIterations = scene.settings.eulerIterations;
  p.gravity = scene.settings.gravity;
  p.contact = scene.contact;
  p.linearDamping = scene.settings.linearDamping;
  p.angularDamping = scene.settings.angularDamping;
  p.gyroscopic = scene.settings.gyroscopic;
  p.fields = scene.settings.fields;
  return p;
}

void SceneParameters::writeTo(Scene& scene) const {
  scene.settings.timeStep = timeStep;
  scene.settings.integrator = integrator;
  scene.settings.eulerIterations = eulerIterations;
  scene.settings.gravity = gravity;
  scene.contact = contact;
  scene.settings.linearDamping = linearDamping;
  scene.settings.angularDamping = angularDamping;
  scene.settings.gyroscopic = gyroscopic;
  scene.settings.fields = fields;
}

void SceneParameters::applyTo(World& world) const {
  const WorldSettings& s = world.settings();
  if (s.timeStep != timeStep) world.setTimeStep(timeStep);
  if (s.integrator != integrator || s.eulerIterations != eulerIterations) {
    world.setIntegrator(integrator, eulerIterations);
  }
  if (s.gravity != gravity) world.setGravity(gravity);
  if (!(world.contactModel() == contact)) world.setContactModel(contact);
  if (s.linearDamping != linearDamping || s.angularDamping != angularDamping) {
    world.setDamping(linearDamping, angularDamping);
  }
  if (s.gyroscopic != gyroscopic) world.setGyroscopic(gyroscopic);
  if (!(s.fields == fields)) world.setFields(fields);
}
}  // namespace clumplab::sim
