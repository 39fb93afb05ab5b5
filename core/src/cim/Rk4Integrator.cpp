#include "Rk4Integrator.hpp"

#include "core/model/WorldModel.hpp"

namespace clumplab::cim {

OwnForcesStep Rk4Integrator::advance(const StepContext& step, double dt, bool edited) {
  OwnForcesStep out;
  out.wallImpulse.assign(step.model.walls.size(), Vec3::Zero());
  if (synchronize(step.view(), edited) || !baseline_) baseline_.emplace(model_, buffer_, tally_);
  try {
    if (model_.box.any()) out.wrapShift.assign(state_.size(), Vec3::Zero());
    baseline_->step(state_, dt, out.wrapShift.empty() ? nullptr : &out.wrapShift, &memory_);
  } catch (const std::exception& e) {  // e.g. a periodic box too small for the bodies' reach
    out.ok = false;
    out.problem = e.what();
    publish(step.bodies, nullptr, out);
    return out;
  }
  if (tally_) {
    const TallyIntegral& tally = baseline_->lastTally();
    out.dissipated = tally.dissipated;
    out.externalWork = tally.externalWork;
    for (std::size_t w = 0; w < tally.wallImpulse.size() && w < out.wallImpulse.size(); ++w) {
      out.wallImpulse[w] = tally.wallImpulse[w];
    }
  }
  publish(step.bodies, &baseline_->neighbors(), out);
  return out;
}

}  // namespace clumplab::cim
