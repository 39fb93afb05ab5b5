// World's energy report and the time step estimates from the contact stiffness.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "core/cim/SelfForcedIntegrator.hpp"
#include "core/step/PebbleStage.hpp"
#include "core/world/MotionEnergy.hpp"
#include "core/world/World.hpp"

#include "TimeStepEstimate.hpp"
#include "core/step/PebblePlacement.hpp"

namespace clumplab {

std::vector<bool> World::templatesInPlayMask() const {
  // Those of the bodies and of the inlets (whose bodies are to come); every template when there are
  // neither, so that a scene about to be filled still has a step to advise.
  std::vector<bool> used(model_.templates.size(), false);
  for (std::uint32_t k : state_.bodies.templateIndex) used[k] = true;
  for (const Inlet& inlet : state_.inlets) {
    for (std::uint32_t k : inlet.settings().templates) used[k] = true;
  }
  if (std::find(used.begin(), used.end(), true) == used.end()) used.assign(used.size(), true);
  return used;
}

std::vector<const ClumpTemplate*> World::templatesInPlay() const {
  const std::vector<bool> used = templatesInPlayMask();
  std::vector<const ClumpTemplate*> out;
  for (std::size_t k = 0; k < model_.templates.size(); ++k) {
    if (used[k]) out.push_back(model_.templates[k].get());
  }
  return out;
}

TemplateSteps World::timeSteps() const {
  // One body alone in free space (no walls, no periodic images, no inlet to bring another) never
  // touches anything: contacts set no step (a Dzhanibekov lesson's T-bar).
  if (model_.walls.empty() && !model_.settings.periodic.any() && state_.inlets.empty() &&
      state_.bodies.size() == 1) {
    constexpr double kNone = std::numeric_limits<double>::infinity();
    return {kNone, kNone};
  }
  if (!stepEstimate_) stepEstimate_ = std::make_shared<TimeStepEstimate>();
  return stepEstimate_->steps(model_.contact, model_.templates, templatesInPlayMask());
}

EnergyReport motionEnergy(const WorldModel& model, const WorldState& state) {
  EnergyReport e;
  e.time = state.clock.time;
  e.dissipated = state.ledger.dissipated;
  e.externalWork = state.ledger.externalWork;
  e.wallWork = state.ledger.wallWork;
  e.inserted = state.ledger.inserted;
  for (std::size_t b = 0; b < state.bodies.size(); ++b) {
    const double m = state.bodies.mass[b];
    const Vec3& v = state.bodies.velocity[b];
    const Vec3 wb = state.bodies.bodyAngularVelocity(b);
    e.keTranslational += 0.5 * m * v.squaredNorm();
    e.keRotational += 0.5 * wb.dot(state.bodies.moments[b].cwiseProduct(wb));
    // The continuous (unwrapped) position: a body that falls through a periodic floor keeps losing
    // potential energy instead of jumping back up.
    const Vec3 x = state.bodies.position[b] - state.wrapDisplacement[b];
    e.peGravity -= m * model.settings.gravity.dot(x);
    e.momentum += m * v;
    e.angularMomentum += m * x.cross(v) + state.bodies.spinAngularMomentum(b);
  }
  return e;
}

EnergyReport World::energy() const {
  EnergyReport e = motionEnergy(model_, state_);
  if (selfForced_) {  // cim, rk4: contacts of their own (no fields with them)
    e.peElastic = selfForced_->elasticEnergy(view(), state_.integratorHistory.ownForces);
    return e;
  }
  // The pebbles where the poses put them now (in a copy unless they are there already: a million
  // pebbles' copy is 36 MB), and the pairs listed again in a copy of the contact history if they moved
  // beyond the skin (its history carried over as in the world's own rebuilds): the report changes
  // nothing in the world, so that asking for it never changes a trajectory.
  std::optional<PebbleArrays> copy;
  if (!pebblesInPlace(state_.bodies, state_.bodyFirstPebble, model_.templates, state_.pebbles)) {
    copy = state_.pebbles;
    placePebbles(
        state_.bodies, {state_.bodyFirstPebble, model_.templates, *copy}, 0, state_.bodies.size(),
        [](std::size_t) { return false; }, [](std::uint32_t) {});
  }
  const PebbleArrays& placed = copy ? *copy : state_.pebbles;
  if (!neighbors_.needsRebuild(placed.position)) {
    addPotentialEnergy(e, placed, state_.contactHistory);
    return e;
  }
  ContactHistory relisted = state_.contactHistory;
  NeighborList broadPhase;
  broadPhase.setSkin(neighbors_.skin());
  broadPhase.rebuild(broadPhaseInputFor(placed), relisted);
  addPotentialEnergy(e, placed, relisted);
  return e;
}

std::optional<EnergyReport> World::stepEnergy() {
  EnergyReport e = motionEnergy(model_, state_);
  if (selfForced_) {
    e.peElastic = selfForced_->elasticEnergy(view(), state_.integratorHistory.ownForces);
    return e;
  }
  // Within a step the pebbles are placed in the world's own arrays, as the next force evaluation
  // places them first (no copy); a list in need of a rebuild leaves the sample to a later step,
  // since rebuilding it here would move its reference positions.
  placeAllPebbles(pool_, state_.bodies, pebblePlacement());
  if (neighbors_.needsRebuild(state_.pebbles.position)) return std::nullopt;
  addPotentialEnergy(e, state_.pebbles, state_.contactHistory);
  return e;
}

void World::addPotentialEnergy(EnergyReport& e, const PebbleArrays& placed,
                               const ContactHistory& list) const {
  e.peElastic = ContactSolver::elasticEnergy(model_.contact, list, placed, model_.walls,
                                             state_.bodies.position, model_.settings.periodic);
  e.peElastic += state_.meshContacts.elasticEnergy(model_.contact, placed, model_.walls, state_.clock.time);
  if (pointProperties_) {
    e.peFields = fieldPotentialEnergy(model_.settings.fields, state_.softening, state_.bodies,
                                      model_.settings.periodic);
    // -q E.x at the continuous positions, as gravity above.
    for (std::size_t b = 0; b < state_.bodies.size(); ++b) {
      e.peFields +=
          state_.bodies.point[b].charge * model_.settings.fields.electric.dot(state_.wrapDisplacement[b]);
    }
  }
}

}  // namespace clumplab
