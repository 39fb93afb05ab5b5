#pragma once
// "cim": the cluster integration method (Meland et al., Cluster integration method; Melheim 2005) as a World
// integrator. A World step of dt advances the whole system by exactly dt through as many cluster-list
// lifetimes as it takes (ClusterIntegration: a list whose lifetime reaches beyond the step's end carries on
// into the next World step, so the World step does not shorten the method's global steps). The work of
// dissipative forces and loads and the wall impulses are integrated with each cluster
// (ClusterStepSettings::tally). Clusters run on the World's thread pool; the result does not depend
// on the number of threads.
#include "OwnForcesIntegrator.hpp"

namespace clumplab::cim {

class CimIntegrator final : public OwnForcesIntegrator {
 public:
  OwnForcesStep advance(const StepContext& step, OwnForcesHistory& history, double dt, bool edited) override;
};

}  // namespace clumplab::cim
