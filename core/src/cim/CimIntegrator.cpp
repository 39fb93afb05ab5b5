#include "CimIntegrator.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

#include "core/World.hpp"

namespace clumplab::cim {

namespace {
// More cluster lists than this in one World step means a lifetime absurdly short for the step.
constexpr std::size_t kMaxListsPerStep = 1'000'000;
}  // namespace

OwnForcesStep CimIntegrator::advance(World& world, double dt, bool edited) {
  OwnForcesStep out;
  out.wallImpulse.assign(world.walls().size(), Vec3::Zero());
  if (synchronize(world, edited) || !stepper_) {
    ClusterStepSettings s;
    s.buffer = buffer_;
    s.rkf.relativeTolerance = settings_.relativeTolerance;
    s.rkf.absoluteTolerance = settings_.absoluteTolerance;
    s.rkf.minStep = settings_.minStep;
    s.rkf.maxStep = settings_.maxStep;
    s.tally = tally_;
    stepper_.emplace(model_, s);
    list_.reset();
  }
  try {
    std::size_t lists = 0;
    for (double t = 0.0; t < dt;) {
      if (!list_ || !(remaining_ > 0.0)) {
        if (++lists > kMaxListsPerStep) {
          throw std::runtime_error("the cluster-list lifetime (" + std::to_string(list_->lifetime) +
                                   " s) is far too short for the time step: some body moves very fast");
        }
        list_ = stepper_->prepare(state_);
        remaining_ = list_->lifetime;
        nextSteps_.assign(list_->clusters.count(), 0.0);
      }
      const double left = dt - t;
      const bool lands = remaining_ >= left;  // the list outlives this World step
      const double h = lands ? left : remaining_;
      const ClusterPass pass = stepper_->integrateAll(*list_, h, state_, &world.pool(), nextSteps_);
      for (Vec3& x : state_.position) x = model_.box.wrap(x);
      out.dissipated += pass.tally.dissipated;
      out.externalWork += pass.tally.externalWork;
      for (std::size_t w = 0; w < pass.tally.wallImpulse.size() && w < out.wallImpulse.size(); ++w) {
        out.wallImpulse[w] += pass.tally.wallImpulse[w];
      }
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
        break;
      }
      remaining_ = lands ? remaining_ - h : 0.0;
      t = lands ? dt : t + h;
    }
  } catch (const std::exception& e) {  // e.g. a periodic box too small for the bodies' reach
    out.ok = false;
    out.problem = e.what();
  }
  publish(world, list_ ? &list_->neighbors : nullptr, out);
  return out;
}

}  // namespace clumplab::cim
