#include "SceneParameters.hpp"

namespace clumplab::gui {

namespace {
bool sameLinear(const LinearContactParameters& a, const LinearContactParameters& b) {
  return a.stiffness == b.stiffness && a.dampingFromRestitution == b.dampingFromRestitution &&
         a.restitution == b.restitution && a.damping == b.damping && a.friction == b.friction &&
         a.tangentialStiffnessRatio == b.tangentialStiffnessRatio &&
         a.tangentialDamping == b.tangentialDamping && a.limitDamping == b.limitDamping;
}
bool sameHertz(const HertzContactParameters& a, const HertzContactParameters& b) {
  return a.young == b.young && a.poisson == b.poisson && a.restitutionSquared == b.restitutionSquared &&
         a.friction == b.friction && a.regularizingVelocity == b.regularizingVelocity;
}
bool sameContact(const ContactModel& a, const ContactModel& b) {
  return a.kind == b.kind && sameLinear(a.linear, b.linear) && sameHertz(a.hertz, b.hertz);
}
}  // namespace

SceneParameters SceneParameters::fromScene(const Scene& scene) {
  SceneParameters p;
  p.timeStep = scene.settings.timeStep;
  p.integrator = scene.settings.integrator;
  p.eulerIterations = scene.settings.eulerIterations;
  p.gravity = scene.settings.gravity;
  p.contact = scene.contact;
  p.linearDamping = scene.settings.linearDamping;
  p.angularDamping = scene.settings.angularDamping;
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
}

void SceneParameters::applyTo(World& world) const {
  const WorldSettings& s = world.settings();
  if (s.timeStep != timeStep) world.setTimeStep(timeStep);
  if (s.integrator != integrator || s.eulerIterations != eulerIterations) {
    world.setIntegrator(integrator, eulerIterations);
  }
  if (s.gravity != gravity) world.setGravity(gravity);
  if (!sameContact(world.contactModel(), contact)) world.setContactModel(contact);
  if (s.linearDamping != linearDamping || s.angularDamping != angularDamping) {
    world.setDamping(linearDamping, angularDamping);
  }
}

bool SceneParameters::operator==(const SceneParameters& o) const {
  return timeStep == o.timeStep && integrator == o.integrator && eulerIterations == o.eulerIterations &&
         gravity == o.gravity && sameContact(contact, o.contact) && linearDamping == o.linearDamping &&
         angularDamping == o.angularDamping;
}

}  // namespace clumplab::gui
