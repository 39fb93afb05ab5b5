#pragma once
// The part the World integrators of the cluster integration method (Meland et al.) share ("cim" and
// "rk4", Integrator.hpp): they keep the bodies as a RigidBodySet (angular velocity in the principal
// frame, as the Runge-Kutta steppers integrate it) and a ParticleModel of the world
// (WorldParticleModel.hpp), both brought up to date when the world was edited, and write the state
// back into the World after each step. What the contacts remember (Mutze's largest overlaps) is kept here
// too, across edits as World keeps its springs, so that a copy (a checkpoint) carries it.
#include <memory>
#include <vector>

#include "core/cim/WorldParticleModel.hpp"
#include "core/integrate/Integrator.hpp"
#include "core/model/CimSettings.hpp"

namespace clumplab::cim {

class OwnForcesIntegrator : public SelfForcedIntegrator {
 public:
  void reset() override { stale_ = true; }
  void removeBody(std::size_t index) override {
    stale_ = true;
    memory_.removeParticle(index);
  }
  double elasticEnergy(const WorldView& world) const override;

 protected:
  // Brings the model (bodies, templates, contact law, walls, settings, loads) and the state up to
  // date with `world`. True when either was rebuilt: caches derived from them are void.
  bool synchronize(const WorldView& world, bool edited);
  // Writes the state into `bodies` and summarizes the contacts of `neighbors` (a list
  // valid for the state) into `out`.
  void publish(BodyState& bodies, const NeighborCsr* neighbors, OwnForcesStep& out);

  std::shared_ptr<const WorldParticles> particles_;
  ParticleModel model_;
  RigidBodySet state_;
  CimSettings settings_;
  double buffer_ = 0.0;   // Delta in use [m]
  bool tally_ = false;    // integrate dissipated and external work and wall impulses
  ContactMemory memory_;  // one entry per body (synchronize)

 private:
  bool matches(const BodyState& bodies) const;
  std::vector<Vec3> writtenAngularVelocity_;  // world angular velocities as last written
  bool stale_ = true;
};

// Whether anything in `w` does work that the bookkeeping must integrate: dissipative contact
// laws, global damping, loads, or walls (their impulses).
bool needsTally(const WorldParticles& w);

}  // namespace clumplab::cim
