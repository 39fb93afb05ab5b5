#pragma once
// The cluster integration method over any interval (seed 004): cluster lists built one after the
// other, each used for its lifetime, an interval ending inside a list's lifetime leaving the rest of
// it for the next interval (with each cluster's proposed RKF step), so the caller's intervals (a
// World step, the sampling of a run) do not shorten the method's global steps. Positions are wrapped
// into the periodic box after every pass. Copyable: a copy continues with the same bits.
#include <atomic>
#include <optional>
#include <vector>

#include "core/ThreadPool.hpp"
#include "core/cim/ClusterStepper.hpp"

namespace clumplab::cim {

// What one interval took.
struct IntervalReport {
  std::size_t lists = 0;                // cluster lists built
  std::size_t passes = 0;               // integrations of all clusters (a list's lifetime or part of it)
  std::size_t freeMoves = 0;            // analytic moves of free particles
  std::size_t clusterIntegrations = 0;  // RKF integrations of clusters with neighbours or walls
  RkfStats total;                       // RKF steps and evaluations, summed
  ForceCallCounts forceCalls;
  TallyIntegral tally;  // with ClusterStepSettings::tally
  bool ok = true;       // false: some cluster's RKF did not finish (see `problem`)
  std::string problem;
};

class ClusterIntegration {
 public:
  ClusterIntegration(ParticleModel model, ClusterStepSettings settings);

  // Advances `state` by exactly `duration` [s] (clusters on `pool` when given). With `wrapShifts`
  // (sized like the state), each body's wraps into the periodic box are added to its entry [m].
  // Once `cancel` is set (any thread) it stops before the next pass, not ok ("cancelled").
  IntervalReport advance(RigidBodySet& state, double duration, ThreadPool* pool = nullptr,
                         std::vector<Vec3>* wrapShifts = nullptr, const std::atomic<bool>* cancel = nullptr);
  // Forgets the cluster list (after the state was edited from outside).
  void invalidate() { list_.reset(); }

  // The list in use (after an interval: valid for the state), or null.
  const ClusterStepReport* list() const { return list_ ? &*list_ : nullptr; }
  const ClusterStepper& stepper() const { return stepper_; }

 private:
  ClusterStepper stepper_;
  std::optional<ClusterStepReport> list_;
  double remaining_ = 0.0;         // of the list's lifetime [s]
  std::vector<double> nextSteps_;  // per cluster, the RKF step proposed for its next interval
};

}  // namespace clumplab::cim
