#pragma once
// An immutable picture of the world at one instant, made by the simulation thread and read by the
// GUI and the renderer (which never touch live state). Templates and walls are shared, immutable;
// per-body arrays are plain copies.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/PeriodicBox.hpp"
#include "core/clump/ClumpTemplate.hpp"
#include "core/energy/Energy.hpp"
#include "core/walls/Walls.hpp"
#include "core/world/Inlet.hpp"

namespace clumplab {

class World;

struct SnapshotBodies {
  std::vector<std::uint32_t> templateIndex;  // into Snapshot::templates
  std::vector<Vec3> position;                // centre of mass [m], world
  std::vector<Quat> orientation;             // principal frame -> world
  std::vector<Vec3> velocity;                // [m/s], world
  std::vector<Vec3> angularVelocity;         // [rad/s], world

  std::size_t size() const { return position.size(); }
};

struct Snapshot {
  // Changes whenever the set of templates, walls or bodies changes (load, spawn, delete, reset),
  // so a renderer knows when to upload pebbles again; poses alone do not change it.
  std::uint64_t layoutGeneration = 0;
  std::vector<TemplatePtr> templates;
  std::vector<Wall> walls;
  PeriodicBox periodic;  // periodic axes (Meland et al., Cluster integration method); bodies' centres are
                         // wrapped into the box on them
  SnapshotBodies bodies;
  std::vector<Inlet> inlets;  // regions and progress (Inlet.hpp)
  // [m], world, one per contact `contacts` counts (World::appendContactPoints).
  std::vector<Vec3> contactPoints;

  double time = 0.0;  // [s]
  std::uint64_t steps = 0;
  double timeStep = 0.0;  // [s]
  EnergyReport energy;
  std::size_t pebbles = 0;
  std::size_t contacts = 0;
  std::array<double, 5> stageSeconds{};  // cumulative, per World Stage
  // Cumulative seconds of the broad phase's two levels (NeighborList::Seconds): body pairs, pebble
  // pairs. Their sum is the broad-phase stage.
  double broadPhaseBodySeconds = 0.0;
  double broadPhasePebbleSeconds = 0.0;
};

// Copies the world's current state into `out` (reusing its storage). `energy` must be the world's
// energy at this instant (World::energy()); contact points come from the last force evaluation.
void captureSnapshot(const World& world, const EnergyReport& energy, Snapshot& out);

}  // namespace clumplab
