// Shortest distance between spherocylinder shafts (Meland et al., Cluster integration method, Fig. 2) against
// brute-force sampling of both segments, and constructed cases with known answers.
#include <QtTest>
#include <cmath>
#include <random>

#include "TestSupport.hpp"
#include "core/clump/ShaftDistance.hpp"

using namespace clumplab;

namespace {

struct Pair {
  Vec3 rij, ui, uj;
  double hi, hj;
};

// min over sampled (li, lj) of |rij + lj uj - li ui|^2: a grid over both shafts, then grids of
// shrinking cells around the best sample (the function is convex, so this converges on its
// minimum value); never below the true minimum.
double bruteForce(const Pair& p) {
  const auto f = [&](double li, double lj) { return (p.rij + lj * p.uj - li * p.ui).squaredNorm(); };
  double ci = 0.0, cj = 0.0, wi = p.hi, wj = p.hj, best = f(0.0, 0.0);
  constexpr int n = 40;
  for (int level = 0; level < 40; ++level) {
    double bi = ci, bj = cj;
    for (int a = 0; a <= n; ++a) {
      const double li = std::clamp(ci - wi + 2.0 * wi * a / n, -p.hi, p.hi);
      for (int b = 0; b <= n; ++b) {
        const double lj = std::clamp(cj - wj + 2.0 * wj * b / n, -p.hj, p.hj);
        const double v = f(li, lj);
        if (v < best) {
          best = v;
          bi = li;
          bj = lj;
        }
      }
    }
    ci = bi;
    cj = bj;
    wi *= 0.5;
    wj *= 0.5;
  }
  return best;
}

// The minimum by a different route: over shaft i by ternary search (min over lambda_j of the
// convex function is convex in lambda_i), with shaft j's best point for each lambda_i by clamped
// projection. Reliable where the grid search creeps along a long valley (nearly parallel shafts).
double projectionSearch(const Pair& p) {
  const auto g = [&](double li) {
    const double lj = std::clamp(-p.uj.dot(p.rij) + li * p.ui.dot(p.uj), -p.hj, p.hj);
    return (p.rij + lj * p.uj - li * p.ui).squaredNorm();
  };
  double lo = -p.hi, hi = p.hi;
  for (int k = 0; k < 200; ++k) {
    const double a = lo + (hi - lo) / 3.0, b = hi - (hi - lo) / 3.0;
    if (g(a) < g(b)) {
      hi = b;
    } else {
      lo = a;
    }
  }
  return std::min({g(lo), g(-p.hi), g(p.hi)});
}

// Fig. 2 exactly as printed (lambda'_j with the printed sign), to show the sign matters.
double figure2AsPrinted(const Pair& p) {
  const double c = p.ui.dot(p.uj), uiR = p.ui.dot(p.rij), ujR = p.uj.dot(p.rij);
  const double s2 = 1.0 - c * c;
  const double pi = (uiR - c * ujR) / s2, pj = (ujR - c * uiR) / s2;
  const double ei = std::abs(pi) - p.hi, ej = std::abs(pj) - p.hj;
  double li = pi, lj = pj;
  if (ei > 0.0 || ej > 0.0) {
    if (ej >= ei) {
      lj = std::copysign(p.hj, pj);
      li = std::clamp(uiR + lj * c, -p.hi, p.hi);
    } else {
      li = std::copysign(p.hi, pi);
      lj = std::clamp(-ujR + li * c, -p.hj, p.hj);
    }
  }
  return (p.rij + lj * p.uj - li * p.ui).squaredNorm();
}

Vec3 randomUnit(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  return Vec3(g(rng), g(rng), g(rng)).normalized();
}

}  // namespace

class TestShaftDistance : public QObject {
  Q_OBJECT

 private slots:
  void randomPairsMatchBruteForce();
  void nearlyParallelPairsMatchBruteForce();
  void constructedCases_data();
  void constructedCases();
  void parallelDistanceIsFigure2sFormula();
  void printedSignOfLambdaJIsWrong();
};

