#pragma once
// What the simulation thread publishes and what the GUI's commands name: a frame (the snapshot, the
// thread's status and pacing), the energy samples between frames, and a body as the GUI chose it.
#include <cstdint>
#include <string>
#include <vector>

#include "core/energy/Energy.hpp"
#include "core/model/WorldModel.hpp"
#include "core/world/Snapshot.hpp"
#include "sim/EditLog.hpp"
#include "sim/RecentStageTimes.hpp"
#include "sim/RunPacing.hpp"
#include "sim/SpinProbe.hpp"
#include "sim/StateHistory.hpp"
#include "sim/TrajectoryRecording.hpp"

namespace clumplab::sim {

// What the GUI reads: the snapshot plus the thread's status.
struct SimulationFrame {
  Snapshot snapshot;
  SimulationStats stats;
  StageTimes recentStages;            // seconds per step of each stage over the last second of stepping
  EditableModel parameters;           // as applied to the world
  std::uint64_t sceneGeneration = 0;  // changes when a scene is loaded or reset
  std::uint64_t loadGeneration = 0;   // changes when a scene is loaded (not on reset)
  std::uint64_t commandsApplied = 0;  // commands the thread had applied when it made this frame
  // Changes whenever bodies' indices may shift (a body removed, a state restored, a scene built):
  // a command naming a body carries the one it was chosen under (BodyRef).
  std::uint64_t bodyIndexGeneration = 0;
  std::string sceneFile;
  bool diverged = false;  // the world diverged: stepping stops until it is resumed or reset
  std::string problem;    // why the run stopped (a divergence or a refused command); "" if it did not
  // A message for the user that does not stop the run (a spawn with no room), and how many were
  // given so far: a new one is shown when the count changes.
  std::string notice;
  std::uint64_t noticeCount = 0;
  // An edit (a body added, a parameter changed) brought the safe step below the step: the run was
  // paused before anything could diverge, and the window offers the safe step (one click).
  bool stepAdvised = false;
  double advisedTimeStep = 0.0;  // [s]: the safe step after the edit
  bool canRecover = false;
  DivergenceCause cause = DivergenceCause::Unknown;  // after a divergence: what most likely caused it
  std::uint64_t causeSpawn = 0;   // for SpawnedBodies: the spawn's serial        // a last good state exists
                                  // to resume from with a smaller step
  double criticalTimeStep = 0.0;  // [s] of the running world (World::timeSteps)
  double recommendedTimeStep = 0.0;  // [s]
  SpinReport spin;                   // the watched body's flips, measured every step (Dzhanibekov mode)
  HistoryStats history;              // the states held for stepping back
  TrajectoryStatus trajectory;       // the trajectory being recorded, and how the last one ended
};

// One point of the energy history (one per published frame, and one per single step).
struct EnergySample {
  std::uint64_t sceneGeneration = 0;
  std::uint64_t steps = 0;
  EnergyReport energy;
  std::vector<Vec3> wallImpulses;  // WorldState::wallImpulse: per wall, accumulated [N s]
  // Time integrals of the rotational and translational kinetic energy since the world was built or
  // restored [J s], summed every kKineticIntegralEverySteps steps (MercuryDPM rigid clumps, §4.1's
  // time averages, far denser than the frames' samples).
  double rotationalKineticIntegral = 0.0, translationalKineticIntegral = 0.0;
};

// A body as the GUI chose it: its index in a frame and that frame's bodyIndexGeneration. A command
// carrying it is refused once indices have shifted since (a deletion in between would make the index
// name another body).
struct BodyRef {
  std::uint32_t index = 0;
  std::uint64_t generation = 0;
};

struct DragTarget {
  BodyRef body;                      // as the frame the drag began on numbered it
  Vec3 anchorInBody = Vec3::Zero();  // grabbed point in the body (principal) frame [m]
  Vec3 target = Vec3::Zero();        // where the cursor wants it [m], world
};

}  // namespace clumplab::sim
