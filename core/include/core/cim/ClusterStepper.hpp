#pragma once
// One global step of the cluster integration method (Melheim 2005; Meland et al., Cluster integration method)
// for a ParticleModel:
//   neighbour list with buffer Delta -> clusters -> lifetime T of the cluster list ->
//   each cluster with neighbours integrated on its own with RKF45 from t to t + T, with the forces
//   of its members' neighbour lists only -> free particles moved analytically -> positions wrapped
//   into the periodic box.
// The list may also be used in parts (prepare, then integrate over several intervals that add up to
// at most its lifetime: what a World step that ends inside the lifetime does).
// Each cluster touches only its members' state and its own workspace (integrateCluster), so the
// result is deterministic and does not depend on how clusters are spread over threads
// (integrateAll; the model's callbacks must then be safe to call concurrently for disjoint
// particles, which plain functions of the state are).
//
// Contact laws: the callbacks see positions, orientations and velocities only, so elastic springs
// and velocity-dependent dashpots fit; a contact law with history (a tangential spring) would need
// that history integrated as part of each cluster's ODE state, which this does not do. A law that
// keeps a number per contact that changes only as the state passes it (Mutze's largest overlap) has it
// in a ContactMemory (ParticleModel.hpp): read by the forces, brought up to the state after each
// accepted RKF step of a cluster (commitContacts), the energy that dissipates added to the tally.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/base/Scratch.hpp"
#include "core/base/ThreadPool.hpp"
#include "core/cim/Clusters.hpp"
#include "core/cim/FreeMotion.hpp"
#include "core/cim/ParticleModel.hpp"
#include "core/cim/RungeKutta.hpp"

namespace clumplab::cim {

struct ClusterStepSettings {
  double buffer = 0.0;  // Delta [m]
  RkfSettings rkf;      // per-cluster integration (the paper: rtol 1e-5, atol 1e-20, dt_min tuned)
  FreeRotationSettings freeRotation;
  double maxStep = std::numeric_limits<double>::infinity();  // cap on one global step [s]
  // Integrate the ForceTally of each cluster's forces (dissipated and external work, wall
  // impulses) alongside its bodies (TallyIntegral). Off: nothing extra is integrated.
  bool tally = false;
  // Hold every body of a cluster within its share of the buffer (ClusterStepReport::
  // displacementLimit) while the list is in use, ending the list early where one would leave it
  // (integrateAll). Off only to test what catches a missed contact without it.
  bool boundDisplacements = true;
};

// The time integral of a ForceTally over an interval.
struct TallyIntegral {
  double dissipated = 0.0;        // [J] work taken out by dissipative forces (>= 0 up to round-off)
  double externalWork = 0.0;      // [J] work done by loads
  std::vector<Vec3> wallImpulse;  // per wall of the model [N s], given to the wall
  void add(const TallyIntegral& other);
};

// The extra ODE components that integrate a ForceTally (RigidBodyOde's extras): the dissipated
// work, the external work, then three per wall (its impulse).
inline std::size_t tallyComponentCount(std::size_t wallCount) {
  return 2 + 3 * wallCount;
}
// The rates of those components from a tally whose wallForces were collected in `wallForces`.
void writeTallyRates(const ForceTally& tally, std::span<const Vec3> wallForces, std::span<double> rates);
// Adds the integrated components (after the bodies' 13 n in `y`) to `out`.
void readTallyIntegral(std::span<const double> extras, std::size_t wallCount, TallyIntegral& out);

struct ClusterStepReport {
  double duration = 0.0;  // the step taken [s]: min(lifetime, maxStep, the caller's limit)
  double lifetime = 0.0;  // the cluster list's lifetime [s]
  NeighborCsr neighbors;
  Clusters clusters;
  std::vector<std::uint32_t> localIndex;  // particle -> its position in its cluster's member list
  std::vector<double> speeds;             // per particle, its lifetime speed bound [m/s]
  // Where the particles were when the list was built, and how far a point of a clustered one may
  // move from there while the list is in use [m] (Delta / 2: two bodies that are not neighbours,
  // more than Delta apart, can then not touch). Uniform gravity moves every body alike, so without
  // walls the displacement is measured in the frame that falls with it from rest.
  std::vector<Vec3> startPosition;
  std::vector<Quat> startOrientation;
  double displacementLimit = 0.0;
  std::vector<RkfStats> clusterStats;       // per cluster (empty stats for free particles)
  RkfStats total;                           // summed over clusters
  ForceCallCounts forceCalls;               // pair and wall force callbacks made
  std::size_t freeRotationEvaluations = 0;  // by asymmetric free particles
  TallyIntegral tally;                      // with ClusterStepSettings::tally
  bool ok = true;                           // every cluster reached t + duration
  std::size_t memoryBytes() const;          // [bytes], as a copy holds it
};

// Scratch of one cluster's integration; one per thread.
struct ClusterWorkspace {
  RigidBodyOde ode;
  RungeKuttaWorkspace rk;
  OdeState y;
  std::vector<RigidBodyInertia> inertia;
  std::vector<double> reach;
  std::vector<Vec3> wallForces;
  RigidBodySet accepted;  // the members after an accepted step (ContactMemory commits)
};

// One cluster's integration over an interval.
struct ClusterRun {
  RkfStats stats;
  ForceCallCounts calls;
  std::size_t freeRotationEvaluations = 0;
  TallyIntegral tally;  // with ClusterStepSettings::tally
};

// All clusters over one interval.
struct ClusterPass {
  // The interval taken [s]: the one asked for, or less where a body reached the displacement limit
  // (the list must then be rebuilt).
  double duration = 0.0;
  std::size_t retakes = 0;  // clusters integrated again over a shorter interval for that
  bool exhausted = false;   // a body reached the displacement limit: the list must be rebuilt
  RkfStats total;
  ForceCallCounts forceCalls;
  std::size_t freeRotationEvaluations = 0;
  TallyIntegral tally;
  bool ok = true;
};

class ClusterStepper {
 public:
  ClusterStepper(ParticleModel model, ClusterStepSettings settings);

