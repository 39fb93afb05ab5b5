// Plot axes on nice numbers: ticks 1, 2 or 5 x 10^k apart on whole steps around the data,
// no more than asked for, and labels that are distinct and true to their ticks at every magnitude
// (the energy plot's "-28, 125, 277, 430, 582" and a gridline labelled 0.4 at 0.355 s were neither).
#include <QtTest>
#include <cmath>
#include <random>
#include <set>

#include "gui/widgets/NiceTicks.hpp"

using clumplab::gui::niceTicks;
using clumplab::gui::NiceTicks;
using clumplab::gui::tickLabel;
using clumplab::gui::valueAxis;
using clumplab::gui::ValueAxis;

namespace {
bool isNiceStep(double step) {
  const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (std::abs(mantissa - m) < 1e-9 * m) return true;
  return false;
}

QString describe(double lo, double hi, int maxTicks, const NiceTicks& t) {
  QStringList labels;
  for (int k = 0; k < t.count; ++k)
    labels << QString::fromStdString(tickLabel(t.lower + k * t.step, t.format));
  return QStringLiteral("[%1, %2] at most %3 ticks: %4")
      .arg(lo, 0, 'g', 17)
      .arg(hi, 0, 'g', 17)
      .arg(maxTicks)
      .arg(labels.join(QStringLiteral(", ")));
}

void checkTicks(double lo, double hi, int maxTicks) {
  const NiceTicks t = niceTicks(lo, hi, maxTicks);
  const QString what = describe(lo, hi, maxTicks, t);
  QVERIFY2(t.count >= 2 && t.count <= std::max(3, maxTicks), qPrintable(what));
  QVERIFY2(t.lower <= lo + 1e-12 * std::abs(lo) && t.upper >= hi - 1e-12 * std::abs(hi), qPrintable(what));
  QVERIFY2(isNiceStep(t.step), qPrintable(what));
  QVERIFY2(t.upper - t.lower <= 3.0 * std::max(hi - lo, t.step) + t.step,
           qPrintable(what));  // not far too wide
  std::set<std::string> seen;
  for (int k = 0; k < t.count; ++k) {
    const double tick = t.lower + k * t.step;
    const std::string label = tickLabel(tick, t.format);
    QVERIFY2(seen.insert(label).second, qPrintable(what + QStringLiteral(": a label repeats")));
    // True: the label read back is the tick, to far less than a step.
    const double read = std::stod(label);
    QVERIFY2(std::abs(read - tick) <= 1e-6 * t.step,
             qPrintable(what + QStringLiteral(": ") + QString::fromStdString(label)));
  }
}
// A value axis over [lo, hi]: the data clear of both ends by 4 % of the axis at least, two labelled
// ticks inside at least, each label distinct and true.
void checkValueAxis(double lo, double hi, int maxTicks) {
  const ValueAxis a = valueAxis(lo, hi, maxTicks);
  const QString what = QStringLiteral("[%1, %2] at most %3 ticks: axis [%4, %5] step %6")
                           .arg(lo, 0, 'g', 17)
                           .arg(hi, 0, 'g', 17)
                           .arg(maxTicks)
                           .arg(a.lower, 0, 'g', 17)
                           .arg(a.upper, 0, 'g', 17)
                           .arg(a.step, 0, 'g', 17);
  const double span = a.upper - a.lower;
  QVERIFY2(span > 0.0 && hi <= a.upper - 0.04 * span && lo >= a.lower + 0.04 * span, qPrintable(what));
  QVERIFY2(isNiceStep(a.step), qPrintable(what));
  std::set<std::string> seen;
  int inside = 0;
  for (double tick = a.anchor; tick <= a.upper + 1e-9 * a.step; tick += a.step) {
    QVERIFY2(tick >= a.lower - 1e-9 * a.step, qPrintable(what));
    const std::string label = tickLabel(tick, a.format);
    QVERIFY2(seen.insert(label).second, qPrintable(what + QStringLiteral(": a label repeats")));
    QVERIFY2(std::abs(std::stod(label) - tick) <= 1e-6 * a.step, qPrintable(what));
    ++inside;
  }
  QVERIFY2(inside >= 2 && inside <= std::max(3, maxTicks) + 2,
           qPrintable(what + QStringLiteral(": %1 ticks").arg(inside)));
}
}  // namespace

