// The World's inlets (Inlet.hpp): the "inlets" stage of World::step and the energy the new bodies
// bring in.
#include <stdexcept>
#include <string>

#include "core/world/World.hpp"

namespace clumplab {

void World::addInlet(const Inlet& inlet) {
  const InletSettings& s = inlet.settings();
  const std::string problem = inletSettingsProblem(s, model_.templates.size());
  if (!problem.empty()) throw std::invalid_argument("inlet: " + problem);
  double lightest = std::numeric_limits<double>::infinity();
  for (const std::uint32_t t : s.templates) lightest = std::min(lightest, model_.templates[t]->mass);
  if (s.maxMass < lightest) {
    throw std::invalid_argument("inlet: the maximum mass " + std::to_string(s.maxMass) +
                                " kg is below the lightest template's mass " + std::to_string(lightest) +
                                " kg: nothing would be inserted");
  }
  state_.inlets.push_back(inlet);
}

void World::insertFromInlets() {
  // Bodies enter at rest in rotation with the inlet's velocity, clear of every other pebble and
  // wall: each brings 1/2 m v^2 and -m g.x, and with charges or dipoles the change of the field
  // energy (World::energy's pe_fields); no contact spring is stretched.
  const std::size_t before = state_.bodies.size();
  const EnergyWatch watch = energyWatch_;  // what they bring is booked: the watch goes on
  for (Inlet& inlet : state_.inlets) inlet.insertDue(*this);
  energyWatch_ = watch;
  if (state_.bodies.size() == before) return;
  for (std::size_t b = before; b < state_.bodies.size(); ++b) {
    const double m = state_.bodies.mass[b];
    const Vec3 wb = state_.bodies.bodyAngularVelocity(b);
    state_.ledger.inserted += 0.5 * m * state_.bodies.velocity[b].squaredNorm() +
                              0.5 * wb.dot(state_.bodies.moments[b].cwiseProduct(wb)) -
                              m * model_.settings.gravity.dot(state_.bodies.position[b]);
  }
  if (pointProperties_) {
    BodyState old = state_.bodies;
    while (old.size() > before) old.erase(old.size() - 1);
    state_.ledger.inserted +=
        fieldPotentialEnergy(model_.settings.fields, state_.softening, state_.bodies,
                             model_.settings.periodic) -
        fieldPotentialEnergy(model_.settings.fields, state_.softening, old, model_.settings.periodic);
  }
}

}  // namespace clumplab
