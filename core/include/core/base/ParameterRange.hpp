#pragma once
// The values a bounded parameter may take: an interval of the reals, each end included or not, with
// the words that say it in an error message. Declared once per parameter (core/model/ModelParameters.hpp)
// and read by everything that takes the parameter.
#include <limits>
#include <string>

namespace clumplab {

struct ParameterRange {
  double lowest = 0.0;
  double highest = std::numeric_limits<double>::infinity();
  bool lowestIncluded = true;
  bool highestIncluded = true;  // an infinite end is never reached: only finite values are accepted

  static constexpr ParameterRange positive() {
    return {0.0, std::numeric_limits<double>::infinity(), false, false};
  }
  static constexpr ParameterRange nonNegative() {
    return {0.0, std::numeric_limits<double>::infinity(), true, false};
  }
  static constexpr ParameterRange closed(double lowest, double highest) {
    return {lowest, highest, true, true};
  }

  // Finite and within the range.
  bool contains(double value) const;
  // The smallest and largest doubles the range contains (the largest finite double for an infinite end).
  double smallestAccepted() const;
  double largestAccepted() const;
  // What a value must satisfy, with the unit after a finite range: "must lie in [1e-15, 100] s",
  // "must lie in [0, 0.5)", "must be positive", "must not be negative".
  std::string requirement(const std::string& unit = {}) const;
  // The requirement and the value refused: "must lie in [0, 1] (got 1.5)".
  std::string complaint(double value, const std::string& unit = {}) const;

  bool operator==(const ParameterRange&) const = default;
};

}  // namespace clumplab
