#pragma once
// The cluster integration method over any interval (Meland et al., Cluster integration method): cluster lists
// built one after the other, each used for its lifetime, an interval ending inside a list's lifetime leaving
// the rest of it for the next interval (with each cluster's proposed RKF step), so the caller's intervals (a
// World step, the sampling of a run) do not shorten the method's global steps. Positions are wrapped
// into the periodic box after every pass. Copyable: a copy continues with the same bits.
//
// No contact is missed: a list ends early where a body of a cluster reaches its share of the buffer
// (ClusterStepper::integrateAll), and a guard checks every new list: bodies that overlap although
// they were in different clusters of the list before met without a force between them. A list that
// began within the same interval is then taken again with half the displacement limit; otherwise (or
// if that finds the miss again) the interval stops, not ok, naming the two bodies.
#include <atomic>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/base/ThreadPool.hpp"
#include "core/cim/ClusterStepper.hpp"

namespace clumplab::cim {

// What one interval took.
struct IntervalReport {
  std::size_t lists = 0;                // cluster lists built
  std::size_t passes = 0;               // integrations of all clusters (a list's lifetime or part of it)
  std::size_t freeMoves = 0;            // analytic moves of free particles
  std::size_t clusterIntegrations = 0;  // RKF integrations of clusters with neighbours or walls
  std::size_t boundedPasses = 0;        // passes ended early by the displacement limit (a new list then)
  std::size_t retakenLists = 0;         // lists taken again after a missed contact was found
  RkfStats total;                       // RKF steps and evaluations, summed
  ForceCallCounts forceCalls;
  TallyIntegral tally;     // with ClusterStepSettings::tally
  bool ok = true;          // false: some cluster's RKF did not finish (see `problem`)
  bool cancelled = false;  // not ok because the cancel flag was set
  std::string problem;
  // Not ok because a contact was missed (see the class comment): the two bodies.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> missedBodies;
};

class ClusterIntegration {
 public:
  ClusterIntegration(ParticleModel model, ClusterStepSettings settings);

  // Advances `state` by exactly `duration` [s] (clusters on `pool` when given). With `wrapShifts`
  // (sized like the state), each body's wraps into the periodic box are added to its entry [m].
  // Once `cancel` is set (any thread) it stops, not ok and `cancelled`: before the next pass, and
  // within a pass through each cluster's RkfSettings::cancel. The state and the carried list are
  // then partly advanced: the caller restores what it saved (carried(), restore()). `memory`: the
  // contacts' memory of a model that keeps one (ClusterStepper::integrateAll), advanced with the state
  // (and, like it, partly advanced by a cancelled interval).
  IntervalReport advance(RigidBodySet& state, double duration, ThreadPool* pool = nullptr,
                         std::vector<Vec3>* wrapShifts = nullptr, const std::atomic<bool>* cancel = nullptr,
                         ContactMemory* memory = nullptr);
  // Forgets the cluster list (after the state was edited from outside).
  void invalidate() { list_.reset(); }

  // What one interval hands on to the next: the list, its remaining lifetime and the RKF steps
  // proposed. Saved before an interval that may be cancelled and restored after it was, the
  // interval taken again gives the same bits.
  struct Carried {
    std::optional<ClusterStepReport> list;
    double remaining = 0.0;
    std::vector<double> nextSteps;
  };
  Carried carried() const { return {list_, remaining_, nextSteps_}; }
  void restore(Carried carried) {
    list_ = std::move(carried.list);
    remaining_ = carried.remaining;
    nextSteps_ = std::move(carried.nextSteps);
  }

  // The list in use (after an interval: valid for the state), or null.
  const ClusterStepReport* list() const { return list_ ? &*list_ : nullptr; }
  const ClusterStepper& stepper() const { return stepper_; }
  // Memory it holds [bytes] as a copy holds it: the model, the carried list and steps (no working
  // memory).
  std::size_t memoryBytes() const;
  ClusterStepper& stepper() { return stepper_; }

  // The first pair of `now`'s overlapping bodies that were in different clusters of `before` (a
  // contact the list before did not see), or null. Overlaps up to kMissSliver of the buffer are the
  // integration's error where a body ended at its displacement limit, not a miss.
  static constexpr double kMissSliver = 1e-3;
  static const NeighborCsr::Overlap* missedContact(const ClusterStepReport& before,
                                                   const ClusterStepReport& now);

 private:
  ClusterStepper stepper_;
  std::optional<ClusterStepReport> list_;
  double remaining_ = 0.0;         // of the list's lifetime [s]
  std::vector<double> nextSteps_;  // per cluster, the RKF step proposed for its next interval
};

}  // namespace clumplab::cim