  // Advances `state` (all particles of the model) by one global step of at most `maxDuration` [s].
  // `memory`: the contacts' memory when the model keeps one (without it they start afresh every step).
  ClusterStepReport step(RigidBodySet& state, double maxDuration, ContactMemory* memory = nullptr);

  // The neighbour list, clusters, local indices and lifetime of `state` (report.duration is 0 and
  // nothing is integrated). The lifetime bounds the time in which no point of a particle can move
  // Delta/2 (ClusterLifetime.hpp), with the model's accelerations of driven particles and, when
  // there are walls, gravity.
  ClusterStepReport prepare(const RigidBodySet& state) const;

  // Integrates every cluster of `report` over `duration` [s] (free ones analytically), `elapsed` [s]
  // of the list's time having passed before, on `pool` when given; `initialSteps` (empty, or one per
  // cluster) are the RKF45 starting steps (0: automatic), replaced by each cluster's proposal for
  // its next step. Positions are not wrapped.
  // With ClusterStepSettings::boundDisplacements, a cluster stops where one of its bodies would
  // move beyond the displacement limit; the pass then ends at the earliest such time
  // (ClusterPass::duration), the clusters that went further integrated again from the pass's start
  // to it (once, unbounded). A collision inside a cluster can make a body far
  // faster than the lifetime assumed (a light sphere struck by a heavy one leaves at twice its
  // speed); this keeps it from reaching a body of another cluster that the list does not pair it
  // with. `memory` (for a model that keeps one; sized to the model here): read by the forces and
  // committed after every accepted step, a retaken cluster's put back with its state.
  ClusterPass integrateAll(const ClusterStepReport& report, double elapsed, double duration,
                           RigidBodySet& state, ThreadPool* pool = nullptr,
                           std::span<double> initialSteps = {}, ContactMemory* memory = nullptr);

  // Integrates cluster c of `report` over `duration` [s]: reads and writes only the members' entries
  // of `state`. Free clusters move analytically. `initialStep`: RKF45's first step (0: automatic).
  // `limit` > 0 [m]: it stops where a member's point would move farther than that from where the
  // list was built (`elapsed` [s] of the list's time passed before; RkfStats::bounded). `memory`: the
  // contacts' memory (one entry per particle), of which it reads and writes the members' entries only.
  ClusterRun integrateCluster(const ClusterStepReport& report, std::size_t c, double elapsed, double duration,
                              RigidBodySet& state, ClusterWorkspace& work, double initialStep = 0.0,
                              double limit = 0.0, ContactMemory* memory = nullptr) const;

  // A body that moves exactly as its speed at the build predicts reaches the limit exactly at the
  // lifetime's end: the bound lets it overshoot by round-off.
  static constexpr double kLimitRoundOff = 1e-9;

  const ParticleModel& model() const { return model_; }
  const ClusterStepSettings& settings() const { return settings_; }
  // Memory it holds [bytes] as a copy holds it (the model; no working memory).
  std::size_t memoryBytes() const { return model_.memoryBytes(); }
  ClusterStepSettings& settings() { return settings_; }

 private:
  ParticleModel model_;
  ClusterStepSettings settings_;
  // What integrateAll works in and overwrites before reading (a copy starts without it).
  struct PassWork {
    std::vector<ClusterWorkspace> chunks;  // one per parallel chunk
    std::vector<ClusterRun> runs;          // per cluster
    RigidBodySet start;                    // the state at a pass's start (bounded passes)
    std::vector<double> startSteps;        // and the clusters' starting steps
    ContactMemory startMemory;             // and the contacts' memory
  };
  Scratch<PassWork> work_;
};

}  // namespace clumplab::cim
