#pragma once
// Axis ticks on nice numbers: steps of 1, 2 or 5 times a power of ten, labels with just the digits
// that make neighbours differ and every label true to the tick it names (Heckbert, "Nice numbers for
// graph labels", Graphics Gems, 1990). Qt-free, for the plots' axes and their tests.
#include <string>

namespace clumplab::gui {

struct NiceTicks {
  double lower = 0.0;  // the axis range on whole steps around the data [lo, hi]
  double upper = 1.0;
  double step = 0.2;   // between ticks
  int count = 6;       // ticks from lower to upper, both included
  std::string format;  // a printf format for the labels ("%.2f", "%.1e")
};

// At most `maxTicks` ticks over [lo, hi] (three at least: a range across zero has a tick there); a
// range of zero width gets one of a unit of its magnitude around it, one that is not finite [-0.5, 0.5].
NiceTicks niceTicks(double lo, double hi, int maxTicks);

// The printf format that writes ticks `step` apart, none beyond `magnitude` in size, each distinctly
// and exactly: fixed decimals in [1e-3, 1e5), else an exponent with the digits the step needs.
std::string tickLabelFormat(double step, double magnitude);

// The label of `value` in `format` (the tests read what a user reads).
std::string tickLabel(double value, const std::string& format);

}  // namespace clumplab::gui
