#include "core/cim/ClusterIntegration.hpp"

#include <cstdio>
#include <stdexcept>
#include <utility>

namespace clumplab::cim {

namespace {
// More cluster lists than this in one interval means a lifetime absurdly short for it.
constexpr std::size_t kMaxListsPerInterval = 10'000'000;
}  // namespace

ClusterIntegration::ClusterIntegration(ParticleModel model, ClusterStepSettings settings)
    : stepper_(std::move(model), std::move(settings)) {}

IntervalReport ClusterIntegration::advance(RigidBodySet& state, double duration, ThreadPool* pool,
                                           std::vector<Vec3>* wrapShifts, const std::atomic<bool>* cancel) {
  IntervalReport out;
  const std::size_t walls = stepper_.model().wallCount;
  if (stepper_.settings().tally) out.tally.wallImpulse.assign(walls, Vec3::Zero());
  stepper_.settings().rkf.cancel = cancel;  // each cluster's RKF stops too, not only between passes
  const auto cancelled = [&] {
    if (cancel == nullptr || !cancel->load(std::memory_order_relaxed)) return false;
    out.ok = false;
    out.cancelled = true;
    out.problem = "the step was cancelled";
    return true;
  };
  for (double t = 0.0; t < duration;) {
    if (cancelled()) return out;
    if (!list_ || !(remaining_ > 0.0)) {
      if (++out.lists > kMaxListsPerInterval) {
        throw std::runtime_error(
            "the cluster-list lifetime is far too short for the interval: some body moves "
            "very fast");
      }
      list_ = stepper_.prepare(state);
      remaining_ = list_->lifetime;
      nextSteps_.assign(list_->clusters.count(), 0.0);
    }
    const double left = duration - t;
    const bool lands = remaining_ >= left;  // the list outlives this interval
    const double h = lands ? left : remaining_;
    const ClusterPass pass = stepper_.integrateAll(*list_, h, state, pool, nextSteps_);
    wrapPositions(stepper_.model().box, state, wrapShifts);
    ++out.passes;
    const std::size_t free = list_->clusters.freeCount();
    out.freeMoves += free;
    out.clusterIntegrations += list_->clusters.count() - free;
    out.total.add(pass.total);
    out.forceCalls.add(pass.forceCalls);
    out.tally.add(pass.tally);
    if (!pass.ok && cancelled()) return out;
    if (!pass.ok) {
      char text[400];
      std::snprintf(
          text, sizeof text,
          "a cluster's Runge-Kutta-Fehlberg integration did not reach the end of its %.3g s interval "
          "(%zu steps, %zu rejected, the smallest %.3g s: too many steps, or a non-finite state): "
          "raise the minimum step (cim.min_step) or the tolerance",
          h, pass.total.accepted, pass.total.rejected, pass.total.smallestStep);
      out.ok = false;
      out.problem = text;
      return out;
    }
    remaining_ = lands ? remaining_ - h : 0.0;
    t = lands ? duration : t + h;
  }
  return out;
}

}  // namespace clumplab::cim