void TestShaftDistance::randomPairsMatchBruteForce() {
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> len(0.0, 2.0), pos(-2.0, 2.0);
  for (int k = 0; k < 400; ++k) {
    // Every eighth pair has a zero-length shaft (sphere against capsule, or two spheres).
    Pair p{Vec3(pos(rng), pos(rng), pos(rng)), randomUnit(rng), randomUnit(rng), len(rng), len(rng)};
    if (k % 8 == 1) p.hi = 0.0;
    if (k % 8 == 2) p.hj = 0.0;
    if (k % 8 == 3) p.hi = p.hj = 0.0;
    const ShaftClosestPoints s = closestShaftPoints(p.rij, p.ui, p.hi, p.uj, p.hj);
    const double brute = bruteForce(p);
    QVERIFY2(std::abs(s.lambdaI) <= p.hi && std::abs(s.lambdaJ) <= p.hj, "closest points off the shafts");
    const double direct = (p.rij + s.lambdaJ * p.uj - s.lambdaI * p.ui).squaredNorm();
    QVERIFY(std::abs(direct - s.distance2) <= 1e-14 * (1.0 + direct));
    QVERIFY2(std::abs(std::sqrt(s.distance2) - std::sqrt(brute)) <= 1e-9,
             qPrintable(QString("pair %1: distance %2, brute force %3")
                            .arg(k)
                            .arg(std::sqrt(s.distance2), 0, 'g', 15)
                            .arg(std::sqrt(brute), 0, 'g', 15)));
  }
}

void TestShaftDistance::nearlyParallelPairsMatchBruteForce() {
  std::mt19937_64 rng(80);
  std::uniform_real_distribution<double> len(0.1, 2.0), pos(-2.0, 2.0), sign(-1.0, 1.0);
  for (int k = 0; k < 220; ++k) {
    const Vec3 ui = randomUnit(rng);
    const double angle = std::pow(10.0, -3.0 - 10.0 * (k % 11) / 10.0);  // 1e-3 ... 1e-13 rad
    Vec3 uj = (ui + angle * ui.unitOrthogonal()).normalized();
    if (sign(rng) < 0.0) uj = -uj;
    const Pair p{Vec3(pos(rng), pos(rng), pos(rng)), ui, uj, len(rng), len(rng)};
    const ShaftClosestPoints s = closestShaftPoints(p.rij, p.ui, p.hi, p.uj, p.hj);
    // Never farther than any sampled pair, and the minimum found by projection (to ~1e-10 of the
    // length: below that angle the shafts count as parallel).
    const double brute = bruteForce(p), projected = projectionSearch(p);
    QVERIFY2(std::sqrt(s.distance2) <= std::sqrt(brute) + 1e-9 &&
                 std::abs(std::sqrt(s.distance2) - std::sqrt(projected)) <= 1e-9,
             qPrintable(QString("pair %1 (angle %2): distance %3, brute force %4, projection search %5")
                            .arg(k)
                            .arg(angle)
                            .arg(std::sqrt(s.distance2), 0, 'g', 15)
                            .arg(std::sqrt(brute), 0, 'g', 15)
                            .arg(std::sqrt(projected), 0, 'g', 15)));
  }
}

void TestShaftDistance::constructedCases_data() {
  QTest::addColumn<Vec3>("rij");
  QTest::addColumn<Vec3>("ui");
  QTest::addColumn<double>("hi");
  QTest::addColumn<Vec3>("uj");
  QTest::addColumn<double>("hj");
  QTest::addColumn<double>("lambdaI");
  QTest::addColumn<double>("lambdaJ");
  QTest::addColumn<double>("distance");
  const Vec3 x = Vec3::UnitX(), y = Vec3::UnitY();
  // Side by side, overlapping over [-0.9, 1] of shaft i: the middle of the overlap.
  QTest::newRow("parallel") << Vec3(0.1, 1, 0) << x << 1.0 << x << 1.0 << 0.05 << -0.05 << 1.0;
  QTest::newRow("anti-parallel") << Vec3(0.1, 1, 0) << x << 1.0 << Vec3(-x) << 1.0 << 0.05 << 0.05 << 1.0;
  QTest::newRow("parallel, apart") << Vec3(3, 1, 0) << x << 1.0 << x << 0.5 << 1.0 << -0.5 << std::sqrt(3.25);
  QTest::newRow("collinear end to end") << Vec3(3, 0, 0) << x << 1.0 << x << 1.0 << 1.0 << -1.0 << 1.0;
  QTest::newRow("collinear, reversed") << Vec3(3, 0, 0) << x << 1.0 << Vec3(-x) << 1.0 << 1.0 << 1.0 << 1.0;
  QTest::newRow("collinear, behind") << Vec3(-4, 0, 0) << x << 1.0 << x << 2.0 << -1.0 << 2.0 << 1.0;
  QTest::newRow("crossing") << Vec3(0.3, -0.2, 0.5) << x << 1.0 << y << 1.0 << 0.3 << 0.2 << 0.5;
  QTest::newRow("crossing, skew") << Vec3(0.3, -0.2, 0.5) << x << 1.0 << Vec3(1, 1, 0).normalized() << 1.0
                                  << 0.5 << 0.2 * std::sqrt(2.0) << 0.5;
  QTest::newRow("T, stem end at the bar") << Vec3(0.5, 2, 0) << x << 1.0 << y << 1.0 << 0.5 << -1.0 << 1.0;
  QTest::newRow("T, beyond the bar's end")
      << Vec3(2, 2, 0) << x << 1.0 << y << 1.0 << 1.0 << -1.0 << std::sqrt(2.0);
  QTest::newRow("point at a shaft") << Vec3(0.4, 0.3, 0) << x << 1.0 << y << 0.0 << 0.4 << 0.0 << 0.3;
  QTest::newRow("point beyond the end") << Vec3(3, 0, 0) << x << 1.0 << y << 0.0 << 1.0 << 0.0 << 2.0;
  QTest::newRow("shaft at a point") << Vec3(0.3, 0.2, 0) << x << 0.0 << y << 1.0 << 0.0 << -0.2 << 0.3;
  QTest::newRow("two points") << Vec3(1, 2, 2) << x << 0.0 << y << 0.0 << 0.0 << 0.0 << 3.0;
}

