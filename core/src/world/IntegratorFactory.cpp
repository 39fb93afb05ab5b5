#include "IntegratorFactory.hpp"

#include <stdexcept>

#include "cim/CimIntegrator.hpp"
#include "cim/Rk4Integrator.hpp"
#include "integrate/LeapfrogIntegrator.hpp"
#include "integrate/MidpointIntegrator.hpp"
#include "integrate/SplittingIntegrator.hpp"

namespace clumplab {

std::unique_ptr<Integrator> makeIntegrator(IntegratorKind kind, int eulerIterations) {
  switch (kind) {
    case IntegratorKind::Leapfrog:
      return std::make_unique<LeapfrogIntegrator>(eulerIterations);
    case IntegratorKind::Midpoint:
      return std::make_unique<MidpointIntegrator>();
    case IntegratorKind::Splitting:
      return std::make_unique<SplittingIntegrator>();
    case IntegratorKind::Cim:
      return std::make_unique<cim::CimIntegrator>();
    case IntegratorKind::Rk4:
      return std::make_unique<cim::Rk4Integrator>();
  }
  throw std::invalid_argument("unknown integrator");
}

}  // namespace clumplab
