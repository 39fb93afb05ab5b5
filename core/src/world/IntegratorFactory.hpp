#pragma once
// World's integrator of each kind (Integrator.hpp): the one place that knows them all.
#include <memory>

#include "core/integrate/Integrator.hpp"
#include "core/model/IntegratorKind.hpp"

namespace clumplab {

// `eulerIterations`: fixed-point iterations of the leapfrog's Euler solve (MercuryDPM rigid clumps, §2.6).
std::unique_ptr<Integrator> makeIntegrator(IntegratorKind kind, int eulerIterations);

}  // namespace clumplab
