#include "core/model/WorldModel.hpp"

namespace clumplab {

EditableModel::EditableModel() : EditableModel(WorldSettings{}, ContactModel{}) {}

EditableModel::EditableModel(const WorldSettings& settings, const ContactModel& contactModel)
    : timeStep(settings.timeStep),
      integrator(settings.integrator),
      eulerIterations(settings.eulerIterations),
      rotorSubsteps(settings.rotorSubsteps),
      gravity(settings.gravity),
      linearDamping(settings.linearDamping),
      angularDamping(settings.angularDamping),
      localDamping(settings.localDamping),
      gyroscopic(settings.gyroscopic),
      fields(settings.fields),
      cim(settings.cim),
      contact(contactModel) {}

void EditableModel::writeTo(WorldSettings& settings, ContactModel& contactModel) const {
  settings.timeStep = timeStep;
  settings.integrator = integrator;
  settings.eulerIterations = eulerIterations;
  settings.rotorSubsteps = rotorSubsteps;
  settings.gravity = gravity;
  settings.linearDamping = linearDamping;
  settings.angularDamping = angularDamping;
  settings.localDamping = localDamping;
  settings.gyroscopic = gyroscopic;
  settings.fields = fields;
  settings.cim = cim;
  contactModel = contact;
}

}  // namespace clumplab
