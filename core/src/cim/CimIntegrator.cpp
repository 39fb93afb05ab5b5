#include "CimIntegrator.hpp"

#include "core/model/WorldModel.hpp"

namespace clumplab::cim {

OwnForcesStep CimIntegrator::advance(const StepContext& step, OwnForcesHistory& history, double dt,
                                     bool edited) {
  OwnForcesWork& w = history.work();
  OwnForcesStep out;
  out.wallImpulse.assign(step.model.walls.size(), Vec3::Zero());
  if (synchronize(w, step.view(), edited) || !w.integration) {
    ClusterStepSettings s;
    s.buffer = w.buffer;
    s.rkf.relativeTolerance = w.settings.relativeTolerance;
    s.rkf.absoluteTolerance = w.settings.absoluteTolerance;
    s.rkf.minStep = w.settings.minStep;
    s.rkf.maxStep = w.settings.maxStep;
    s.tally = w.tally;
    w.integration.emplace(w.model, s);
  }
  // A step that may be cancelled (the app's, World::setStepCancel) starts from a copy of what it
  // changes, put back if it is: the world and its history are then as before the step.
  struct Before {
    ClusterIntegration::Carried carried;
    RigidBodySet state;
    ContactMemory memory;
  };
  std::optional<Before> before;
  if (step.cancel != nullptr) before = Before{w.integration->carried(), w.state, w.memory};
  try {
    if (w.model.box.any()) out.wrapShift.assign(w.state.size(), Vec3::Zero());
    const IntervalReport r = w.integration->advance(
        w.state, dt, &step.pool, out.wrapShift.empty() ? nullptr : &out.wrapShift, step.cancel, &w.memory);
    if (r.cancelled) {  // only with a flag, so `before` holds the copy
      w.integration->restore(std::move(before->carried));
      w.state = std::move(before->state);
      w.memory = std::move(before->memory);
      OwnForcesStep cancelled;
      cancelled.ok = false;
      cancelled.cancelled = true;
      cancelled.problem = r.problem;
      return cancelled;
    }
    out.dissipated = r.tally.dissipated;
    out.externalWork = r.tally.externalWork;
    for (std::size_t i = 0; i < r.tally.wallImpulse.size() && i < out.wallImpulse.size(); ++i) {
      out.wallImpulse[i] = r.tally.wallImpulse[i];
    }
    out.ok = r.ok;
    out.problem = r.problem;
  } catch (const std::exception& e) {  // e.g. a periodic box too small for the bodies' reach
    out.ok = false;
    out.problem = e.what();
  }
  const ClusterStepReport* list = w.integration->list();
  publish(w, step.bodies, list != nullptr ? &list->neighbors : nullptr, out);
  return out;
}

}  // namespace clumplab::cim
