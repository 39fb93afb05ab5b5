#include "PeriodicBoxOverlay.hpp"

#include <algorithm>
#include <cmath>

namespace clumplab::render {

namespace {
const QColor kDashColor(0xff, 0xb3, 0x47, 215);  // amber, apart from the grey wall edges
const QColor kFaceColor(0xff, 0xc8, 0x6e, 20);   // the same hue, barely there
constexpr double kDashesPerLongestEdge = 26.0;
constexpr double kDashFraction = 0.55;  // of each dash period drawn
}  // namespace

void buildPeriodicBoxOverlay(const PeriodicBox& box, OverlayGeometry& out) {
  if (!box.any()) return;
  const Vec3 lo = box.lower, hi = box.lower + box.length;
  if (!lo.allFinite() || !hi.allFinite()) return;
  const double period = box.length.maxCoeff() / kDashesPerLongestEdge;
  if (!(period > 0.0)) return;
  const auto corner = [&](int i) {
    return Vec3(i & 1 ? hi.x() : lo.x(), i & 2 ? hi.y() : lo.y(), i & 4 ? hi.z() : lo.z());
  };
  // Each edge as dashes of a common period, centred so both ends get a half dash.
  for (int i = 0; i < 8; ++i) {
    for (int bit : {1, 2, 4}) {
      if (i & bit) continue;
      const Vec3 a = corner(i), b = corner(i | bit);
      const double length = (b - a).norm();
      const int dashes = std::max(1, static_cast<int>(std::lround(length / period)));
      const Vec3 step = (b - a) / dashes;
      for (int k = 0; k < dashes; ++k) {
        const Vec3 start = a + (k + 0.5 * (1.0 - kDashFraction)) * step;
        out.tested.add(start, start + kDashFraction * step, kDashColor, 1.8f);
      }
    }
  }
  // The two faces across each periodic axis.
  for (int a = 0; a < 3; ++a) {
    if (!box.periodic[a]) continue;
    const int i = (a + 1) % 3, j = (a + 2) % 3;
    for (const double at : {lo[a], hi[a]}) {
      const auto p = [&](double u, double v) {
        Vec3 c = Vec3::Zero();
        c[a] = at;
        c[i] = u;
        c[j] = v;
        return c;
      };
      out.patches.quad(p(lo[i], lo[j]), p(hi[i], lo[j]), p(hi[i], hi[j]), p(lo[i], hi[j]), kFaceColor);
    }
  }
}

}  // namespace clumplab::render
