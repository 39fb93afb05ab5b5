#include "Rk4Integrator.hpp"

#include "core/model/WorldModel.hpp"

namespace clumplab::cim {

OwnForcesStep Rk4Integrator::advance(const StepContext& step, OwnForcesHistory& history, double dt,
                                     bool edited) {
  OwnForcesWork& w = history.work();
  OwnForcesStep out;
  out.wallImpulse.assign(step.model.walls.size(), Vec3::Zero());
  if (synchronize(w, step.view(), edited) || !w.baseline) w.baseline.emplace(w.model, w.buffer, w.tally);
  try {
    if (w.model.box.any()) out.wrapShift.assign(w.state.size(), Vec3::Zero());
    w.baseline->step(w.state, dt, out.wrapShift.empty() ? nullptr : &out.wrapShift, &w.memory);
  } catch (const std::exception& e) {  // e.g. a periodic box too small for the bodies' reach
    out.ok = false;
    out.problem = e.what();
    publish(w, step.bodies, nullptr, out);
    return out;
  }
  if (w.tally) {
    const TallyIntegral& tally = w.baseline->lastTally();
    out.dissipated = tally.dissipated;
    out.externalWork = tally.externalWork;
    for (std::size_t i = 0; i < tally.wallImpulse.size() && i < out.wallImpulse.size(); ++i) {
      out.wallImpulse[i] = tally.wallImpulse[i];
    }
  }
  publish(w, step.bodies, &w.baseline->neighbors(), out);
  return out;
}

}  // namespace clumplab::cim
