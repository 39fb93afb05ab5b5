#pragma once
// Rigid motion confined to a plane (the 2D mode, PlaneConstraint.hpp): centres of mass move in the
// plane, bodies turn about the fixed world normal n only, with the moment of inertia n.I.n (which
// rotation about n leaves unchanged). Free motion about a fixed axis is exact: no gyroscopic term.
#include <cstddef>

#include "VelocityPredictor.hpp"
#include "core/base/PlaneConstraint.hpp"

namespace clumplab {

class ForceStage;
struct StepContext;

// n.I.n [kg m^2] of body b with I = R diag(I1, I2, I3) R^T.
double normalInertia(const BodyState& s, std::size_t b, const Vec3& n);
// Free motion over tau [s]: x += tau v (kept on the plane), q turned by tau omega about n.
void planarDrift(const PlaneConstraint& plane, BodyState& s, std::size_t b, double tau);
// The angular kick over h [s] by the torque's normal part: omega += h T_n / (n.I.n), along n.
void planarSpinKick(const PlaneConstraint& plane, BodyState& s, std::size_t b, double h);
// One kick-drift-kick step (the leapfrog and the splitting method, which coincide in 2D): half
// kicks with the forces at t and t + dt (Lorentz by the Boris rotation), a full drift between; the
// forces at t + dt taken at predicted velocities (VelocityPredictor.hpp), `drifted` the scratch.
void planarKickDriftKick(const StepContext& step, ForceStage& forces, VelocityCopy& drifted);

}  // namespace clumplab
