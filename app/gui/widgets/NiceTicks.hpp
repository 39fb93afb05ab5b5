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

// A value axis over data in [lo, hi]: the range widened by `headroom` of the data's span on each side,
// so no datum is drawn on the plot's frame (a spin of 10 rad/s sat on the top border), its ends off
// the ticks, which fall on whole steps inside it (two at least, about `maxTicks` at most).
struct ValueAxis {
  double lower = -0.5;  // the axis range
  double upper = 0.5;
  double anchor = 0.0;  // a tick: the others are whole steps from it
  double step = 0.5;
  std::string format;  // as NiceTicks::format
};
ValueAxis valueAxis(double lo, double hi, int maxTicks, double headroom = 0.05);

// The printf format that writes ticks `step` apart, none beyond `magnitude` in size, each distinctly
// and exactly: fixed decimals in [1e-3, 1e5), else an exponent with the digits the step needs.
std::string tickLabelFormat(double step, double magnitude);

// The label of `value` in `format` (the tests read what a user reads).
std::string tickLabel(double value, const std::string& format);

}  // namespace clumplab::gui
