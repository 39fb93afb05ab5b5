#include "core/Integrator.hpp"

#include <stdexcept>

#include "LeapfrogIntegrator.hpp"
#include "MidpointIntegrator.hpp"
#include "SplittingIntegrator.hpp"

namespace clumplab {

std::string_view integratorName(IntegratorKind kind) {
  switch (kind) {
    case IntegratorKind::Leapfrog:
      return "leapfrog";
    case IntegratorKind::Midpoint:
      return "midpoint";
    case IntegratorKind::Splitting:
      return "splitting";
  }
  return "unknown";
}

std::optional<IntegratorKind> integratorFromName(std::string_view name) {
  for (IntegratorKind k : {IntegratorKind::Leapfrog, IntegratorKind::Midpoint, IntegratorKind::Splitting}) {
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
  }
  throw std::invalid_argument("unknown integrator");
}

}  // namespace clumplab
