#pragma once
// The integrators a world may use, by name (scene key "integrator"): part of the model. Their
// interface and implementations: core/integrate/.
#include <optional>
#include <string_view>

namespace clumplab {

// Leapfrog, Midpoint and Splitting use World's force stage; Cim and Rk4 (Meland et al.: the cluster
// integration method and its DEM baseline) evaluate their own forces (SelfForcedIntegrator).
enum class IntegratorKind { Leapfrog, Midpoint, Splitting, Cim, Rk4 };

// Every kind, in the order of the enum.
inline constexpr IntegratorKind kIntegratorKinds[] = {IntegratorKind::Leapfrog, IntegratorKind::Midpoint,
                                                      IntegratorKind::Splitting, IntegratorKind::Cim,
                                                      IntegratorKind::Rk4};
// True for the kinds that evaluate their own forces (cim, rk4).
inline bool evaluatesOwnForces(IntegratorKind kind) {
  return kind == IntegratorKind::Cim || kind == IntegratorKind::Rk4;
}

std::string_view integratorName(IntegratorKind kind);
std::optional<IntegratorKind> integratorFromName(std::string_view name);

}  // namespace clumplab
