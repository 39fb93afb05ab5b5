#include "core/cim/ClusterIntegration.hpp"

#include <cstdio>
#include <optional>
#include <stdexcept>
#include <utility>
#include "core/base/MemoryBytes.hpp"

namespace clumplab::cim {

namespace {
// More cluster lists than this in one interval means a lifetime absurdly short for it.
constexpr std::size_t kMaxListsPerInterval = 10'000'000;
}  // namespace

std::size_t ClusterIntegration::memoryBytes() const {
  return stepper_.memoryBytes() + (list_ ? list_->memoryBytes() : 0) + elementBytes(nextSteps_);
}

ClusterIntegration::ClusterIntegration(ParticleModel model, ClusterStepSettings settings)
    : stepper_(std::move(model), std::move(settings)) {}

IntervalReport ClusterIntegration::advance(RigidBodySet& state, double duration, ThreadPool* pool,
                                           std::vector<Vec3>* wrapShifts, const std::atomic<bool>* cancel,
                                           ContactMemory* memory) {
  if (memory != nullptr && !stepper_.model().keepsMemory()) memory = nullptr;
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
  // Where the list in use began, when it began within this interval: what a missed contact found
  // at the next list takes it again from.
  struct ListStart {
    double t = 0.0;
    RigidBodySet state;
    IntervalReport out;
    std::vector<Vec3> wrapShifts;
    ContactMemory memory;
  };
  // A body already blown up (NaN or infinite, as an edit or an earlier run may leave it) has no list
  // lifetime: every list would end at once, and the interval never would.
  for (std::size_t i = 0; i < state.size(); ++i) {
    if (state.position[i].allFinite() && state.velocity[i].allFinite() &&
        state.orientation[i].coeffs().allFinite() && state.bodyAngularVelocity[i].allFinite())
      continue;
    char text[120];
    std::snprintf(text, sizeof text, "body %zu has a non-finite position or velocity", i);
    out.ok = false;
    out.problem = text;
    return out;
  }
  std::optional<ListStart> start;
  bool retaking = false;  // the list in use is a retake
  for (double t = 0.0; t < duration;) {
    if (cancelled()) return out;
    if (!list_ || !(remaining_ > 0.0)) {
      if (++out.lists > kMaxListsPerInterval) {
        throw std::runtime_error(
            "the cluster-list lifetime is far too short for the interval: some body moves "
            "very fast");
      }
      std::optional<ClusterStepReport> previous = std::move(list_);
      list_ = stepper_.prepare(state);
      const NeighborCsr::Overlap* missed = previous ? missedContact(*previous, *list_) : nullptr;
      if (missed != nullptr && start && !retaking) {
        t = start->t;
        state = start->state;
        out = start->out;
        if (wrapShifts != nullptr) *wrapShifts = start->wrapShifts;
        if (memory != nullptr) *memory = start->memory;
        ++out.retakenLists;
        list_ = stepper_.prepare(state);
        list_->displacementLimit *= 0.5;
        retaking = true;
      } else if (missed != nullptr) {
        char text[500];
        std::snprintf(text, sizeof text,
                      "the cluster integration missed a contact: bodies %u and %u overlap by %.3g m although "
                      "they were in different clusters of the cluster list before (built %s); the "
                      "buffer cim.buffer (%.3g m) or the tolerance cim.rtol may be too large for their "
                      "speeds",
                      missed->i, missed->j, missed->depth,
                      retaking ? "again with half the displacement limit" : "in an earlier step",
                      stepper_.settings().buffer);
        out.ok = false;
        out.problem = text;
        out.missedBodies = {missed->i, missed->j};
        return out;
      } else {
        retaking = false;
        start = ListStart{t, state, out, wrapShifts != nullptr ? *wrapShifts : std::vector<Vec3>{},
                          memory != nullptr ? *memory : ContactMemory{}};
      }
      remaining_ = list_->lifetime;
      nextSteps_.assign(list_->clusters.count(), 0.0);
    }
    const double left = duration - t;
    const bool lands = remaining_ >= left;  // the list outlives this interval
    const double h = lands ? left : remaining_;
    const double elapsed = list_->lifetime - remaining_;
    const ClusterPass pass = stepper_.integrateAll(*list_, elapsed, h, state, pool, nextSteps_, memory);
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
    if (pass.exhausted) {  // a body reached its share of the buffer: a new list from here
      ++out.boundedPasses;
      if (!(pass.duration > 0.0) && !(elapsed > 0.0)) {
        out.ok = false;
        out.problem =
            "the cluster integration stopped: a body reaches its share of the buffer at once after "
            "the cluster list is built (it moves far faster than the list's lifetime assumes)";
        return out;
      }
      remaining_ = 0.0;
      t = lands && pass.duration == h ? duration : t + pass.duration;
      continue;
    }
    remaining_ = lands ? remaining_ - h : 0.0;
    t = lands ? duration : t + h;
  }
  return out;
}

const NeighborCsr::Overlap* ClusterIntegration::missedContact(const ClusterStepReport& before,
                                                              const ClusterStepReport& now) {
  const std::vector<std::uint32_t>& cluster = before.clusters.clusterOf;
  // Slivers are the integration's error, not a miss (see ClusterStepper::integrateAll).
  const double sliver = kMissSliver * 2.0 * before.displacementLimit;
  for (const NeighborCsr::Overlap& o : now.neighbors.overlaps) {
    if (o.depth > sliver && o.i < cluster.size() && o.j < cluster.size() && cluster[o.i] != cluster[o.j])
      return &o;
  }
  return nullptr;
}

}  // namespace clumplab::cim
