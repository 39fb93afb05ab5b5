#pragma once
// The lifetime of a cluster list (Meland et al., Cluster integration method): how long the clusters stay
// independent. Particles of different clusters start at least the buffer Delta apart, and a particle listed
// with no wall is at least Delta from every wall. If no point of any particle moves farther than Delta/2, no
// two clusters can touch (the surface distance of two rigid bodies falls by at most the sum of their points'
// largest displacements) and no unlisted wall can be reached. So the lifetime is the shortest time in which
// some particle may move Delta/2, estimated from the velocities at the start as the paper does: the bound is
// exact for bodies moving with constant v and w, and a first-order estimate for bodies that collide within
// their cluster.
//
//  - spherocylinders (the paper): the points whose distance matters are on the shaft, and the
//    fastest shaft point is an end, so T = 0.5 Delta / max_i max_+- |v_i +- (l_i/2) w_i x u_i|.
//  - any body inside a ball of radius rho about its centre of mass (clumps): a point p of the body
//    moves in time t by (R(t) - R(0)) + (Rot(w t) - 1)(p - R), whose length is at most
//    |v| t + 2 rho sin(|w| t / 2) <= (|v| + rho |w|) t, so T = 0.5 Delta / max_i (|v_i| + rho_i |w_i|).
//    For a torque-free asymmetric body |w| varies, but never exceeds sqrt(2 E_rot / I_min)
//    (2 E_rot = sum I_k w_k^2 >= I_min |w|^2): angularSpeedBound gives that safe value.
//  - the estimate fails where a collision inside a cluster makes a body faster than its speed at
//    the start; so the displacements themselves are held to Delta/2 as the list is used (the
//    functions below, ClusterStepper::integrateAll), measured as the speeds are: shaft ends for
//    spherocylinders, |dx| + 2 rho sin(theta / 2) for a turn by theta otherwise.
//  - uniform gravity accelerates all particles alike and so leaves their mutual distances alone;
//    it matters near walls. With an acceleration bound a, a point moves at most s t + a t^2 / 2,
//    and the time to move Delta/2 is the positive root of that (displacementTime).
#include <span>

#include "core/base/Math.hpp"

namespace clumplab::cim {

// The time [s] in which a point starting with speed <= `speed` [m/s] under an acceleration of
// magnitude <= `acceleration` [m/s^2] can first have moved `distance` [m]: the positive root of
// s t + a t^2 / 2 = d, computed as 2 d / (s + sqrt(s^2 + 2 a d)) (no cancellation). Infinite when
// both speed and acceleration vanish.
double displacementTime(double speed, double acceleration, double distance);

// The fastest point of a spherocylinder's shaft: max over the two ends |v +- (l/2) w x u| [m/s], with
// w the lab angular velocity, u the unit axis, l the shaft length.
double shaftEndSpeed(const Vec3& velocity, const Vec3& angularVelocity, const Vec3& axis, double shaftLength);

// |v| + rho |w| [m/s]: bounds the speed of every point within `boundingRadius` rho of the centre.
double boundingSpeed(const Vec3& velocity, const Vec3& angularVelocity, double boundingRadius);

// sqrt(w^p . I w^p / I_min) >= |w| at all times of torque-free motion [rad/s].
double angularSpeedBound(const Vec3& moments, const Vec3& bodyAngularVelocity);

// How far the shaft ends of a spherocylinder of shaft length l moved [m] when its centre moved by
// `displacement` and its unit axis turned from `axisBefore` to `axisAfter`: max over the ends
// |dx +- (l/2)(u1 - u0)| (the points between move less: the motion of a shaft point is linear in its
// place along the shaft).
double shaftEndDisplacement(const Vec3& displacement, const Vec3& axisBefore, const Vec3& axisAfter,
                            double shaftLength);

// |dx| + 2 rho sin(theta / 2) [m], theta the angle of the turn from `before` to `after` (unit or not):
// bounds how far every point within `boundingRadius` rho of the centre moved.
double boundingDisplacement(const Vec3& displacement, const Quat& before, const Quat& after,
                            double boundingRadius);

// min_i displacementTime(speeds_i, acceleration, buffer / 2) [s], i.e. 0.5 Delta / max_i speeds_i
// without acceleration. Infinite for an empty set or particles at rest.
double clusterLifetime(std::span<const double> speeds, double buffer, double acceleration = 0.0);

}  // namespace clumplab::cim
