#pragma once
// The sign of the 2D orientation determinant, exactly (private to shapes).
//   orient2d(p, q, r) = (q - p) x (r - p) = (qx - px)(ry - py) - (qy - py)(rx - px)
// A floating-point filter answers almost every call; when the result is within its rounding error
// bound, the determinant is expanded into six products, each split exactly into two doubles with
// fma, and summed exactly as a floating-point expansion (Shewchuk's error-free transformations).
#include <cmath>

namespace clumplab::shapes::detail {

// a + b = s + e exactly.
inline void twoSum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bv = s - a;
  e = (a - (s - bv)) + (b - bv);
}

// Adds `x` to the non-overlapping expansion e[0..n) (smallest first); returns the new length.
inline int growExpansion(double* e, int n, double x) {
  int m = 0;
  double q = x;
  for (int i = 0; i < n; ++i) {
    double sum = 0.0, err = 0.0;
    twoSum(q, e[i], sum, err);
    if (err != 0.0) e[m++] = err;
    q = sum;
  }
  if (q != 0.0) e[m++] = q;
  return m;
}

// -1, 0 or +1.
inline int orient2dSign(double px, double py, double qx, double qy, double rx, double ry) {
  const double left = (qx - px) * (ry - py), right = (qy - py) * (rx - px);
  const double det = left - right;
  // Error bound of the filter (Shewchuk's ccwerrboundA, with a margin).
  const double bound = 3.4e-16 * (std::abs(left) + std::abs(right));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  // Exact: det = qx ry - qx py - px ry - qy rx + qy px + py rx (the px py terms cancel).
  const double a[6] = {qx, -qx, -px, -qy, qy, py};
  const double b[6] = {ry, py, ry, rx, px, rx};
  double expansion[12];
  int n = 0;
  for (int i = 0; i < 6; ++i) {
    const double product = a[i] * b[i];
    const double error = std::fma(a[i], b[i], -product);  // a b = product + error exactly
    n = growExpansion(expansion, n, error);
    n = growExpansion(expansion, n, product);
  }
  // Zero-eliminated and non-overlapping: the last (largest) component carries the sign.
  if (n == 0) return 0;
  return expansion[n - 1] > 0.0 ? 1 : -1;
}

}  // namespace clumplab::shapes::detail
