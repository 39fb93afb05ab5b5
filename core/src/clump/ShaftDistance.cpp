#include "core/clump/ShaftDistance.hpp"

#include <algorithm>
#include <cmath>

namespace clumplab {

namespace {
// Below this 1 - (u_i . u_j)^2 = |u_i x u_j|^2 the shafts count as parallel (angle below 1e-10
// rad): the general branch divides by it, and the parallel answer is then exact to 1e-10 of the
// shafts' length.
constexpr double kParallel = 1e-20;

// Below this |u_i x u_j|^2 (angles below 1e-4 rad) Fig. 2's choice of the end to clamp compares
// two unconstrained lambda' of order |R_ij| / angle whose rounding errors grow like 1e-16 |R_ij| /
// angle^2: it can pick the wrong end (distances off by the shaft length at 1e-8 rad). There the
// answer is the best of the four ends clamped as in Fig. 2 (each exact on its edge of the
// (lambda_i, lambda_j) rectangle, where the minimum lies) and lambda' itself when it is inside.
constexpr double kNearlyParallel = 1e-8;

double clampTo(double x, double half) {
  return std::max(-half, std::min(x, half));
}

ShaftClosestPoints withDistance(const Vec3& rij, const Vec3& ui, const Vec3& uj, double li, double lj) {
  // Fig. 2's last line expands |R_ij + l_j u_j - l_i u_i|^2; the vector itself loses no digits.
  return {li, lj, (rij + lj * uj - li * ui).squaredNorm()};
}
}  // namespace

ShaftClosestPoints closestShaftPoints(const Vec3& rij, const Vec3& ui, double halfLengthI, const Vec3& uj,
                                      double halfLengthJ) {
  const double uiR = ui.dot(rij), ujR = uj.dot(rij);
  // Zero-length shafts: a point against a segment (or a point).
  if (halfLengthI == 0.0 && halfLengthJ == 0.0) return {0.0, 0.0, rij.squaredNorm()};
  if (halfLengthI == 0.0) return withDistance(rij, ui, uj, 0.0, clampTo(-ujR, halfLengthJ));
  if (halfLengthJ == 0.0) return withDistance(rij, ui, uj, clampTo(uiR, halfLengthI), 0.0);

  const double c = ui.dot(uj);
  // 1 - c^2 from the cross product: no cancellation for nearly parallel shafts.
  const double sine2 = ui.cross(uj).squaredNorm();
  if (sine2 < kParallel) {
    // Fig. 2, (u_i . u_j)^2 = 1: shaft j's centre projects to s on shaft i's line and covers
    // [s - l_j/2, s + l_j/2] there. The closest pair sits mid-overlap, or at the facing ends.
    const double s = uiR;
    const double lower = std::max(-halfLengthI, s - halfLengthJ);
    const double upper = std::min(halfLengthI, s + halfLengthJ);
    double li = 0.5 * (lower + upper);
    double t = li;  // where the closest point of shaft j lies along shaft i's line
    if (lower > upper) {
      li = s > 0.0 ? halfLengthI : -halfLengthI;
      t = s > 0.0 ? s - halfLengthJ : s + halfLengthJ;
    }
    const double lj = clampTo((t - s) * (c > 0.0 ? 1.0 : -1.0), halfLengthJ);
    return withDistance(rij, ui, uj, li, lj);
  }
  // The unconstrained minimum of |R_ij + l_j u_j - l_i u_i|^2. Fig. 2 prints lambda'_j with the
  // opposite sign, which does not minimise the distance its last line defines (nor agree with its
  // own clamp of lambda_j* below); the sign here is the one the brute-force test confirms.
  const double pi = (uiR - c * ujR) / sine2;
  const double pj = (c * uiR - ujR) / sine2;
  const double excessI = std::abs(pi) - halfLengthI, excessJ = std::abs(pj) - halfLengthJ;
  if (sine2 < kNearlyParallel) {
    ShaftClosestPoints best = withDistance(rij, ui, uj, clampTo(pi, halfLengthI), clampTo(pj, halfLengthJ));
    const auto consider = [&](double li, double lj) {
      const ShaftClosestPoints candidate = withDistance(rij, ui, uj, li, lj);
      if (candidate.distance2 < best.distance2) best = candidate;
    };
    for (const double sign : {-1.0, 1.0}) {
      consider(clampTo(uiR + sign * halfLengthJ * c, halfLengthI), sign * halfLengthJ);
      consider(sign * halfLengthI, clampTo(-ujR + sign * halfLengthI * c, halfLengthJ));
    }
    return best;
  }
  if (excessI <= 0.0 && excessJ <= 0.0) return withDistance(rij, ui, uj, pi, pj);
  if (excessJ >= excessI) {
    // Fig. 2's "sign[lambda'_j/2, lambda'_j]" is Fortran's SIGN(l_j/2, lambda'_j): the end of
    // shaft j on the side of lambda'_j; then the point of shaft i nearest to it.
    const double lj = std::copysign(halfLengthJ, pj);
    return withDistance(rij, ui, uj, clampTo(uiR + lj * c, halfLengthI), lj);
  }
  const double li = std::copysign(halfLengthI, pi);
  return withDistance(rij, ui, uj, li, clampTo(-ujR + li * c, halfLengthJ));
}

}  // namespace clumplab
