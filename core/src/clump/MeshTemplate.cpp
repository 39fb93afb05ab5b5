#include "core/clump/MeshTemplate.hpp"

#include <stdexcept>

namespace clumplab {

FillSettings makeFillSettings(double spacing, long long count, double radius, const std::string& mode,
                              double band, double minimumRadius) {
  FillSettings fill;
  if ((spacing > 0.0) == (count > 0)) {
    throw std::invalid_argument(
        "give exactly one of spacing (the grid spacing h, m) and count (pebbles wanted)");
  }
  if (count > 100000000) throw std::invalid_argument("the pebble count must not exceed 1e8");
  fill.spacing = spacing;
  fill.targetCount = count;
  fill.radius = radius;
  const std::string m = mode.empty() ? (radius > 0.0 ? "given" : "circumscribed") : mode;
  if (m == "circumscribed") {
    if (radius > 0.0) {
      throw std::invalid_argument(
          "mode circumscribed sets r = (sqrt 3 / 2) h: drop the radius or use mode given");
    }
  } else if (m == "given") {
    if (!(radius > 0.0)) throw std::invalid_argument("mode given needs a radius");
  } else if (m == "fitted") {
    fill.fitted = true;
  } else if (m == "shell") {
    fill.shellOnly = true;
  } else {
    throw std::invalid_argument("unknown fill mode \"" + m +
                                "\" (use circumscribed, given, fitted or shell)");
  }
  if (band > 0.0 && !fill.shellOnly) throw std::invalid_argument("band applies to mode shell only");
  if (minimumRadius > 0.0 && !fill.fitted)
    throw std::invalid_argument("min_radius applies to mode fitted only");
  fill.shellBand = band;
  fill.minimumRadius = minimumRadius;
  return fill;
}

}  // namespace clumplab
