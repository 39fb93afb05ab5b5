// CLUMPLAB_ASSERT (core/base/Assert.hpp): in builds with CLUMPLAB_ASSERTIONS (debug, asan-ubsan, tsan) a
// broken invariant aborts with its file, line and message, and World's invariants hold through
// steps, removals and restores; in the others the condition is not even evaluated.
#include <sys/wait.h>
#include <unistd.h>
#include <QtTest>

#include "TestSupport.hpp"
#include "core/base/Assert.hpp"

using namespace clumplab;
using namespace clumplab::test;

namespace {
// Runs `f` in a child process; returns its stderr and whether it died of SIGABRT.
template <class F>
std::pair<QString, bool> inChild(F&& f) {
  int pipeFds[2];
  if (pipe(pipeFds) != 0) qFatal("pipe failed");
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipeFds[1], STDERR_FILENO);
    close(pipeFds[0]);
    f();
    _exit(0);
  }
  close(pipeFds[1]);
  QByteArray err;
  char buffer[512];
  for (ssize_t n; (n = read(pipeFds[0], buffer, sizeof buffer)) > 0;) err.append(buffer, n);
  close(pipeFds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return {QString::fromLocal8Bit(err), WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT};
}
}  // namespace

class AssertTest : public QObject {
  Q_OBJECT
 private slots:
  void brokenInvariantAbortsWithItsPlace() {
    if (!kAssertions) QSKIP("a build without CLUMPLAB_ASSERTIONS (the release preset)");
    const auto [err, aborted] = inChild([] {
      const int pebbles = 3;
      CLUMPLAB_ASSERT(pebbles < 2, "a test invariant");
    });
    QVERIFY(aborted);
    QVERIFY2(err.contains("tst_assert.cpp:") && err.contains("assertion failed: a test invariant") &&
                 err.contains("pebbles < 2"),
             qPrintable(err));
  }

  void conditionIsNotEvaluatedWithoutAssertions() {
    int evaluated = 0;
    CLUMPLAB_ASSERT(++evaluated > 0, "counts its evaluations");
    QCOMPARE(evaluated, kAssertions ? 1 : 0);
  }

  // World checks its invariants after every step, removal and restore in assertion builds: a pile
  // with contacts, removals in the middle of it and a restore run through them.
  void worldInvariantsHoldThroughEdits() {
    WorldSettings s;
    s.timeStep = 1e-4;
    World world(s, linearContact(1e3, 0.5, 0.5), Wall::box(Vec3(-0.02, -0.02, 0), Vec3(0.02, 0.02, 0.1)),
                {templateFromPebbles(tbarPebbles(), 2500.0, "tbar")});
    for (int i = 0; i < 12; ++i) {
      BodyInit b;
      b.position = Vec3(-0.012 + 0.008 * (i % 4), -0.008 + 0.008 * ((i / 4) % 3), 0.004 + 0.003 * i);
      b.orientation = Quat(Eigen::AngleAxisd(0.3 * i, Vec3(1, 1, 0).normalized()));
      world.addBody(b);
    }
    for (int n = 0; n < 1500; ++n) QVERIFY(world.step());
    QVERIFY(world.contactCount() > 0);
    const WorldCheckpoint saved = world.checkpoint();
    world.removeBody(3);
    world.removeBody(0);
    for (int n = 0; n < 200; ++n) QVERIFY(world.step());
    world.restore(saved);
    QCOMPARE(world.bodies().size(), std::size_t(12));
    for (int n = 0; n < 200; ++n) QVERIFY(world.step());
  }
};

QTEST_GUILESS_MAIN(AssertTest)
#include "tst_assert.moc"
