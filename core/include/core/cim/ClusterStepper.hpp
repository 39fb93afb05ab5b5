#pragma once
// One global step of the cluster integration method (Melheim 2005; seed 004) for a ParticleModel:
//   neighbour list with buffer Delta -> clusters -> lifetime T of the cluster list ->
//   each cluster with neighbours integrated on its own with RKF45 from t to t + T, with the forces
//   of its members' neighbour lists only -> free particles moved analytically -> positions wrapped
//   into the periodic box.
// Clusters are processed in index order and each touches only its members' state and its own
// workspace (integrateCluster), so the result is deterministic and clusters could be handed to
// threads as they are (one ClusterWorkspace per thread; the model's callbacks must then be safe to
// call concurrently for disjoint particles).
//
// Contact laws: the callbacks see positions, orientations and velocities only, so elastic springs
// and velocity-dependent dashpots fit; a contact law with history (a tangential spring) would need
// that history integrated as part of each cluster's ODE state, which this does not do.
#include <cstdint>
#include <limits>
#include <vector>

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
};

struct ClusterStepReport {
  double duration = 0.0;  // the step taken [s]: min(lifetime, maxStep, the caller's limit)
  double lifetime = 0.0;  // the cluster list's lifetime [s]
  NeighborCsr neighbors;
  Clusters clusters;
  std::vector<RkfStats> clusterStats;       // per cluster (empty stats for free particles)
  RkfStats total;                           // summed over clusters
  ForceCallCounts forceCalls;               // pair and wall force callbacks made
  std::size_t freeRotationEvaluations = 0;  // by asymmetric free particles
  bool ok = true;                           // every cluster reached t + duration
};

// Scratch of one cluster's integration; one per thread.
struct ClusterWorkspace {
  RigidBodyOde ode;
  RungeKuttaWorkspace rk;
  OdeState y;
  std::vector<RigidBodyInertia> inertia;
  std::vector<double> reach;
};

class ClusterStepper {
 public:
  ClusterStepper(ParticleModel model, ClusterStepSettings settings);

  // Advances `state` (all particles of the model) by one global step of at most `maxDuration` [s].
  ClusterStepReport step(RigidBodySet& state, double maxDuration);

  // Integrates cluster c of `report` (neighbours and clusters filled) over `duration` [s]: reads and
  // writes only the members' entries of `state`. Free clusters move analytically. Returns the
  // integration's statistics and adds its force calls to `calls`.
  RkfStats integrateCluster(const ClusterStepReport& report, std::size_t c, double duration,
                            RigidBodySet& state, ClusterWorkspace& work, ForceCallCounts& calls,
                            std::size_t& freeRotationEvaluations) const;

  const ParticleModel& model() const { return model_; }
  const ClusterStepSettings& settings() const { return settings_; }
  ClusterStepSettings& settings() { return settings_; }

 private:
  ParticleModel model_;
  ClusterStepSettings settings_;
  std::vector<std::uint32_t> localIndex_;  // particle -> its position in its cluster's member list
  ClusterWorkspace work_;
};

}  // namespace clumplab::cim
