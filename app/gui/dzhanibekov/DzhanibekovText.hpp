#pragma once
// Words and numbers the Dzhanibekov dock and the comparison window share.
#include <QString>

namespace clumplab::gui {

// "<b style='color:…'>k</b>" for axis 0, 1, 2 (named 1, 2, 3), in the colour the 3D view draws it.
QString axisLabel(int axis);
// An interval [s] with four significant digits; "none (stable)" for infinity, "—" for 0 or NaN.
QString intervalText(double seconds);
// measured / predicted - 1 as a signed percentage, "—" when either is missing.
QString agreementText(double measured, double predicted);
// Why the flip disappears without the gyroscopic term (one sentence).
QString withoutGyroscopicTermText();

}  // namespace clumplab::gui
