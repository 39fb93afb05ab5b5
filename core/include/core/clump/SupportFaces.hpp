#pragma once
// The ways a clump can lean on a flat face, for the time-step estimate (World::timeSteps).
// A body resting on a face of n pebbles is held by n contact springs in parallel: its stiffest mode
// is up to n times stiffer than one contact's, which a single-contact estimate misses (a 343-pebble
// cube on a floor at a step chosen for one contact never comes to rest).
#include <vector>

#include <Eigen/Core>

#include "core/clump/ClumpTemplate.hpp"

namespace clumplab {

using Mat6 = Eigen::Matrix<double, 6, 6>;

// The pebbles a plane can touch at once, pressed from outside along one direction, as the modes they
// give the body at unit contact stiffness: with the body's generalized coordinates (translation,
// rotation about the principal axes) scaled by M^(1/2), M = diag(m, m, m, I1, I2, I3), the normal
// springs' stiffness matrix is k x `normal` and the tangential springs' kt x `tangential` [1/kg].
struct SupportFace {
  Mat6 normal = Mat6::Zero();
  Mat6 tangential = Mat6::Zero();
  int pebbles = 0;
};

// Every distinct face of `clump` found over a dense set of directions (the body frame's and the
// input frame's axes exactly, then a Fibonacci lattice): the pebbles whose surface comes within a
// tolerance of the support plane, a tolerance that covers the lattice's spacing over the clump's
// extent, so that a flat face is found whole (and, between lattice directions, a few pebbles more:
// the estimate errs on the safe side). Deterministic.
std::vector<SupportFace> supportFaces(const ClumpTemplate& clump);

// The stiffest single contact of a pebble, along its normal and along a tangent, with any normal
// (a pebble can be touched from any side a neighbour's pebble reaches): the largest
// 1/m + |I^(-1/2) (p x f)|^2 over the pebbles, f the unit force at the contact point p [1/kg].
struct PointContactModes {
  double normal = 0.0;
  double tangential = 0.0;
};
PointContactModes pointContactModes(const ClumpTemplate& clump);

}  // namespace clumplab
