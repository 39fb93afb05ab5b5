#pragma once
// The part the World integrators of the cluster integration method (Meland et al.) share ("cim" and
// "rk4"): they keep the bodies as a RigidBodySet (angular velocity in the principal frame, as the
// Runge-Kutta steppers integrate it) and a ParticleModel of the world (WorldParticleModel.hpp) in the
// world's OwnForcesHistory, both brought up to date when the world was edited, and write the state back
// into the World after each step. What the contacts remember (Mutze's largest overlaps) is kept there
// too, across edits as World keeps its springs.
#include "OwnForcesWork.hpp"
#include "core/cim/SelfForcedIntegrator.hpp"

namespace clumplab::cim {

class OwnForcesIntegrator : public SelfForcedIntegrator {
 public:
  double elasticEnergy(const WorldView& world, const OwnForcesHistory& history) const override;

 protected:
  // Brings the model (bodies, templates, contact law, walls, settings, loads) and the state in `work`
  // up to date with `world`. True when either was rebuilt: caches derived from them are void.
  static bool synchronize(OwnForcesWork& work, const WorldView& world, bool edited);
  // Writes the state into `bodies` and summarizes the contacts of `neighbors` (a list valid for the
  // state) into `out`.
  static void publish(OwnForcesWork& work, BodyState& bodies, const NeighborCsr* neighbors,
                      OwnForcesStep& out);
};

// Whether anything in `w` does work that the bookkeeping must integrate: dissipative contact
// laws, global damping, loads, or walls (their impulses).
bool needsTally(const WorldParticles& w);

}  // namespace clumplab::cim
