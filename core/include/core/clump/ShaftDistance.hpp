#pragma once
// Shortest distance between the shafts (segments) of two spherocylinders, after Vega & Lago (1994)
// as printed in Meland et al., Cluster integration method, Fig. 2. Shaft i runs over R_i + lambda_i u_i,
// |lambda_i| <= l_i / 2.
#include "core/base/Math.hpp"

namespace clumplab {

struct ShaftClosestPoints {
  double lambdaI = 0.0;    // [m] closest point of shaft i: R_i + lambdaI u_i
  double lambdaJ = 0.0;    // [m] closest point of shaft j: R_j + lambdaJ u_j
  double distance2 = 0.0;  // [m^2] |R_ij + lambdaJ u_j - lambdaI u_i|^2
};

// `rij` = R_j - R_i [m]; `ui`, `uj` unit axes; half shaft lengths [m] (>= 0; 0 is a point, so the
// function also gives point-segment and point-point distances). Parallel shafts (Fig. 2's first
// branch) have a whole range of closest pairs: the middle of the range where their projections
// overlap is returned (so forces between parallel capsules stay symmetric), else the nearest ends.
ShaftClosestPoints closestShaftPoints(const Vec3& rij, const Vec3& ui, double halfLengthI, const Vec3& uj,
                                      double halfLengthJ);

}  // namespace clumplab
