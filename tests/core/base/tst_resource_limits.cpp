// Resource limits: caps on pebbles and estimated memory checked before a scene makes its
// bodies, with a message naming the key, the limit and how to raise it; the command-line options and
// environment variables that set them.
#include <QtTest>
#include <chrono>
#include <cstdlib>

#include "BuildSize.hpp"
#include "core/base/Errors.hpp"
#include "core/base/ResourceLimits.hpp"
#include "core/scene/Scene.hpp"

using namespace clumplab;

namespace {
std::string tbarScene(long long count) {
  return R"({"format": "clumplab-scene/1", "time_step": 1e-5,
    "contact": {"model": "linear", "stiffness": 1e3, "restitution": 0.5},
    "templates": {"t": {"density": 2500, "inertia": "pebbles",
                        "pebbles": [[0,0,0,0.001],[0,0,0.002,0.001],[0.002,0,0.002,0.001]]}},
    "generate": [{"template": "t", "count": )" +
         std::to_string(count) + R"(, "region": {"min": [0,0,0], "max": [1,1,1]}}]})";
}

struct LimitsGuard {  // restores the process's limits after a test
  ResourceLimits saved = resourceLimits();
  ~LimitsGuard() { setResourceLimits(saved); }
};
}  // namespace

class ResourceLimitsTest : public QObject {
  Q_OBJECT
 private slots:
  void pebbleLimitRefusesBeforeGenerating() {
    LimitsGuard guard;
    ResourceLimits l = resourceLimits();
    l.maxPebbles = 3000;
    setResourceLimits(l);
    QCOMPARE(parseScene(tbarScene(1000), "ok.json").bodies.size(),
             std::size_t(1000));  // 3000 pebbles: at the limit
    const auto start = std::chrono::steady_clock::now();
    try {
      (void)parseScene(tbarScene(1'000'000'000'000LL), "huge.json");
      QFAIL("a trillion bodies were accepted");
    } catch (const InputError& e) {
      const QString what = e.what();
      QVERIFY2(
          what.contains("huge.json: generate[0].count: the scene would hold 3000000000000 pebbles, more than "
                        "the limit of 3000 (raise it with --max-pebbles N or CLUMPLAB_MAX_PEBBLES=N)"),
          qPrintable(what));
    }
    // Refused before any body is placed: well under a second, whatever the count.
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    QVERIFY2(seconds < clumplab::test::wallClockMs(5000) / 1000.0, qPrintable(QString::number(seconds)));
  }

  void aLimitErrorSaysWhichLimitAndWhatWouldPass() {
    // What a front end needs to offer the limit raised: its name and the value that passes; the
    // desktop app's messages carry no command-line advice.
    LimitsGuard guard;
    ResourceLimits l = resourceLimits();
    l.maxPebbles = 3000;
    setResourceLimits(l);
    for (const LimitAdvice advice : {LimitAdvice::CommandLine, LimitAdvice::None}) {
      setLimitAdvice(advice);
      try {
        (void)parseScene(tbarScene(2000), "big.json");
        QFAIL("6000 pebbles were accepted");
      } catch (const LimitError& e) {
        QCOMPARE(e.limit(), std::string("pebbles"));
        QCOMPARE(e.needed(), std::uint64_t{6000});
        const QString what = e.what();
        QVERIFY2(what.endsWith(advice == LimitAdvice::None
                                   ? "more than the limit of 3000"
                                   : "(raise it with --max-pebbles N or CLUMPLAB_MAX_PEBBLES=N)"),
                 qPrintable(what));
        setResourceLimits(raised(resourceLimits(), e.limit(), e.needed()));
      }
      QCOMPARE(parseScene(tbarScene(2000), "big.json").bodies.size(), std::size_t(2000));
      setResourceLimits(l);
    }
    setLimitAdvice(LimitAdvice::CommandLine);
    QCOMPARE(raised(l, "triangles", 10).maxTriangles, l.maxTriangles);  // never lowered
    QCOMPARE(raised(l, "no-such-limit", 10).maxPebbles, l.maxPebbles);
  }

  void memoryEstimateRefuses() {
    LimitsGuard guard;
    ResourceLimits l = resourceLimits();
    l.maxMemoryMB = 20;
    setResourceLimits(l);
    QVERIFY(estimatedWorldBytes(3000, 1000) < (std::size_t(20) << 20));
    (void)parseScene(tbarScene(1000), "ok.json");
    try {
      (void)parseScene(tbarScene(100'000), "big.json");
      QFAIL("accepted beyond the memory limit");
    } catch (const InputError& e) {
      const QString what = e.what();
      QVERIFY2(what.contains("big.json: generate[0].count: the scene would need about") &&
                   what.contains("more than the limit of 20 MiB (raise it with --max-memory-mb N or "
                                 "CLUMPLAB_MAX_MEMORY_MB=N)"),
               qPrintable(what));
    }
  }

  void defaultMemoryLimitIsMostOfTheRam() {
    ResourceLimits l;
    l.maxMemoryMB = 0;
    const std::size_t bytes = l.memoryBytes();
    QVERIFY2(bytes > (std::size_t(256) << 20), qPrintable(QString::number(bytes)));
    l.maxMemoryMB = 123;
    QCOMPARE(l.memoryBytes(), std::size_t(123) << 20);
  }

  void commandLineOptionsAreTakenOut() {
    LimitsGuard guard;
    std::vector<std::string> args = {"scene.json", "--max-pebbles",     "42", "--steps",
                                     "5",          "--max-fill-points", "7",  "--max-triangles",
                                     "9",          "--max-memory-mb",   "11"};
    takeLimitOptions(args);
    QCOMPARE(args, (std::vector<std::string>{"scene.json", "--steps", "5"}));
    QCOMPARE(resourceLimits().maxPebbles, std::size_t(42));
    QCOMPARE(resourceLimits().maxFillPoints, std::int64_t(7));
    QCOMPARE(resourceLimits().maxTriangles, std::size_t(9));
    QCOMPARE(resourceLimits().maxMemoryMB, std::size_t(11));
    for (const auto& bad : std::vector<std::vector<std::string>>{{"--max-pebbles"},
                                                                 {"--max-pebbles", "0"},
                                                                 {"--max-pebbles", "-5"},
                                                                 {"--max-pebbles", "12abc"}}) {
      std::vector<std::string> a = bad;
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, takeLimitOptions(a));
    }
  }

  void environmentVariables() {
    qputenv("CLUMPLAB_MAX_PEBBLES", "1234");
    qputenv("CLUMPLAB_MAX_MEMORY_MB", "77");
    ResourceLimits l = ResourceLimits::fromEnvironment();
    QCOMPARE(l.maxPebbles, std::size_t(1234));
    QCOMPARE(l.maxMemoryMB, std::size_t(77));
    QCOMPARE(l.maxTriangles, ResourceLimits{}.maxTriangles);
    qputenv("CLUMPLAB_MAX_TRIANGLES", "many");
    try {
      (void)ResourceLimits::fromEnvironment();
      QFAIL("a bad variable was accepted");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("CLUMPLAB_MAX_TRIANGLES=many: expected a positive whole number"),
               e.what());
    }
    qunsetenv("CLUMPLAB_MAX_PEBBLES");
    qunsetenv("CLUMPLAB_MAX_MEMORY_MB");
    qunsetenv("CLUMPLAB_MAX_TRIANGLES");
  }
};

QTEST_GUILESS_MAIN(ResourceLimitsTest)
#include "tst_resource_limits.moc"
