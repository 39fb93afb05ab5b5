#pragma once
// cim and rk4 as World integrators (Meland et al., Cluster integration method, and its DEM baseline):
// World::step calls advance() and books what it returns; World's force stage is not used.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/Math.hpp"
#include "core/cim/OwnForcesHistory.hpp"
#include "core/integrate/Integrator.hpp"

namespace clumplab::cim {

// What an integrator that evaluates its own forces did in one World step, for World to book.
struct OwnForcesStep {
  double dissipated = 0.0;        // [J] work of the dissipative forces over the step (>= 0)
  double externalWork = 0.0;      // [J] work of the external loads over the step
  std::vector<Vec3> wallImpulse;  // per wall (WorldModel::walls order) [N s], given to the wall
  // Per body, how far the step wrapped it into the periodic box (whole box lengths) [m]; empty: none.
  std::vector<Vec3> wrapShift;
  // The contacts at the end of the step, and where they touch [m] (world, one per contact).
  std::size_t pebbleContacts = 0;
  std::size_t wallContacts = 0;
  std::vector<Vec3> contactPoints;
  double worstOverlapRatio = 0.0;  // largest overlap / smaller pebble radius
  std::uint32_t worstBody = 0;
  bool ok = true;  // false: the step could not be completed (see `problem`)
  // Stopped by World::setStepCancel's flag: nothing changed (world nor history), the step can be taken
  // again and gives the same bits.
  bool cancelled = false;
  std::string problem;  // why, for the divergence message
};

class SelfForcedIntegrator : public Integrator {
 public:
  // Advances step.bodies by `dt` [s], reading and updating `history`. `edited`: settings, contact
  // model, loads or templates may have changed since the last call.
  virtual OwnForcesStep advance(const StepContext& step, OwnForcesHistory& history, double dt,
                                bool edited) = 0;
  // The energy stored in the contacts at the world's current state [J] (World::energy).
  virtual double elasticEnergy(const WorldView& world, const OwnForcesHistory& history) const = 0;
};

}  // namespace clumplab::cim
