#pragma once
// The run speeds offered everywhere (toolbar, Parameters panel, + and − keys): simulated seconds
// per wall-clock second, and "as fast as possible" (item data 0).
#include <QComboBox>
#include <QSignalBlocker>
#include <QString>
#include <array>

namespace clumplab::gui {

inline constexpr std::array<double, 10> kRunSpeeds = {0.001, 0.002, 0.005, 0.01, 0.02,
                                                      0.05,  0.1,   0.25,  0.5,  1.0};

inline void fillRunSpeeds(QComboBox& box) {
  for (double s : kRunSpeeds) box.addItem(QString::number(s, 'g', 3) + QStringLiteral("×"), s);
  box.addItem(QObject::tr("as fast as possible"), 0.0);
  box.setToolTip(QObject::tr("Simulated time per wall-clock second (+ / −)"));
}

// Shows a speed in a box filled by fillRunSpeeds, without emitting its signals.
inline void showRunSpeed(QComboBox& box, double speed, bool asFastAsPossible) {
  const QSignalBlocker block(&box);
  const int index = asFastAsPossible ? box.count() - 1 : box.findData(speed);
  box.setCurrentIndex(index >= 0 ? index : static_cast<int>(kRunSpeeds.size()) - 1);
}

}  // namespace clumplab::gui
