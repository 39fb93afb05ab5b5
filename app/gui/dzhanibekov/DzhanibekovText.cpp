#include "gui/dzhanibekov/DzhanibekovText.hpp"

#include <QCoreApplication>
#include <cmath>

#include "render/ColorMaps.hpp"

namespace clumplab::gui {

namespace {
QString trDzhanibekov(const char* text) {
  return QCoreApplication::translate("Dzhanibekov", text);
}
}  // namespace

QString axisLabel(int axis) {
  return QStringLiteral("<b style='color:%1'>%2</b>")
      .arg(render::principalAxisColor(axis).name())
      .arg(axis + 1);
}

QString intervalText(double seconds) {
  if (std::isinf(seconds)) return trDzhanibekov("none (stable)");
  if (!(seconds > 0.0)) return QStringLiteral("—");
  return QStringLiteral("%1 s").arg(seconds, 0, 'g', 5);
}

QString agreementText(double measured, double predicted) {
  if (!(measured > 0.0) || !(predicted > 0.0) || std::isinf(predicted)) return QStringLiteral("—");
  const double percent = 100.0 * (measured / predicted - 1.0);
  return QStringLiteral("%1%2 %")
      .arg(percent >= 0.0 ? QStringLiteral("+") : QString())
      .arg(percent, 0, 'f', 3);
}

QString withoutGyroscopicTermText() {
  return trDzhanibekov(
      "Without ω×Iω, Euler's equations I dω/dt = (Iω)×ω lose their right-hand side: ω stays fixed in "
      "the body, so ω₂ never changes sign and there is no flip, while L = R I ω, which should stay "
      "fixed in space, swings round with the body (the term many game engines forget).");
}

}  // namespace clumplab::gui
