#include "core/clump/MeshTemplate.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>
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
  } else if (m == "spheres") {
    throw std::invalid_argument(
        "mode spheres takes a count or a target Dice coefficient, not a grid spacing or a radius");
  } else {
    throw std::invalid_argument("unknown fill mode \"" + m +
                                "\" (use circumscribed, given, fitted, shell or spheres)");
  }
  if (band > 0.0 && !fill.shellOnly) throw std::invalid_argument("band applies to mode shell only");
  if (minimumRadius > 0.0 && !fill.fitted)
    throw std::invalid_argument("min_radius applies to mode fitted only");
  fill.shellBand = band;
  fill.minimumRadius = minimumRadius;
  return fill;
}

FillSettings makeSphereFillSettings(long long count, double targetDice, double maxProtrusion,
                                    double minimumRadius, long long maxCount) {
  FillSettings fill;
  fill.spheres = true;
  if (count < 0 || count > 60000) throw std::invalid_argument("the sphere count must lie in [1, 60000]");
  if (count > 0 && targetDice > 0.0)
    throw std::invalid_argument("give a sphere count or a target Dice coefficient, not both");
  if (!(targetDice >= 0.0 && targetDice <= 1.0))
    throw std::invalid_argument("the target Dice coefficient must lie in (0, 1]");
  if (std::isnan(maxProtrusion)) throw std::invalid_argument("the largest protrusion must be a number");
  if (!(minimumRadius >= 0.0)) throw std::invalid_argument("the smallest radius must not be negative");
  if (maxCount < 0 || maxCount > 60000)
    throw std::invalid_argument("the largest sphere count must lie in [1, 60000]");
  if (maxCount > 0 && count > 0)
    throw std::invalid_argument("a largest count goes with a target Dice coefficient, not with a count");
  fill.maxCount = maxCount;
  fill.targetCount = count;
  fill.targetDice = count > 0 ? 0.0 : (targetDice > 0.0 ? targetDice : 0.95);
  fill.maxProtrusion = maxProtrusion;
  fill.minimumRadius = minimumRadius;
  return fill;
}

std::string describeFill(const FillSettings& fill) {
  const auto number = [](double x) {
    std::ostringstream s;
    s << std::setprecision(3) << x;
    return s.str();
  };
  if (fill.spheres) {
    std::string d = "spheres fitted to ";
    d += fill.targetCount > 0 ? std::to_string(fill.targetCount) + " spheres"
                              : "Dice " + number(fill.targetDice);
    if (fill.targetCount == 0 && fill.maxCount > 0) d += " or " + std::to_string(fill.maxCount) + " spheres";
    d += fill.maxProtrusion < 0.0 ? ", protrusion at most 2% of the size"
                                  : ", protrusion at most " + number(fill.maxProtrusion) + " m";
    if (fill.minimumRadius > 0.0) d += ", radius at least " + number(fill.minimumRadius) + " m";
    if (fill.seed != 1) d += ", seed " + std::to_string(fill.seed);
    return d;
  }
  std::string d = fill.spacing > 0.0 ? "grid h = " + number(fill.spacing) + " m"
                                     : "grid for " + std::to_string(fill.targetCount) + " pebbles";
  if (fill.fitted) return d + ", fitted";
  if (fill.shellOnly) return d + ", shell";
  return d + (fill.radius > 0.0 ? ", r = " + number(fill.radius) + " m" : ", circumscribed");
}

}  // namespace clumplab
