#include "core/world/WorldModel.hpp"

namespace clumplab {

EditableModel EditableModel::of(const WorldSettings& settings, const ContactModel& contactModel) {
  EditableModel m;
  m.timeStep = settings.timeStep;
  m.integrator = settings.integrator;
  m.eulerIterations = settings.eulerIterations;
  m.rotorSubsteps = settings.rotorSubsteps;
  m.gravity = settings.gravity;
  m.linearDamping = settings.linearDamping;
  m.angularDamping = settings.angularDamping;
  m.gyroscopic = settings.gyroscopic;
  m.fields = settings.fields;
  m.cim = settings.cim;
  m.contact = contactModel;
  return m;
}

void EditableModel::writeTo(WorldSettings& settings, ContactModel& contactModel) const {
  settings.timeStep = timeStep;
  settings.integrator = integrator;
  settings.eulerIterations = eulerIterations;
  settings.rotorSubsteps = rotorSubsteps;
  settings.gravity = gravity;
  settings.linearDamping = linearDamping;
  settings.angularDamping = angularDamping;
  settings.gyroscopic = gyroscopic;
  settings.fields = fields;
  settings.cim = cim;
  contactModel = contact;
}

}  // namespace clumplab
