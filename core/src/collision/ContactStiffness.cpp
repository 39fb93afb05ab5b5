// The contact laws as spring-dashpots for the time-step estimate (ContactStiffness.hpp).
#include "core/collision/ContactStiffness.hpp"

#include <algorithm>
#include <cmath>

namespace clumplab {

ContactStiffness contactStiffness(const ContactModel& model, double pebbleRadius) {
  ContactStiffness s;
  const double h = 0.01 * pebbleRadius;  // the reference overlap of the Hertz laws [m]
  switch (model.kind) {
    case ContactModel::Kind::Linear: {
      const LinearContactParameters& p = model.linear;
      s.normal = p.stiffness;
      if (p.dampingFromRestitution) {
        s.normalDampingPerRootMass = 2.0 * dampingRatioForRestitution(p.restitution) * std::sqrt(p.stiffness);
      } else {
        s.normalDampingFixed = p.damping;
      }
      if (p.friction > 0.0) {
        s.tangential = p.tangentialStiffnessRatio * p.stiffness;
        s.tangentialDampingFixed = p.tangentialDamping;
      }
      break;
    }
    case ContactModel::Kind::Hertz: {
      // Mutze, Polyspherical grains, eq. 57 with r~ = r: dF/dh = 3/2 F / h. Its regularized friction
      // saturates at mu F_n, so it can make the tangential speed chatter within nu but not diverge:
      // it sets no step here.
      const HertzContactParameters& p = model.hertz;
      const double e = p.young / (1.0 - p.poisson * p.poisson);
      s.normal = 1.5 * std::sqrt(3.0) / 2.0 * e * std::sqrt(pebbleRadius) * std::sqrt(h);
      // Its unloading branch is 1/delta stiffer. Taken up to 100 times: on a steeper branch (delta
      // below 0.01) an oscillation can span no more than delta h_max before it leaves the branch
      // (to zero force, or to loading, which dissipates), so it chatters within that and cannot grow;
      // delta = 0 unloads to zero force at once and has no branch to oscillate on.
      if (p.restitutionSquared > 0.0) {
        s.normal *= std::min(p.largestStiffnessFactor(), 100.0);
        // The branch's dashpot on approach strokes (ContactKernels.hpp, hertzForce), taken as if it acted
        // on every stroke.
        s.normalDampingPerRootMass = 2.0 * p.branchDampingRatio() * std::sqrt(s.normal);
      }
      break;
    }
    case ContactModel::Kind::HertzMindlin: {
      // S_n = 2 E* sqrt(R* h) with R* = r/2, S_t = 8 G* sqrt(R* h); dashpots 2 sqrt(5/6) zeta sqrt(S m)
      // (Tsuji, Tanaka & Ishida 1992).
      const HertzMindlinContactParameters& p = model.hertzMindlin;
      const double root = std::sqrt(0.5 * pebbleRadius * h);
      const double zeta = 2.0 * std::sqrt(5.0 / 6.0) * dampingRatioForRestitution(p.restitution);
      s.normal = 2.0 * p.effectiveYoung() * root;
      s.normalDampingPerRootMass = zeta * std::sqrt(s.normal);
      if (p.friction > 0.0) {
        s.tangential = 8.0 * p.effectiveShear() * root;
        s.tangentialDampingPerRootMass = zeta * std::sqrt(s.tangential);
      }
      break;
    }
  }
  return s;
}

}  // namespace clumplab
