#include "Rk4Integrator.hpp"

#include "core/world/World.hpp"

namespace clumplab::cim {

OwnForcesStep Rk4Integrator::advance(World& world, double dt, bool edited) {
  OwnForcesStep out;
  out.wallImpulse.assign(world.walls().size(), Vec3::Zero());
  if (synchronize(world, edited) || !baseline_) baseline_.emplace(model_, buffer_, tally_);
  try {
    if (model_.box.any()) out.wrapShift.assign(state_.size(), Vec3::Zero());
    baseline_->step(state_, dt, out.wrapShift.empty() ? nullptr : &out.wrapShift, &memory_);
  } catch (const std::exception& e) {  // e.g. a periodic box too small for the bodies' reach
    out.ok = false;
    out.problem = e.what();
    publish(world, nullptr, out);
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
  publish(world, &baseline_->neighbors(), out);
  return out;
}

}  // namespace clumplab::cim
