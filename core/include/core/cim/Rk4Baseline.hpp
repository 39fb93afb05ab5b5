#pragma once
// The DEM baseline of Meland et al., Cluster integration method: all particles integrated together with
// classical RK4 at a constant step, forces from the same Verlet neighbour list with buffer Delta, rebuilt
// when a particle may have moved Delta/2 since the last build.
#include <cstdint>
#include <vector>

#include "core/base/Scratch.hpp"
#include "core/cim/ClusterStepper.hpp"
#include "core/cim/ParticleModel.hpp"
#include "core/cim/RungeKutta.hpp"

namespace clumplab::cim {

struct Rk4BaselineStats {
  std::size_t steps = 0;
  std::size_t evaluations = 0;  // whole-system force evaluations (4 per step)
  std::size_t rebuilds = 0;     // neighbour lists built
  ForceCallCounts forceCalls;
};

// Copyable (a copy carries the neighbour list on, so it continues with the same bits).
class Rk4Baseline {
 public:
  // `tally`: integrate the ForceTally (dissipated and external work, wall impulses) of every step
  // alongside the bodies (lastTally()).
  Rk4Baseline(ParticleModel model, double buffer, bool tally = false);

  // One RK4 step of dt [s] for all particles; positions wrapped into the periodic box after it
  // (with `wrapShifts`, sized like the state, each body's shift added to its entry [m]). `memory`: the
  // contacts' memory of a model that keeps one (ParticleModel.hpp), read by the step's forces and
  // committed at its end (the energy that dissipates is in lastTally()).
  void step(RigidBodySet& state, double dt, std::vector<Vec3>* wrapShifts = nullptr,
            ContactMemory* memory = nullptr);
  // Forgets the neighbour list (call after editing the state from outside).
  void invalidate() { built_ = false; }

  const Rk4BaselineStats& stats() const { return stats_; }
  const NeighborCsr& neighbors() const { return neighbors_; }
  const ParticleModel& model() const { return model_; }
  // Memory it holds [bytes] as a copy holds it: the model, the neighbour list and where the bodies
  // were when it was built (no working memory).
  std::size_t memoryBytes() const;
  // The integral of the tally over the last step (with `tally`).
  const TallyIntegral& lastTally() const { return tally_; }

 private:
  // Whether some point of some particle may leave the ball of radius Delta/2 about where it was at
  // the last build during a step of dt: |R - R0| + reach angle(q0^-1 q) + speed dt >= Delta/2
  // (a point at distance <= reach from R moves by at most |dR| + reach x rotation angle).
  bool needsRebuild(const RigidBodySet& state, double dt) const;

  ParticleModel model_;
  double buffer_ = 0.0;
  bool integrateTally_ = false;
  TallyIntegral tally_;
  bool built_ = false;
  NeighborCsr neighbors_;
  std::vector<Vec3> positionAtBuild_;
  std::vector<Quat> orientationAtBuild_;
  std::vector<std::uint32_t> identity_;
  // What a step works in and overwrites before reading (a copy starts without it).
  struct StepWork {
    RigidBodyOde ode;
    RungeKuttaWorkspace rk;
    OdeState y;
    std::vector<Vec3> wallForces;
  };
  Scratch<StepWork> work_;
  Rk4BaselineStats stats_;
};

}  // namespace clumplab::cim
