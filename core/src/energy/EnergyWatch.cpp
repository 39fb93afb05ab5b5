#include "core/energy/EnergyWatch.hpp"

#include <algorithm>
#include <cmath>

namespace clumplab {

std::optional<EnergyBlowUp> EnergyWatch::observe(const EnergyReport& e, double restScale) {
  const double balance = e.balance();
  if (!baseline_) baseline_ = Baseline{balance, e.peGravity, 0.0, e.time};
  Baseline& b = *baseline_;
  b.scale = std::max(
      {b.scale, e.keTranslational + e.keRotational, e.peElastic, std::abs(e.peGravity - b.peGravity)});
  const double growth = balance - b.balance;
  const double magnitude = e.keTranslational + e.keRotational + std::abs(e.peGravity) + e.peElastic +
                           std::abs(e.peFields) + std::abs(e.dissipated);
  runScale_ = std::max({runScale_, e.keTranslational + e.keRotational, e.peElastic});
  if (!(growth > std::max({kGrowthLimit * b.scale, kRunScaleShare * runScale_, kRestShare * restScale,
                           1e-6 * magnitude})))
    return std::nullopt;
  return EnergyBlowUp{growth, b.since, growth / std::max(b.scale, 1e-300)};
}

}  // namespace clumplab
