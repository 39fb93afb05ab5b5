#pragma once
// Analytic motion of an isolated rigid body over a time t (the free particles of the cluster
// integration method, Meland et al., Cluster integration method): free flight under uniform gravity, and
// torque-free rotation.
//
// Rotation, by the moments of inertia:
//  - sphere (I1 = I2 = I3): uniform rotation, exact;
//  - symmetric top (two equal moments, I_perp, and the symmetry axis e_a with I_a): regular
//    precession, exact in closed form (Landau & Lifshitz, Mechanics §33; Goldstein 1980 §5.6).
//    With L the (constant) lab angular momentum, the lab angular velocity is, since
//    I^-1 = 1/I_perp + (1/I_a - 1/I_perp) e_a e_a^T,
//        w = (|L| / I_perp) L^ + L_a (1/I_a - 1/I_perp) e_a = W_p L^ + W_s e_a,   L_a = I_a w_a^p,
//    a rotation about the fixed L^ at the rate W_p plus one about the body axis e_a at the constant
//    rate W_s. Hence R(t) = Rot(L^, W_p t) R(0) Rot(e_a, W_s t) (differentiate: dR/dt R^T =
//    [W_p L^ + W_s R e_a]_x), i.e. q(t) = q_L(W_p t) (x) q(0) (x) q_a(W_s t), and in the principal
//    frame w^p(t) = Rot(e_a, -W_s t) w^p(0): the body components perpendicular to e_a turn at
//    Omega = -W_s = w_a (I_a - I_perp) / I_perp, as Euler's equations give directly.
//  - asymmetric top: NOT in closed form here. The body is integrated with the RKF45 of
//    RungeKutta.hpp at a relative tolerance of 1e-12 per step by default (quaternion and w^p as
//    blocks), after which w^p is projected back onto the energy and |L| of the start (two Newton
//    steps), so E and |L| hold to round-off and the orientation error is that of the integration.
//    (The exact solution needs Jacobi elliptic functions for w^p and an elliptic integral of the
//    third kind for the precession angle, L&L §37; not implemented.)
#include <cstddef>

#include "core/base/Math.hpp"

namespace clumplab::cim {

// x(t) = x + v t + g t^2 / 2, v(t) = v + g t (exact).
void freeFlight(Vec3& position, Vec3& velocity, const Vec3& gravity, double t);

enum class FreeRotationKind { Sphere, SymmetricTop, AsymmetricTop };

struct FreeRotationSettings {
  // Two moments are taken as equal when they differ by at most this fraction of the larger one;
  // the symmetric-top formula then uses their mean (its error grows like that fraction x w t).
  double symmetryTolerance = 1e-12;
  double relativeTolerance = 1e-12;  // asymmetric top: RKF45 tolerance per step
};

struct MomentSymmetry {
  FreeRotationKind kind = FreeRotationKind::AsymmetricTop;
  int axis = 0;  // symmetric top: the principal axis with the odd moment (0, 1, 2)
};
MomentSymmetry classifyMoments(const Vec3& moments, double symmetryTolerance);

struct FreeRotationResult {
  FreeRotationKind kind = FreeRotationKind::Sphere;
  std::size_t evaluations = 0;  // derivative evaluations (asymmetric top only)
};

// Advances a torque-free body by t [s]: `orientation` (principal -> lab) and `bodyAngularVelocity`
// w^p [rad/s] are updated in place; `moments` [kg m^2] in any order.
FreeRotationResult rotateFreely(const Vec3& moments, Quat& orientation, Vec3& bodyAngularVelocity, double t,
                                const FreeRotationSettings& settings = {});

// The closed form for a symmetric top with symmetry axis `axis` and moments I_a (the odd one) and
// I_perp (exact when the two others are equal to I_perp).
void rotateSymmetricTop(double axialMoment, double perpendicularMoment, int axis, Quat& orientation,
                        Vec3& bodyAngularVelocity, double t);

}  // namespace clumplab::cim
