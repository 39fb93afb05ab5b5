#pragma once
// Homogeneous fields and point interactions at the centres of mass (Mutze, Polyspherical grains, §1 (v),
// (vi)): every body may carry a point charge, an electric dipole, a magnetic dipole and a point mass; uniform
// electric and magnetic fields act on them, and they act on each other pairwise.
#include <vector>

#include "core/base/Math.hpp"
#include "core/base/PeriodicBox.hpp"
#include "core/clump/PointProperties.hpp"

namespace clumplab {

// Coulomb's constant 1/(4 pi eps0) [N m^2/C^2] and mu0/(4 pi) [N/A^2] (CODATA 2018).
inline constexpr double kCoulomb = 8.9875517923e9;
inline constexpr double kMagnetic = 1.00000000055e-7;

struct FieldSettings {
  Vec3 electric = Vec3::Zero();  // uniform E [V/m]
  Vec3 magnetic = Vec3::Zero();  // uniform B [T]
  // Newton's G [m^3/(kg s^2)] between bodies flagged as point masses (scene "gravitation": {"G"}).
  double gravitationalConstant = 6.674e-11;
  // Softening length eps [m] of every pairwise interaction: 1/r becomes 1/sqrt(r^2 + eps^2) and
  // every force, torque and energy derives from that one kernel (FieldForces.cpp), so nothing is
  // singular and energy stays conserved. 0 picks a tenth of the smallest pebble radius.
  double softening = 0.0;

  bool operator==(const FieldSettings& o) const {
    return electric == o.electric && magnetic == o.magnetic &&
           gravitationalConstant == o.gravitationalConstant && softening == o.softening;
  }
};

struct BodyState;

// Conservative field forces and torques [N], [N m] at the current state, added into `force` and
// `torque` (world frame, per body): qE, p x E, m x B, and the pairwise Coulomb, charge-dipole,
// dipole-dipole (electric and magnetic) and Newtonian terms, O(N^2) over the bodies with any
// property (fine for sandbox sizes). The magnetic Lorentz force q v x B is velocity dependent and
// not included: the integrators apply it in their velocity kicks (ForceStage::lorentzRotation), or
// addLorentzForces adds it for those that take it from the force evaluation. With periodic axes
// every pair interacts through its minimum image only (a truncation, not an Ewald sum: the pair
// energy jumps where a separation crosses half a box length, so keep long-range pairs weak there).
void addFieldForces(const FieldSettings& fields, double softening, const BodyState& bodies,
                    std::vector<Vec3>& force, std::vector<Vec3>& torque, const PeriodicBox& periodic = {});
// q v x B at the current velocities, with `magnetic` the field that acts.
void addLorentzForces(const Vec3& magnetic, const BodyState& bodies, std::vector<Vec3>& force);
// The potential energy of all of these [J]: -q E.x - p.E - m.B plus the pairwise energies (minimum
// images with periodic axes; x as given: World passes wrapped positions and adds back the wraps).
double fieldPotentialEnergy(const FieldSettings& fields, double softening, const BodyState& bodies,
                            const PeriodicBox& periodic = {});
// Whether any body carries a property that a field or another body acts on.
bool hasPointProperties(const BodyState& bodies);

}  // namespace clumplab
