// rotationFromVector (Math.hpp), the drift's rotation of every body: the exponential map of so(3)
// against Eigen's angle-axis rotation on both sides of the series' threshold, and its batch form
// rotationsFromVectors bit for bit the same as one rotation at a time, whatever the count and the
// vectors (zero, signed zeros, the threshold itself, large angles, infinities, NaN).
#include <QtTest>
#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "core/base/Math.hpp"

using namespace clumplab;

namespace {
bool sameBits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
bool sameBits(const Quat& a, const Quat& b) {
  return sameBits(a.w(), b.w()) && sameBits(a.x(), b.x()) && sameBits(a.y(), b.y()) && sameBits(a.z(), b.z());
}
}  // namespace

class RotationVectorTest : public QObject {
  Q_OBJECT
 private slots:
  void isTheExponentialMap() {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    // Angles from 1e-9 rad through the series' range (below 0.05) to several turns.
    for (const double angle : {1e-9, 1e-4, 0.01, 0.0499, 0.05, 0.0501, 0.3, 2.0, 3.1, 7.0, 40.0}) {
      for (int i = 0; i < 2000; ++i) {
        const Vec3 axis = Vec3(unit(rng), unit(rng), unit(rng)).normalized();
        const Quat q = rotationFromVector(angle * axis);
        const Quat exact(Eigen::AngleAxisd(angle, axis));
        // Unit to a few ulp; equal to Eigen's to round-off, which grows with the angle (rounding the
        // vector angle * axis moves the angle by ~1e-16 of itself).
        QVERIFY2(std::abs(q.squaredNorm() - 1.0) < 1e-15, qPrintable(QString::number(angle)));
        QVERIFY2((q.coeffs() - exact.coeffs()).norm() < 1e-15 + 4e-16 * angle,
                 qPrintable(QString("angle %1: %2").arg(angle).arg((q.coeffs() - exact.coeffs()).norm())));
      }
    }
    QVERIFY(sameBits(rotationFromVector(Vec3::Zero()), Quat::Identity()));
  }

  void batchIsOneAtATimeToTheBit() {
    constexpr std::size_t kMax = 16;
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double edge = std::sqrt(kSeriesAngle2);  // the series' threshold on the angle
    std::vector<Vec3> vectors = {Vec3::Zero(),
                                 Vec3(-0.0, 0.0, -0.0),
                                 Vec3(edge, 0.0, 0.0),
                                 Vec3(std::nextafter(edge, 0.0), 0.0, 0.0),
                                 Vec3(0.0, std::nextafter(edge, 1.0), 0.0),
                                 Vec3(1e-300, -1e-300, 1e-300),
                                 Vec3(0.3, -2.0, 5.0),
                                 Vec3(1e6, 0.0, -1e6),
                                 Vec3(inf, 0.0, 0.0),
                                 Vec3(0.0, nan, 0.0)};
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-30, 2);
    for (int i = 0; i < 40000; ++i) {
      vectors.emplace_back(std::ldexp(unit(rng), exponent(rng)), std::ldexp(unit(rng), exponent(rng)),
                           std::ldexp(unit(rng), exponent(rng)));
    }
    std::size_t small = 0;
    std::uniform_int_distribution<std::size_t> counts(1, kMax);
    for (std::size_t begin = 0; begin < vectors.size();) {
      const std::size_t count = std::min(counts(rng), vectors.size() - begin);
      std::array<double, kMax> x, y, z;
      for (std::size_t j = 0; j < count; ++j) {
        x[j] = vectors[begin + j].x();
        y[j] = vectors[begin + j].y();
        z[j] = vectors[begin + j].z();
      }
      std::array<Quat, kMax> batch;
      rotationsFromVectors(x, y, z, count, batch.data());
      for (std::size_t j = 0; j < count; ++j) {
        const Vec3& a = vectors[begin + j];
        const Quat one = rotationFromVector(a);
        if (a.squaredNorm() < kSeriesAngle2) ++small;
        const bool same =
            sameBits(batch[j], one) || (a.hasNaN() && batch[j].coeffs().hasNaN() && one.coeffs().hasNaN());
        QVERIFY2(same, qPrintable(QString("a = (%1, %2, %3)")
                                      .arg(a.x(), 0, 'g', 17)
                                      .arg(a.y(), 0, 'g', 17)
                                      .arg(a.z(), 0, 'g', 17)));
      }
      begin += count;
    }
    QVERIFY(small > 10000);                   // most are a step's rotation, through the series
    QVERIFY(vectors.size() - small > 10000);  // and many are not
  }
};

QTEST_APPLESS_MAIN(RotationVectorTest)
#include "tst_rotation_vector.moc"
