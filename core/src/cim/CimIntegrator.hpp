#pragma once
// "cim": the cluster integration method (seed 004; Melheim 2005) as a World integrator. A World
// step of dt advances the whole system by exactly dt through as many cluster-list lifetimes as it
// takes: the list (neighbours within the buffer, clusters, lifetime) is built, every cluster is
// integrated with RKF45 and every free particle moved analytically over min(the lifetime left, the
// time left in the step), and a list whose lifetime reaches beyond the step's end carries on into
// the next World step (with each cluster's proposed RKF step), so the World step does not shorten
// the method's global steps. The work of dissipative forces and loads and the wall impulses are
// integrated with each cluster (ClusterStepSettings::tally). Clusters run on the World's thread
// pool; the result does not depend on the number of threads.
#include <optional>
#include <vector>

#include "OwnForcesIntegrator.hpp"
#include "core/cim/ClusterStepper.hpp"

namespace clumplab::cim {

class CimIntegrator final : public OwnForcesIntegrator {
 public:
  OwnForcesStep advance(World& world, double dt, bool edited) override;
  std::unique_ptr<Integrator> clone() const override { return std::make_unique<CimIntegrator>(*this); }

 private:
  std::optional<ClusterStepper> stepper_;
  std::optional<ClusterStepReport> list_;  // the cluster list in use
  double remaining_ = 0.0;                 // of its lifetime [s]
  std::vector<double> nextSteps_;          // per cluster, the RKF step proposed for its next interval
};

}  // namespace clumplab::cim
