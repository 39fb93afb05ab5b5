#include "CimIntegrator.hpp"

#include "core/model/WorldModel.hpp"

namespace clumplab::cim {

OwnForcesStep CimIntegrator::advance(const StepContext& step, double dt, bool edited) {
  OwnForcesStep out;
  out.wallImpulse.assign(step.model.walls.size(), Vec3::Zero());
  if (synchronize(step.view(), edited) || !integration_) {
    ClusterStepSettings s;
    s.buffer = buffer_;
    s.rkf.relativeTolerance = settings_.relativeTolerance;
    s.rkf.absoluteTolerance = settings_.absoluteTolerance;
    s.rkf.minStep = settings_.minStep;
    s.rkf.maxStep = settings_.maxStep;
    s.tally = tally_;
    integration_.emplace(model_, s);
  }
  // A step that may be cancelled (the app's, World::setStepCancel) starts from a copy of what it
  // changes, put back if it is: the world and this integrator are then as before the step.
  struct Before {
    ClusterIntegration::Carried carried;
    RigidBodySet state;
    ContactMemory memory;
  };
  std::optional<Before> before;
  if (step.cancel != nullptr) before = Before{integration_->carried(), state_, memory_};
  try {
    if (model_.box.any()) out.wrapShift.assign(state_.size(), Vec3::Zero());
    const IntervalReport r = integration_->advance(
        state_, dt, &step.pool, out.wrapShift.empty() ? nullptr : &out.wrapShift, step.cancel, &memory_);
    if (r.cancelled) {  // only with a flag, so `before` holds the copy
      integration_->restore(std::move(before->carried));
      state_ = std::move(before->state);
      memory_ = std::move(before->memory);
      OwnForcesStep cancelled;
      cancelled.ok = false;
      cancelled.cancelled = true;
      cancelled.problem = r.problem;
      return cancelled;
    }
    out.dissipated = r.tally.dissipated;
    out.externalWork = r.tally.externalWork;
    for (std::size_t w = 0; w < r.tally.wallImpulse.size() && w < out.wallImpulse.size(); ++w) {
      out.wallImpulse[w] = r.tally.wallImpulse[w];
    }
    out.ok = r.ok;
    out.problem = r.problem;
  } catch (const std::exception& e) {  // e.g. a periodic box too small for the bodies' reach
    out.ok = false;
    out.problem = e.what();
  }
  const ClusterStepReport* list = integration_->list();
  publish(step.bodies, list != nullptr ? &list->neighbors : nullptr, out);
  return out;
}

}  // namespace clumplab::cim
