#include "core/cim/ClusterStepper.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/cim/ClusterLifetime.hpp"

namespace clumplab::cim {

ClusterStepper::ClusterStepper(ParticleModel model, ClusterStepSettings settings)
    : model_(std::move(model)), settings_(std::move(settings)) {
  if (model_.reach.size() != model_.inertia.size()) {
    throw std::invalid_argument("ClusterStepper: one reach per particle needed");
  }
  if (!(settings_.buffer > 0.0)) throw std::invalid_argument("ClusterStepper: the buffer must be positive");
}

RkfStats ClusterStepper::integrateCluster(const ClusterStepReport& report, std::size_t c, double duration,
                                          RigidBodySet& state, ClusterWorkspace& work, ForceCallCounts& calls,
                                          std::size_t& freeRotationEvaluations) const {
  const std::span<const std::uint32_t> members = report.clusters.membersOf(c);
  if (report.clusters.isFree[c] != 0) {
    const std::uint32_t i = members.front();
    freeFlight(state.position[i], state.velocity[i], model_.gravity, duration);
    freeRotationEvaluations += rotateFreely(model_.inertia[i].moments, state.orientation[i],
                                            state.bodyAngularVelocity[i], duration, settings_.freeRotation)
                                   .evaluations;
    RkfStats stats;
    stats.finished = true;
    return stats;
  }
  work.inertia.clear();
  work.reach.clear();
  for (const std::uint32_t i : members) {
    work.inertia.push_back(model_.inertia[i]);
    work.reach.push_back(model_.reach[i]);
  }
  ForceCallCounts local;
  work.ode.reset(work.inertia, model_.gravity,
                 [&](const RigidBodySet& s, std::vector<Vec3>& forces, std::vector<Vec3>& torques) {
                   local.add(listForces(model_, report.neighbors, members, localIndex_, s, forces, torques));
                 });
  // Positions relative to the first member's, each with its reach as the least length in the error
  // scale: position errors are measured against the cluster's extent and the particles' sizes, the
  // same wherever in the box the cluster is.
  const Vec3 origin = state.position[members.front()];
  work.ode.setPositionOrigin(origin);
  work.ode.setPositionScales(work.reach);
  packBodies(state, members, work.y, origin);
  const RkfStats stats = integrateRkf45(work.ode, 0.0, duration, work.y, settings_.rkf, work.rk);
  unpackBodies(work.y, members, state, origin);
  calls.add(local);
  return stats;
}

ClusterStepReport ClusterStepper::step(RigidBodySet& state, double maxDuration) {
  if (state.size() != model_.size()) throw std::invalid_argument("ClusterStepper::step: state size mismatch");
  ClusterStepReport report;
  report.neighbors = neighborsOf(model_, state, settings_.buffer);
  report.clusters = findClusters(report.neighbors);
  const std::vector<double> speeds = pointSpeeds(model_, state);
  // Uniform gravity moves all particles alike: it matters only against walls.
  const double acceleration = model_.wallCount > 0 ? model_.gravity.norm() : 0.0;
  report.lifetime = clusterLifetime(speeds, settings_.buffer, acceleration);
  report.duration = std::min({report.lifetime, settings_.maxStep, maxDuration});
  if (!(report.duration < std::numeric_limits<double>::infinity())) {
    throw std::invalid_argument(
        "ClusterStepper::step: unbounded step (particles at rest and no limit given)");
  }

  localIndex_.resize(state.size());
  for (std::size_t c = 0; c < report.clusters.count(); ++c) {
    const std::span<const std::uint32_t> members = report.clusters.membersOf(c);
    for (std::size_t k = 0; k < members.size(); ++k) localIndex_[members[k]] = static_cast<std::uint32_t>(k);
  }
  report.clusterStats.resize(report.clusters.count());
  for (std::size_t c = 0; c < report.clusters.count(); ++c) {
    report.clusterStats[c] = integrateCluster(report, c, report.duration, state, work_, report.forceCalls,
                                              report.freeRotationEvaluations);
    report.total.add(report.clusterStats[c]);
    report.ok = report.ok && report.clusterStats[c].finished;
  }
  for (Vec3& x : state.position) x = model_.box.wrap(x);
  return report;
}

}  // namespace clumplab::cim
