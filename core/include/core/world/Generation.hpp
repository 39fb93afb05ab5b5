#pragma once
// MercuryDPM rigid clumps, §3: distributions of rotated/scaled clumps placed uniformly in a region without
// overlaps.
#include <cstdint>
#include <vector>

#include "core/base/PeriodicBox.hpp"
#include "core/base/PlaneConstraint.hpp"
#include "core/clump/ClumpTemplate.hpp"
#include "core/walls/Walls.hpp"
#include "core/world/BodyInit.hpp"

namespace clumplab {

struct GenerationRequest {
  std::uint32_t templateIndex = 0;
  std::size_t count = 0;
  Vec3 regionMin = Vec3::Zero();  // centres of mass are drawn uniformly in [min, max] [m]
  Vec3 regionMax = Vec3::Zero();
  bool randomOrientation = true;
  double scaleMin = 1.0, scaleMax = 1.0;  // uniform scale factor distribution
  std::uint64_t seed = 1;
  Vec3 velocity = Vec3::Zero();
  Vec3 angularVelocity = Vec3::Zero();
  // MercuryDPM rigid clumps, §4.4's "arbitrary initial velocities and angular velocities": added to the
  // above, drawn uniformly in balls of these radii (0: none, and no random numbers drawn for them).
  double randomSpeed = 0.0;  // [m/s]
  double randomSpin = 0.0;   // [rad/s]
  std::size_t maxAttemptsPerBody = 2000;
  // In 2D mode (enabled), centres are drawn in the region and moved onto the plane before the
  // overlap test; a random orientation lays the body flat (principal axis 3 along the normal) at a
  // random angle about it; velocities lie in the plane and angular velocities along its normal.
  PlaneConstraint plane;
  // Periodic axes (Meland et al., Cluster integration method): centres drawn in the region are wrapped into
  // the box, and bodies must not overlap through the faces either (the nearest image of each pair, as
  // contacts see it).
  PeriodicBox periodic;
};

struct GenerationResult {
  std::size_t placed = 0;
  std::size_t attempts = 0;
  std::vector<double> copyScales;  // the factor of each scaled template copy appended, in order
};

// Appends bodies (and scaled template copies) to `bodies`/`templates`. Bodies overlap neither each
// other, nor those already in `bodies`, nor the walls. Deterministic for a given seed.
GenerationResult generateBodies(const GenerationRequest& request, std::vector<TemplatePtr>& templates,
                                std::vector<BodyInit>& bodies, const std::vector<Wall>& walls);

// A small, fast, portable generator (SplitMix64) so that scenes give the same bodies everywhere.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  // The whole state: SplitMix64(state()) continues this sequence exactly (checkpoints, saved inlets).
  std::uint64_t state() const { return state_; }

 private:
  std::uint64_t state_;
};

// Uniformly distributed rotation (Shoemake's method).
Quat randomRotation(SplitMix64& rng);

// In the 2D mode: the principal axis 3 along the plane's unit `normal`, turned by a uniformly random
// angle about it (a body lying flat, turning about its axis of largest moment).
Quat flatRandomRotation(SplitMix64& rng, const Vec3& normal);

// A point uniformly distributed in the ball of `radius` about the origin (rejection sampling).
Vec3 randomInBall(SplitMix64& rng, double radius);

}  // namespace clumplab