class NiceTicksTest : public QObject {
  Q_OBJECT
 private slots:
  void theIssuesPlots() {
    // The energy plot's values from -28 to 582: hundreds (or two hundreds).
    NiceTicks t = niceTicks(-28.0, 582.0, 6);
    QCOMPARE(t.step, 200.0);
    QCOMPARE(tickLabel(t.lower, t.format), std::string("-200"));
    QCOMPARE(tickLabel(t.upper, t.format), std::string("600"));
    // Time 0 to 0.36 s: 0.1 s apart, the tick labelled 0.4 at 0.4.
    t = niceTicks(0.0, 0.36, 6);
    QCOMPARE(t.step, 0.1);
    QCOMPARE(tickLabel(t.lower + 4 * t.step, t.format), std::string("0.4"));
    // The equipartition ratio around its reference 1: a tick labelled "1.0" at 1.
    t = niceTicks(0.72, 1.13, 6);
    bool one = false;
    for (int k = 0; k < t.count; ++k) one |= tickLabel(t.lower + k * t.step, t.format) == "1.0";
    QVERIFY2(one, qPrintable(describe(0.72, 1.13, 6, t)));
    // Tiny and huge values: exponents with the digits the step needs.
    t = niceTicks(1.2e-7, 1.9e-7, 5);
    QCOMPARE(tickLabel(t.lower, t.format), std::string("1.2e-07"));
    t = niceTicks(2.5e6, 2.9e6, 5);
    QCOMPARE(tickLabel(t.upper, t.format), std::string("2.9e+06"));
    // No width: a unit around it.
    t = niceTicks(3.0, 3.0, 5);
    QVERIFY(t.lower < 3.0 && t.upper > 3.0);
    t = niceTicks(0.0, 0.0, 5);
    QVERIFY(t.lower < 0.0 && t.upper > 0.0);
    QCOMPARE(tickLabel(-1e-18, "%.1f"), std::string("0.0"));  // never "-0.0"
  }

  // The lesson's omega plot: omega2 from 10 to -10 rad/s, on a short plot (five ticks): the axis
  // goes beyond both, ticks on whole fives or tens inside.
  void valueAxesLeaveHeadroom() {
    const ValueAxis a = valueAxis(-10.0, 10.0, 5);
    QVERIFY2(a.upper > 10.0 && a.lower < -10.0, qPrintable(QString::number(a.upper)));
    checkValueAxis(-10.0, 10.0, 5);
    checkValueAxis(-10.0, 10.0, 3);
    checkValueAxis(0.0, 1.9e-8, 5);  // a flat energy
    checkValueAxis(3.0, 3.0, 5);     // one value
    checkValueAxis(-28.0, 582.0, 6);
  }

  void everyRangeAtEveryMagnitude() {
    std::mt19937_64 random(22);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int n = 0; n < 20000; ++n) {
      const double scale = std::pow(10.0, -12.0 + 24.0 * unit(random));
      const double centre = (unit(random) - 0.5) * scale * std::pow(10.0, 4.0 * unit(random));
      const double width = scale * (0.001 + unit(random));
      const int maxTicks = 3 + static_cast<int>(unit(random) * 9.0);
      checkTicks(centre - 0.5 * width, centre + 0.5 * width, maxTicks);
      checkValueAxis(centre - 0.5 * width, centre + 0.5 * width, maxTicks);
      if (QTest::currentTestFailed()) return;
    }
  }
};

QTEST_GUILESS_MAIN(NiceTicksTest)
#include "tst_nice_ticks.moc"