void TestShaftDistance::constructedCases() {
  QFETCH(Vec3, rij);
  QFETCH(Vec3, ui);
  QFETCH(double, hi);
  QFETCH(Vec3, uj);
  QFETCH(double, hj);
  QFETCH(double, lambdaI);
  QFETCH(double, lambdaJ);
  QFETCH(double, distance);
  const ShaftClosestPoints s = closestShaftPoints(rij, ui, hi, uj, hj);
  QVERIFY2(
      std::abs(s.lambdaI - lambdaI) < 1e-12 && std::abs(s.lambdaJ - lambdaJ) < 1e-12,
      qPrintable(
          QString("lambda %1, %2; expected %3, %4").arg(s.lambdaI).arg(s.lambdaJ).arg(lambdaI).arg(lambdaJ)));
  CLUMPLAB_COMPARE_REL(std::sqrt(s.distance2), distance, 1e-12);
  // The same pair seen from j: the roles swap and R_ij changes sign.
  const ShaftClosestPoints back = closestShaftPoints(-rij, uj, hj, ui, hi);
  CLUMPLAB_COMPARE_REL(std::sqrt(back.distance2), distance, 1e-12);
}

void TestShaftDistance::parallelDistanceIsFigure2sFormula() {
  // Fig. 2, parallel branch: delta^2 = |R|^2 - (u_i.R)^2 + max(0, |u_i.R| - (l_i + l_j)/2)^2.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> len(0.0, 2.0), pos(-3.0, 3.0);
  for (int k = 0; k < 200; ++k) {
    const Vec3 u = randomUnit(rng), r(pos(rng), pos(rng), pos(rng));
    const double hi = len(rng), hj = len(rng);
    const double along = std::abs(u.dot(r)), gap = std::max(0.0, along - (hi + hj));
    const double expected = r.squaredNorm() - along * along + gap * gap;
    const ShaftClosestPoints s = closestShaftPoints(r, u, hi, k % 2 == 0 ? u : Vec3(-u), hj);
    QVERIFY2(std::abs(s.distance2 - expected) <= 1e-12 * (1.0 + expected),
             qPrintable(QString("%1 against %2").arg(s.distance2, 0, 'g', 15).arg(expected, 0, 'g', 15)));
  }
}

void TestShaftDistance::printedSignOfLambdaJIsWrong() {
  // With lambda'_j as printed, Fig. 2 returns distances above the true minimum for some pairs:
  // the sign of the unconstrained lambda'_j must follow the distance vector R_ij + l_j u_j - l_i u_i.
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> len(0.1, 2.0), pos(-2.0, 2.0);
  int wrong = 0;
  for (int k = 0; k < 200; ++k) {
    const Pair p{Vec3(pos(rng), pos(rng), pos(rng)), randomUnit(rng), randomUnit(rng), len(rng), len(rng)};
    if (figure2AsPrinted(p) > bruteForce(p) + 1e-9) ++wrong;
  }
  QVERIFY2(wrong > 20, qPrintable(QString("only %1 of 200 pairs wrong").arg(wrong)));
}

QTEST_GUILESS_MAIN(TestShaftDistance)
#include "tst_shaft_distance.moc"
