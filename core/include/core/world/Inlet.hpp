#pragma once
// An inlet (Woo, Clumps: Woo's BoxInlet / CylinderInlet with massRate, maxMass, attemptPar and a
// doneHook): a region that inserts clumps of chosen templates at a mass rate [kg/s] up to a maximum
// mass and/or count, without overlaps (Placement.hpp: against the world's bodies, its walls and the
// bodies it inserted itself), each at a random orientation (uniform on SO(3); in the 2D mode lying
// flat at a random angle about the plane's normal) with a given velocity plus a random spread.
//
// The World owns its inlets and lets them insert at the start of every step (World::step, the
// "inlets" stage), at the world's time t: the inlet inserts while inserted mass + the next body's
// mass <= mass_rate x (t - start), so the inserted mass stays within one body's mass below the
// target. A try that finds no room in `attempts` placements stops there: the unmet mass carries
// over, the inlet is "full", and it tries again `retry_interval` later. It is done when the next
// body would exceed max_mass, or max_count bodies are in; `progress.finishedAt` says when.
// Everything it does depends on its seed and the world's state only, not on the thread count, and
// its whole progress (random state included) is part of the World's checkpoints.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/base/Math.hpp"
#include "core/base/PlaneConstraint.hpp"

namespace clumplab {

class PlacementSet;
class SplitMix64;

// An axis-aligned box, or a cylinder given by its centre, axis, radius and height (along the axis,
// centred on the centre). A body fits when the centre of each of its pebbles (each end of a
// spherocylinder's shaft) lies inside; in the 2D mode the direction across the plane is not tested.
struct InletRegion {
  enum class Kind { Box, Cylinder };
  Kind kind = Kind::Box;
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();  // box [m]
  Vec3 center = Vec3::Zero();                   // cylinder [m]
  Vec3 axis = Vec3::UnitZ();                    // cylinder, unit
  double radius = 0.0;                          // cylinder [m]
  double height = 0.0;                          // cylinder [m]

  Vec3 middle() const;  // the box's centre, or the cylinder's [m]
  bool contains(const Vec3& x) const;
  // A point uniformly distributed in the region (three or four uniform numbers, always three for a box).
  Vec3 sample(SplitMix64& rng) const;
  // The corners of the axis-aligned box that holds the region [m].
  void bounds(Vec3& lower, Vec3& upper) const;
  bool operator==(const InletRegion&) const = default;
};

// What the scene file says (the "inlets" key; docs/user-guide.md, "Inlets").
struct InletSettings {
  InletRegion region;
  std::vector<std::uint32_t> templates;  // world template indices
  // Per template: the probability weight of each body being of it, by count. A scene's
  // "mass_fraction"s are turned into weights f_i / m_i here, and kept in `massFractions` to write back.
  std::vector<double> weights;
  std::vector<double> massFractions;                         // empty unless the scene gave mass fractions
  double massRate = 0.0;                                     // [kg/s], > 0
  double maxMass = std::numeric_limits<double>::infinity();  // [kg]
  std::uint64_t maxCount = std::numeric_limits<std::uint64_t>::max();
  Vec3 velocity = Vec3::Zero();  // [m/s], world
  double velocitySpread = 0.0;   // [m/s]: plus a velocity uniform in a ball of this radius
  std::uint64_t seed = 1;
  double start = 0.0;           // world time it starts at [s]
  int attempts = 100;           // placements tried for one body before the try fails (Woo's attemptPar)
  double retryInterval = 0.01;  // [s] after a failed try
  bool operator==(const InletSettings&) const = default;
};

enum class InletState { Waiting, Running, Full, Done };
const char* inletStateName(InletState state);  // "waiting", "running", "full", "done"

// Everything an inlet changes as it runs (checkpointed with the World; saved scenes write it back).
struct InletProgress {
  InletState state = InletState::Waiting;
  double insertedMass = 0.0;  // [kg]
  std::uint64_t insertedCount = 0;
  std::uint64_t randomState = 0;   // SplitMix64 state (set from the seed when the inlet is made)
  std::uint32_t nextTemplate = 0;  // index into InletSettings::templates of the next body
  bool nextDrawn = false;          // nextTemplate has been drawn
  double nextTry = -std::numeric_limits<double>::infinity();     // [s] no try before this time
  std::uint64_t failedTries = 0;                                 // tries that found no room, in all
  std::uint64_t failedInARow = 0;                                // since the last insertion
  double fullSince = std::numeric_limits<double>::quiet_NaN();   // [s] first failed try in a row
  double finishedAt = std::numeric_limits<double>::quiet_NaN();  // [s] when it became done
  bool operator==(const InletProgress& o) const;
};

class World;

class Inlet {
 public:
  // Throws std::invalid_argument naming the bad setting (scene files check them first, by JSON path).
  explicit Inlet(InletSettings settings);
  Inlet(InletSettings settings, const InletProgress& progress);

  const InletSettings& settings() const { return settings_; }
  const InletProgress& progress() const { return progress_; }
  // The mass the rate asks for by time `t` [kg]: mass_rate x (t - start), at most max_mass.
  double targetMass(double t) const;
  // Mass the rate asks for that is not in yet [kg] (what a full region carries over).
  double owedMass(double t) const;

  // Inserts what is due at the world's time into `world` (World::addBody); World books their energy.
  void insertDue(World& world);

 private:
  bool placeOne(World& world, std::uint32_t templateIndex, SplitMix64& rng, PlacementSet& occupied);
  void drawNext(SplitMix64& rng);
  void finish(double t);

  InletSettings settings_;
  InletProgress progress_;
};

// The problem with settings that cannot work, or "" (the world's template count for the indices).
std::string inletSettingsProblem(const InletSettings& settings, std::size_t templateCount);

}  // namespace clumplab
