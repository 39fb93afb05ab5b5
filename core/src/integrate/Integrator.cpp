#include "core/integrate/Integrator.hpp"

#include <stdexcept>

#include "LeapfrogIntegrator.hpp"
#include "MidpointIntegrator.hpp"
#include "SplittingIntegrator.hpp"
#include "cim/CimIntegrator.hpp"
#include "cim/Rk4Integrator.hpp"

namespace clumplab {

std::string_view integratorName(IntegratorKind kind) {
  switch (kind) {
    case IntegratorKind::Leapfrog:
      return "leapfrog";
    case IntegratorKind::Midpoint:
      return "midpoint";
    case IntegratorKind::Splitting:
      return "splitting";
    case IntegratorKind::Cim:
      return "cim";
    case IntegratorKind::Rk4:
      return "rk4";
  }
  return "unknown";
}

std::optional<IntegratorKind> integratorFromName(std::string_view name) {
  for (const IntegratorKind k : kIntegratorKinds) {
    if (integratorName(k) == name) return k;
  }
  return std::nullopt;
}

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
