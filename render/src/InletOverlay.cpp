#include "InletOverlay.hpp"

#include <cmath>
#include <numbers>

namespace clumplab::render {

namespace {
constexpr int kRimSegments = 48;
constexpr int kSideLines = 8;
constexpr float kEdgeWidthPx = 1.6f;

struct InletColors {
  QColor edge;
  QColor face;
};

InletColors colorsFor(InletState state) {
  switch (state) {
    case InletState::Full:
      return {QColor(0xff, 0xa0, 0x3c, 220), QColor(0xff, 0xa0, 0x3c, 34)};
    case InletState::Done:
      return {QColor(0x9a, 0xa3, 0xab, 150), QColor(0x9a, 0xa3, 0xab, 14)};
    case InletState::Waiting:
    case InletState::Running:
      break;
  }
  return {QColor(0x3c, 0xd2, 0xc3, 225), QColor(0x3c, 0xd2, 0xc3, 30)};
}

void buildBox(const InletRegion& r, const InletColors& c, OverlayGeometry& out) {
  const auto corner = [&](int i) {
    return Vec3(i & 1 ? r.max.x() : r.min.x(), i & 2 ? r.max.y() : r.min.y(), i & 4 ? r.max.z() : r.min.z());
  };
  for (int i = 0; i < 8; ++i) {
    for (const int bit : {1, 2, 4}) {
      if ((i & bit) == 0) out.tested.add(corner(i), corner(i | bit), c.edge, kEdgeWidthPx);
    }
  }
  // The six faces, each from its four corners in order around it.
  for (int a = 0; a < 3; ++a) {
    const int i = 1 << ((a + 1) % 3), j = 1 << ((a + 2) % 3);
    for (const int side : {0, 1 << a}) {
      out.patches.quad(corner(side), corner(side | i), corner(side | i | j), corner(side | j), c.face);
    }
  }
}

void buildCylinder(const InletRegion& r, const InletColors& c, OverlayGeometry& out) {
  const Vec3 e1 = r.axis.unitOrthogonal(), e2 = r.axis.cross(e1);
  const Vec3 bottom = r.center - 0.5 * r.height * r.axis, top = r.center + 0.5 * r.height * r.axis;
  const auto rim = [&](int k) {
    const double phi = 2.0 * std::numbers::pi * k / kRimSegments;
    return Vec3(r.radius * (std::cos(phi) * e1 + std::sin(phi) * e2));
  };
  for (int k = 0; k < kRimSegments; ++k) {
    const Vec3 a = rim(k), b = rim(k + 1);
    out.tested.add(bottom + a, bottom + b, c.edge, kEdgeWidthPx);
    out.tested.add(top + a, top + b, c.edge, kEdgeWidthPx);
    out.patches.quad(bottom + a, bottom + b, top + b, top + a, c.face);
    out.patches.addFlat(bottom, bottom + b, bottom + a, c.face);
    out.patches.addFlat(top, top + a, top + b, c.face);
    if (k % (kRimSegments / kSideLines) == 0) out.tested.add(bottom + a, top + a, c.edge, kEdgeWidthPx);
  }
}
}  // namespace

void buildInletOverlay(const Inlet& inlet, OverlayGeometry& out) {
  const InletColors colors = colorsFor(inlet.progress().state);
  const InletRegion& region = inlet.settings().region;
  if (region.kind == InletRegion::Kind::Box) {
    buildBox(region, colors, out);
  } else {
    buildCylinder(region, colors, out);
  }
}

}  // namespace clumplab::render
