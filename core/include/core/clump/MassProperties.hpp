#pragma once
// Mass, centre of mass and inertia of rigid clumps, and their principal frames.
#include <cstdint>
#include <span>
#include <vector>

#include "core/base/Math.hpp"
#include "core/base/WorkProgress.hpp"
#include "core/clump/Pebble.hpp"
#include "core/clump/Solid.hpp"

namespace clumplab {

// Mass properties in the frame the geometry was given in ("input frame").
struct MassProperties {
  double volume = 0.0;                // [m^3]
  double mass = 0.0;                  // [kg]
  Vec3 centerOfMass = Vec3::Zero();   // [m], input frame
  Mat3 inertiaTensor = Mat3::Zero();  // [kg m^2], about the centre of mass, input frame
  double statisticalError = 0.0;      // relative 1-sigma error of the mass (Monte Carlo only)
  // Sampled methods only. Monte Carlo: 1-sigma standard errors from 32 batch means. Voxels with an
  // error budget: the change from the previous resolution (a conservative error estimate).
  double volumeError = 0.0;                // [m^3]
  Vec3 centerOfMassError = Vec3::Zero();   // [m], per component
  Mat3 inertiaTensorError = Mat3::Zero();  // [kg m^2], per component
  int voxelsPerSide = 0;                   // voxel method: N used
  std::int64_t samples = 0;                // Monte Carlo: points drawn
};

// Principal frame of an inertia tensor: moments ascending (I1 <= I2 <= I3), axes as the columns
// of a right-handed rotation (det = +1), so that tensor = axes * diag(moments) * axes^T.
struct PrincipalFrame {
  Vec3 moments = Vec3::Zero();   // [kg m^2], ascending
  Mat3 axes = Mat3::Identity();  // columns e1, e2, e3 in the input frame
  // Rotation taking principal (body) coordinates into input coordinates: x_in = rotation * x_body.
  Quat rotation() const { return Quat(axes); }
};

// MercuryDPM rigid clumps, eq. 23-26: eigen-decomposition, ascending, made right-handed.
PrincipalFrame principalFrame(const Mat3& inertiaTensor);

// MercuryDPM rigid clumps, eq. 1-5: summation over pebbles with Steiner's theorem (exact when pebbles do not
// overlap). `densities` holds one density per pebble [kg/m^3] (MercuryDPM rigid clumps, §2.1 allows them to
// differ).
MassProperties massFromPebbles(std::span<const Pebble> pebbles, std::span<const double> densities);

// MercuryDPM rigid clumps, eq. 6-10: summation over N^3 voxels of the smallest cube around the solid,
// counting a voxel when its centre is inside (overlaps of pebbles are not counted twice). Uniform density.
// Rows of voxels are summed in closed form from the solid's spans, so the cost is ~N^2, not N^3.
// `progress` (WorkProgress.hpp): reported between layers of voxels, cancelled within a few rows.
MassProperties massFromVoxels(const Solid& solid, double density, int voxelsPerSide,
                              const WorkProgress& progress = {});
MassProperties massFromVoxels(std::span<const Pebble> pebbles, double density, int voxelsPerSide);

// Voxels with N chosen from an error budget: N = 32, 64, 128, ... until the error estimate of the
// volume, the centre of mass (relative to the solid's size) and the inertia tensor (Frobenius norm)
// falls below `relativeBudget`, or N reaches `maxVoxelsPerSide`. The estimate is the larger
// difference to N / 2 and to the same N on a grid shifted by 0.382 voxels; it is in the *Error
// fields of the result (compare it with the budget to see whether the budget was met).
MassProperties massFromVoxelsWithinBudget(const Solid& solid, double density, double relativeBudget,
                                          int maxVoxelsPerSide = 2048, const WorkProgress& progress = {});

// Mutze, Polyspherical grains, eq. 29-31: Monte Carlo integration over the enclosing box with the sequence of
// eq. 30 (zeta_k = frac(1e6 sin k)) or, if `lowDiscrepancy`, the Halton sequence (bases 2, 3, 5).
// Standard errors come from 32 batches of consecutive samples. `progress` is reported every few
// batches and cancelled within a few thousand samples.
MassProperties massFromMonteCarlo(const Solid& solid, double density, std::int64_t samples,
                                  bool lowDiscrepancy, const WorkProgress& progress = {});
MassProperties massFromMonteCarlo(std::span<const Pebble> pebbles, double density, std::int64_t samples,
                                  bool lowDiscrepancy, const WorkProgress& progress = {});

// Throws std::invalid_argument unless every pebble is a sphere: the pebble sums and unions above
// (and massFromPebbles, PebbleUnion) know spheres only; spherocylinders get closed forms
// (Spherocylinder.hpp).
void requireSpherePebbles(std::span<const Pebble> pebbles);

// The bounding-box of the pebble union: per axis (Mutze, Polyspherical grains, eq. 25).
void pebbleBounds(std::span<const Pebble> pebbles, Vec3& lower, Vec3& upper);

}  // namespace clumplab
