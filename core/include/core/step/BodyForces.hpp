#pragma once
// The force stages that act on whole bodies, each over what it reads and what it writes: gravity,
// global damping and the user's loads first (they set the forces), the fields after the contact sums,
// then the 2D plane and the blocked degrees of freedom take their parts. The same projections of the
// state (velocities and positions) for the integrators and edits.
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab {

class ThreadPool;        // ThreadPool.hpp
struct BodyState;        // BodyState.hpp
struct ExternalLoad;     // ExternalLoad.hpp
struct PlaneConstraint;  // PlaneConstraint.hpp
struct WorldSettings;    // WorldModel.hpp

// The dissipative parts of the bodies' forces and torques, summed beside the totals: the work
// booking (WorkBooking.hpp) takes their power.
struct DissipativeParts {
  std::vector<Vec3> force;   // [N]
  std::vector<Vec3> torque;  // [N m]
};

// Sets each body's force to its weight and its torque to zero, then adds global damping (its parts
// into `dissipative`) and the external loads (their torques about the centres of mass into
// `loadTorque`, one per load). The per-body part runs on `pool` when one is given (the same bits).
void setGravityDampingAndLoads(const WorldSettings& settings, const std::vector<ExternalLoad>& loads,
                               BodyState& bodies, DissipativeParts& dissipative,
                               std::vector<Vec3>& loadTorque, ThreadPool* pool = nullptr);

// B, or its normal part in the 2D mode [T]: v x B with B in the plane points along the normal, and
// the plane takes it.
Vec3 actingMagneticField(const WorldSettings& settings);

// Field forces and point interactions at the centres of mass (softening [m]); q v x B among the
// forces only for integrators that do not rotate the velocities in their kicks (`lorentzInKicks`).
// For bodies of which some have point properties (World keeps whether any has: without them
// there is nothing to add).
void applyFields(const WorldSettings& settings, double softening, bool lorentzInKicks, BodyState& bodies);

// 2D mode: the plane's reaction cancels the out-of-plane force and the torque across its normal.
void projectForcesOnPlane(const PlaneConstraint& plane, BodyState& bodies, DissipativeParts& dissipative);
void projectStateOnPlane(const PlaneConstraint& plane, BodyState& bodies, std::size_t first = 0);

// Cundall's local (non-viscous) damping, as Woo's leapfrog (Woo, Clumps: the pill bottle's
// minimalEngines(damping)) and Yade's NewtonIntegrator apply it, on the force that acts once every other
// stage has had its part: each world component scaled, F_i <- F_i (1 - lambda sign(F_i v_i)) and T_i <- T_i
// (1 - lambda sign(T_i omega_i)), at the velocities the integrator evaluates forces with. The change, -lambda
// |F_i| sign(v_i), only ever opposes the motion: it joins the dissipative parts. lambda 0: nothing.
void applyLocalDamping(double lambda, BodyState& bodies, DissipativeParts& dissipative);

// Blocked degrees of freedom (BlockedDofs.hpp): the constraint takes the blocked force components
// and the torque about blocked axes (the dissipative parts alike); the state keeps no velocity along
// them.
void removeBlockedForces(BodyState& bodies, DissipativeParts& dissipative);
void confineBlockedState(BodyState& bodies, std::size_t first = 0);  // bodies first, first + 1, ...

}  // namespace clumplab
