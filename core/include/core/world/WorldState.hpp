#pragma once
// Everything a run changes, as one value: the bodies, their pebbles, the loads on them, the clock,
// the energy ledger, the inlets' progress, the contacts with their history, and whether the run
// diverged. With the model (WorldModel.hpp) and the integrator's history it is all the next steps
// depend on: a checkpoint (World.hpp) is a copy of those. The broad phase's bookkeeping (where each
// pebble was at the last build) is a cache outside it; its lists are the keys of `contactHistory`,
// whose copies keep only the pairs that hold something (ContactHistory.hpp), so a copy of the state
// does not carry the pairs that merely were listed.
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/Math.hpp"
#include "core/cim/OwnForcesHistory.hpp"
#include "core/clump/BodyState.hpp"
#include "core/collision/ContactHistory.hpp"
#include "core/collision/ContactSolver.hpp"
#include "core/collision/MeshWallContacts.hpp"
#include "core/energy/EnergyLedger.hpp"
#include "core/forces/ExternalLoad.hpp"
#include "core/integrate/ForceStageHistory.hpp"
#include "core/step/BodyForces.hpp"
#include "core/world/Inlet.hpp"

namespace clumplab {

// Why a run stopped: NaN/Inf, an overlap beyond half a pebble radius, an energy blow-up
// (EnergyWatch: `body` is then the one with the most kinetic energy), or what an integrator of its
// own forces reports (cim's missed contact names its bodies in the message).
struct Divergence {
  bool happened = false;
  std::uint32_t body = 0;
  double time = 0.0;
  std::string message;
};

// The run's clock: time = origin + (steps - stepsAtOrigin) x dt, so no round-off accumulates over
// long runs; an edit of the step or of the time moves the origin.
struct SimulationClock {
  double time = 0.0;  // [s]
  std::uint64_t steps = 0;
  double origin = 0.0;  // [s]
  std::uint64_t stepsAtOrigin = 0;

  // One step of dt [s] later: the time counted from the origin in whole steps (no running sum).
  void advance(double dt) {
    ++steps;
    time = origin + static_cast<double>(steps - stepsAtOrigin) * dt;
  }
};

// What the integrator in use carries from one step to the next (Integrator.hpp): it fills its part.
struct IntegratorHistory {
  ForceStageHistory forceStage;     // leapfrog and midpoint
  cim::OwnForcesHistory ownForces;  // cim and rk4

  // The state was edited from outside.
  void forget() {
    forceStage.forget();
    ownForces.forget();
  }
  // Body `index` was removed and those above renumbered down by one.
  void removeBody(std::size_t index) {
    forceStage.removeBody(index);
    ownForces.removeBody(index);
  }
  // A body was appended to `bodies`: the others keep their history (cim and rk4 take the bodies
  // from the world again).
  void addBody(const BodyState& bodies) {
    forceStage.addBody(bodies);
    ownForces.forget();
  }
  std::size_t memoryBytes() const { return forceStage.memoryBytes() + ownForces.memoryBytes(); }
};

struct WorldState {
  BodyState bodies;
  // Flat pebble data: each body's first pebble, and the world arrays placed from the body poses and
  // the templates' pebbles before every force evaluation (Mutze, Polyspherical grains, §4: pebble
  // positions always come from the pose).
  std::vector<std::uint32_t> bodyFirstPebble;
  PebbleArrays pebbles;
  std::vector<ExternalLoad> loads;  // sorted by body, one a body at most
  // Per body, the sum of the whole-box shifts its centre got from wrapping into the periodic box
  // [m]: position minus this is its continuous path, which the gravity and uniform-field energies use.
  std::vector<Vec3> wrapDisplacement;
  SimulationClock clock;
  EnergyLedger ledger;
  std::vector<Inlet> inlets;  // settings and progress (random state included)
  double softening = 0.0;     // the field softening in use [m] (FieldSettings::softening, or automatic)
  IntegratorHistory integratorHistory;

  // --- contacts ------------------------------------------------------------------------------------
  // Pebble pairs and plane-wall pairs: the pairs the broad phase lists and what each holds (tangential
  // springs, their stiffness, Mutze's largest overlap).
  ContactHistory contactHistory;
  // --- the last force evaluation --------------------------------------------------------------
  ContactSolver contacts;         // pebble pairs and plane walls: records and chunk sums
  MeshWallContacts meshContacts;  // mesh walls: records and their springs
  // Per body, the part of force/torque that is not conservative (contact dashpots and friction,
  // global damping) [N], [N m] about the centre of mass.
  DissipativeParts dissipative;  // of the bodies' forces and torques, for the work booking
  std::vector<Vec3> loadTorque;  // per external load, about the centre of mass [N m]
  std::vector<Vec3> wallForce;   // per wall (WorldModel::walls order), the contact force on it [N]
  // Per wall, the momentum the bodies gave it since construction [N s]: the time integral of the
  // contact forces on the wall, with the weights the integrator's kicks give each force evaluation,
  // so that the sum over walls plus the impulse of the body forces (gravity, fields, loads, damping)
  // equals minus the change of the bodies' total momentum to round-off (Mutze, Polyspherical grains,
  // §1 (iv)). A box is six planes: -x, +x, -y, +y, -z, +z faces.
  std::vector<Vec3> wallImpulse;
  bool forcesCurrent = false;  // the forces belong to the current state
  // How far the contact history lags the clock [s]: 0 after a refresh or an evaluation at the end
  // of the step, dt / 2 after a midpoint evaluation.
  double historyLag = 0.0;
  std::size_t pebbleContacts = 0;
  std::size_t wallContacts = 0;
  double worstOverlapRatio = 0.0;
  std::uint32_t worstBody = 0;
  std::vector<Vec3> ownContactPoints;  // of the last cim / rk4 step [m]

  Divergence divergence;
};

}  // namespace clumplab
