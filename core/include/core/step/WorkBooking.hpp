#pragma once
// The work the step's forces do, booked around the integrator (Mutze, Polyspherical grains, §8:
// total + dissipated is conserved). A contact law sees velocities that are not the synchronous ones
// (the leapfrog's predicted v*, the midpoint's mid-step ones); power x dt at those would not
// telescope with the kicks. Booked instead is the work that the kicks do with the dissipative
// forces: the forces of an evaluation at t + f dt (ForceStageIntegrator::forceTimeFraction) act over
// the interval of length dt centred there, on velocities that are the synchronous ones at t + f dt
// to second order. For f = 1 (leapfrog, splitting) the last evaluation's forces act over the first
// half of this step at v_n and the new ones over the second half at v_{n+1}; for f = 1/2 (midpoint)
// the new ones act over the whole step at (v_n + v_{n+1}) / 2. For the translational kicks this is
// their work exactly (up to terms that telescope, for f = 1); for the rotational ones to second
// order. The same shares weight the walls' impulses and the work on moving mesh walls.
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab {

class ThreadPool;         // ThreadPool.hpp
class MeshWallContacts;   // MeshWallContacts.hpp
struct BodyState;         // BodyState.hpp
struct DissipativeParts;  // BodyForces.hpp
struct EnergyLedger;      // EnergyLedger.hpp
struct ExternalLoad;      // ExternalLoad.hpp

class WorkBooking {
 public:
  // What the booking reads: the last force evaluation (its dissipative parts, loads with their
  // torques, wall reactions, mesh-wall contacts) and the bodies' velocities.
  struct Forces {
    ThreadPool& pool;
    const BodyState& bodies;
    const DissipativeParts& dissipative;
    const std::vector<ExternalLoad>& loads;
    const std::vector<Vec3>& loadTorque;  // one per load [N m]
    const std::vector<Vec3>& wallForce;   // one per wall [N]
    const MeshWallContacts& meshContacts;
  };
  // What it books into: the energy ledger and the walls' impulses [N s].
  struct Books {
    EnergyLedger& ledger;
    std::vector<Vec3>& wallImpulse;
  };

  // Before the integrator: the last evaluation's forces over their share f - 1/2 of the step of dt
  // [s] (nothing for f <= 1/2), and the velocities at the step's start kept when f < 1.
  void bookCarried(double f, double dt, const Forces& forces, const Books& books);
  // After it: the new evaluation's forces over the rest of the step.
  void bookNew(double f, double dt, const Forces& forces, const Books& books);
  // Forces or velocities changed since the last bookNew: its powers are not the current ones.
  void forget() { lastPowersCurrent_ = false; }

 private:
  struct Powers {
    double dissipative = 0.0;  // [W]
    double external = 0.0;     // [W]
  };
  // Powers of the dissipative forces and torques (sum over bodies of F_diss . v + T_diss . omega, in
  // fixed body chunks summed in chunk order: independent of the thread count) and of the external
  // loads, with v = (1 - s) v_now + s v_stepStart (s = `startWeight`).
  Powers powers(double startWeight, const Forces& forces);
  static void book(double weight, const Powers& p, const Forces& forces, const Books& books);

  // Scratch and caches, not state: the velocities at the start of the step, per-chunk powers, and
  // powers() at the end of the last step.
  std::vector<Vec3> stepStartVelocity_;
  std::vector<Vec3> stepStartAngularVelocity_;
  std::vector<double> powerChunks_;
  Powers lastPowers_;
  bool lastPowersCurrent_ = false;
};

}  // namespace clumplab
