#include "core/model/IntegratorKind.hpp"

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

}  // namespace clumplab
