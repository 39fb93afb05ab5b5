// A bounded parameter's range (ParameterRange.hpp).
#include "core/base/ParameterRange.hpp"

#include <cmath>
#include <sstream>

namespace clumplab {

bool ParameterRange::contains(double value) const {
  if (!std::isfinite(value)) return false;
  const bool aboveLowest = lowestIncluded ? value >= lowest : value > lowest;
  const bool belowHighest = highestIncluded ? value <= highest : value < highest;
  return aboveLowest && belowHighest;
}

double ParameterRange::smallestAccepted() const {
  if (!std::isfinite(lowest)) return std::numeric_limits<double>::lowest();
  return lowestIncluded ? lowest : std::nextafter(lowest, highest);
}

double ParameterRange::largestAccepted() const {
  if (!std::isfinite(highest)) return std::numeric_limits<double>::max();
  return highestIncluded ? highest : std::nextafter(highest, lowest);
}

std::string ParameterRange::requirement(const std::string& unit) const {
  std::ostringstream s;
  if (std::isinf(highest) && lowest == 0.0) {
    s << (lowestIncluded ? "must not be negative" : "must be positive");
  } else if (std::isinf(highest)) {
    s << (lowestIncluded ? "must be at least " : "must exceed ") << lowest;
  } else {
    s << "must lie in " << (lowestIncluded ? '[' : '(') << lowest << ", " << highest
      << (highestIncluded ? ']' : ')');
  }
  if (!unit.empty() && std::isfinite(highest)) s << ' ' << unit;
  return s.str();
}

std::string ParameterRange::complaint(double value, const std::string& unit) const {
  std::ostringstream s;
  s << requirement(unit) << " (got " << value << ")";
  return s.str();
}

}  // namespace clumplab
