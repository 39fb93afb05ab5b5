// Determinism: generation is a pure function of the seed, and a run gives the same bits (state and
// dissipated energy) for the same thread count (and, by the chunked design, for any thread count).
#include <QtTest>

#include "SceneBuilders.hpp"
#include "TestSupport.hpp"
#include "core/scene/Scene.hpp"

using namespace clumplab;

namespace {
// goldenBits' figures: runPile(1, 4000, integrator), recorded at 7c9f16e.
constexpr std::uint64_t kGoldenLeapfrog = 0xf694361a204594d9ULL;
constexpr std::uint64_t kGoldenMidpoint = 0x80f0c499a8af47e6ULL;
constexpr std::uint64_t kGoldenSplitting = 0xefb51b15fd1b4374ULL;
// The pile: 150 T-bars, scaled 0.8-1.2, with a tangential dashpot.
const std::string kPile = test::tbarPileJson({.description = "determinism",
                                              .count = 150,
                                              .top = 0.07,
                                              .scale = {0.8, 1.2},
                                              .tangentialDamping = 0.001});

std::uint64_t runPile(int threads, int steps, IntegratorKind kind = IntegratorKind::Leapfrog) {
  Scene scene = parseScene(kPile, "pile.json");
  scene.model.settings.threads = threads;
  scene.model.settings.integrator = kind;
  auto world = buildWorld(scene);
  for (int n = 0; n < steps; ++n) test::mustStep(*world);
  if (world->contactCount() == 0) qFatal("the pile must have contacts for this test to mean anything");
  // The state and the dissipated energy (summed over body chunks in chunk order).
  return test::mixBits(test::stateHash(*world), world->state().ledger.dissipated);
}
}  // namespace

class DeterminismTest : public QObject {
  Q_OBJECT
 private slots:
  void generationDependsOnlyOnTheSeed() {
    const Scene a = parseScene(kPile, "a.json"), b = parseScene(kPile, "b.json");
    QCOMPARE(a.bodies.size(), std::size_t(150));
    for (std::size_t i = 0; i < a.bodies.size(); ++i) {
      QCOMPARE(a.bodies[i].position, b.bodies[i].position);
      QCOMPARE(a.bodies[i].orientation.coeffs(), b.bodies[i].orientation.coeffs());
    }
    std::string other = kPile;
    other.replace(other.find("\"seed\": 7"), 9, "\"seed\": 8");
    QVERIFY(parseScene(other, "c.json").bodies[0].position != a.bodies[0].position);
  }

  void sameThreadsSameBits() {
    QCOMPARE(runPile(1, 6000), runPile(1, 6000));
    QCOMPARE(runPile(2, 6000), runPile(2, 6000));
  }

  void threadCountDoesNotChangeTheResult_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("leapfrog") << static_cast<int>(IntegratorKind::Leapfrog);
    QTest::newRow("midpoint") << static_cast<int>(IntegratorKind::Midpoint);
    QTest::newRow("splitting") << static_cast<int>(IntegratorKind::Splitting);
  }
  void threadCountDoesNotChangeTheResult() {
    QFETCH(int, kind);
    const auto k = static_cast<IntegratorKind>(kind);
    QCOMPARE(runPile(2, 4000, k), runPile(1, 4000, k));
  }

  // The guard rail for refactoring: the pile after 4000 steps under each integrator, to
  // the bit, against the hash recorded when it was written. A change that means to change the
  // physics updates these figures and says so in its commit; any other change must leave them.
  void goldenBits_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<quint64>("golden");
    QTest::newRow("leapfrog") << static_cast<int>(IntegratorKind::Leapfrog) << quint64(kGoldenLeapfrog);
    QTest::newRow("midpoint") << static_cast<int>(IntegratorKind::Midpoint) << quint64(kGoldenMidpoint);
    QTest::newRow("splitting") << static_cast<int>(IntegratorKind::Splitting) << quint64(kGoldenSplitting);
  }
  void goldenBits() {
    QFETCH(int, kind);
    QFETCH(quint64, golden);
    const std::uint64_t bits = runPile(1, 4000, static_cast<IntegratorKind>(kind));
    qInfo("%s: 0x%016llx", QTest::currentDataTag(), static_cast<unsigned long long>(bits));
    QCOMPARE(bits, static_cast<std::uint64_t>(golden));
  }
};

QTEST_GUILESS_MAIN(DeterminismTest)
#include "tst_determinism.moc"
