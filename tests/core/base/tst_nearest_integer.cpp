// nearestInteger (Math.hpp), the periodic image's rounding: bit for bit std::nearbyint in the default
// rounding mode, over ties, signed zeros, both sides of 2^51 and 2^52, and random values of every scale.
#include <QtTest>
#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>
#include <random>

#include "core/base/Math.hpp"
#include "core/base/PeriodicBox.hpp"

using namespace clumplab;

namespace {
bool sameBits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b) ||
         (std::isnan(a) && std::isnan(b));
}
}  // namespace

class NearestIntegerTest : public QObject {
  Q_OBJECT
 private slots:
  void matchesNearbyintBitForBit() {
    QCOMPARE(std::fegetround(), FE_TONEAREST);
    std::vector<double> values = {0.0,
                                  -0.0,
                                  0.3,
                                  -0.3,
                                  0.5,
                                  -0.5,
                                  0.49999999999999994,
                                  -0.49999999999999994,
                                  1.0,
                                  -1.0,
                                  std::numeric_limits<double>::denorm_min(),
                                  -std::numeric_limits<double>::denorm_min(),
                                  std::numeric_limits<double>::min(),
                                  std::numeric_limits<double>::max(),
                                  -std::numeric_limits<double>::max(),
                                  std::numeric_limits<double>::infinity(),
                                  -std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::quiet_NaN()};
    for (int k = -2000; k <= 2000; ++k) {  // every tie k + 1/2, and its neighbours
      const double tie = k + 0.5;
      values.insert(values.end(), {tie, std::nextafter(tie, -1e300), std::nextafter(tie, 1e300)});
    }
    for (const double edge : {std::ldexp(1.0, 51), std::ldexp(1.0, 52), std::ldexp(1.0, 53)}) {
      for (const double sign : {1.0, -1.0}) {
        double x = sign * edge;
        for (int i = 0; i < 8; ++i) x = std::nextafter(x, 0.0);
        for (int i = 0; i < 17; ++i, x = std::nextafter(x, sign * 1e300)) {
          values.push_back(x);
          values.push_back(x + sign * 0.5);
        }
      }
    }
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-60, 60);
    for (int i = 0; i < 200000; ++i) values.push_back(std::ldexp(unit(rng), exponent(rng)));
    for (const double x : values) {
      QVERIFY2(sameBits(nearestInteger(x), std::nearbyint(x)),
               qPrintable(QString("x = %1: %2, nearbyint %3")
                              .arg(x, 0, 'g', 17)
                              .arg(nearestInteger(x), 0, 'g', 17)
                              .arg(std::nearbyint(x), 0, 'g', 17)));
    }
  }

  void imageShiftIsTheMinimumImage() {
    // The box's promise: d + imageShift(d) is minimumImage(d) to the bit, and it is no longer than
    // half a box on the periodic axes.
    PeriodicBox box{Vec3(-0.1, 0.2, 0.0), Vec3(0.3, 0.07, 1.0), {true, true, false}};
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> u(-2.0, 2.0);
    for (int i = 0; i < 20000; ++i) {
      const Vec3 d(u(rng), u(rng), u(rng));
      const Vec3 m = box.minimumImage(d);
      QVERIFY((d + box.imageShift(d)) == m);
      QVERIFY(std::abs(m.x()) <= 0.5 * 0.3 * (1 + 1e-15) && std::abs(m.y()) <= 0.5 * 0.07 * (1 + 1e-15));
      QCOMPARE(m.z(), d.z());
    }
    // Off the periodic axes the shift is +0 and the separation is returned as it is, signed zeros too.
    const Vec3 zeros(0.0, -0.0, -0.0);
    QVERIFY(sameBits(box.imageShift(zeros).z(), 0.0));
    QVERIFY(sameBits(box.minimumImage(zeros).z(), -0.0));
  }
};

QTEST_APPLESS_MAIN(NearestIntegerTest)
#include "tst_nearest_integer.moc"
