// The World's inlets (Inlet.hpp): the "inlets" stage of World::step and the energy the new bodies
// bring in.
#include <stdexcept>
#include <string>

#include "core/World.hpp"

namespace clumplab {

void World::addInlet(const Inlet& inlet) {
  const InletSettings& s = inlet.settings();
  const std::string problem = inletSettingsProblem(s, templates_.size());
  if (!problem.empty()) throw std::invalid_argument("inlet: " + problem);
  double lightest = std::numeric_limits<double>::infinity();
  for (const std::uint32_t t : s.templates) lightest = std::min(lightest, templates_[t]->mass);
  if (s.maxMass < lightest) {
    throw std::invalid_argument("inlet: the maximum mass " + std::to_string(s.maxMass) +
                                " kg is below the lightest template's mass " + std::to_string(lightest) +
                                " kg: nothing would be inserted");
  }
  inlets_.push_back(inlet);
}

void World::insertFromInlets() {
  // Bodies enter at rest in rotation with the inlet's velocity, clear of every other pebble and
  // wall: each brings 1/2 m v^2 and -m g.x, and with charges or dipoles the change of the field
  // energy (World::energy's pe_fields); no contact spring is stretched.
  const std::size_t before = bodies_.size();
  const EnergyWatch watch = energyWatch_;  // what they bring is booked: the watch goes on
  for (Inlet& inlet : inlets_) inlet.insertDue(*this);
  energyWatch_ = watch;
  if (bodies_.size() == before) return;
  for (std::size_t b = before; b < bodies_.size(); ++b) {
    const double m = bodies_.mass[b];
    const Vec3 wb = bodies_.bodyAngularVelocity(b);
    insertedEnergy_ += 0.5 * m * bodies_.velocity[b].squaredNorm() +
                       0.5 * wb.dot(bodies_.moments[b].cwiseProduct(wb)) -
                       m * settings_.gravity.dot(bodies_.position[b]);
  }
  if (hasPointProperties(bodies_)) {
    BodyState old = bodies_;
    while (old.size() > before) old.erase(old.size() - 1);
    insertedEnergy_ += fieldPotentialEnergy(settings_.fields, softening_, bodies_, settings_.periodic) -
                       fieldPotentialEnergy(settings_.fields, softening_, old, settings_.periodic);
  }
}

}  // namespace clumplab
