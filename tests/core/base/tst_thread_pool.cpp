// The thread pool under stress: every chunk of every run executes exactly once, also when runs are
// separated by pauses long enough for the helpers to fall asleep and wake late. (A race of a few
// nanoseconds once let a late helper claim a chunk of the next run with the old run's word; these
// tests stress the same paths, though they cannot force that window.)
#include <QtTest>
#include <atomic>
#include <chrono>
#include <random>
#include <thread>
#include <vector>

#include "core/base/ThreadPool.hpp"

using namespace clumplab;

class ThreadPoolTest : public QObject {
  Q_OBJECT
 private slots:
  // First in this process, so the pool's helper is spawned here: its very first run must be shared.
  // (Helpers used to read the current generation when their thread started, so a run published
  // meanwhile, the one-off run of a geometry computation, went to the caller alone.)
  void theFirstRunOfANewHelperIsShared() {
    ThreadPool pool(2);
    std::vector<std::thread::id> who(64);
    pool.run(who.size(), [&](std::size_t c) {
      who[c] = std::this_thread::get_id();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    });
    int others = 0;
    for (const auto& id : who) others += id != std::this_thread::get_id();
    QVERIFY2(others > 8, qPrintable(QString("the helper ran %1 of 64 chunks").arg(others)));
  }

  // Each thread starts on a block of its own (the caller the first half of the chunks, the helper
  // the second), so that run after run the same chunks, the same bodies, stay on the same core; a
  // thread that is done takes chunks from the other's block.
  void eachThreadStartsOnItsOwnBlock() {
    ThreadPool pool(2);
    for (int run = 0; run < 3; ++run) {
      std::vector<std::thread::id> who(64);
      pool.run(who.size(), [&](std::size_t c) {
        who[c] = std::this_thread::get_id();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      });
      const std::thread::id caller = std::this_thread::get_id();
      QVERIFY2(who[0] == caller && who[1] == caller, "the caller starts at the first chunk");
      QVERIFY2(who[32] != caller && who[33] != caller, "the helper starts at the middle chunk");
    }
  }

  void everyChunkExactlyOnce_data() {
    QTest::addColumn<int>("threads");
    QTest::newRow("2 threads") << 2;
    QTest::newRow("3 threads") << 3;
  }
  void everyChunkExactlyOnce() {
    QFETCH(int, threads);
    ThreadPool pool(threads);
    std::mt19937 rng(12345);
    std::vector<std::atomic<int>> hits(200);
    for (int run = 0; run < 4000; ++run) {
      const std::size_t count = 1 + rng() % 120;
      for (std::size_t i = 0; i < count; ++i) hits[i].store(0);
      pool.run(count, [&](std::size_t i) {
        hits[i].fetch_add(1);
        if ((i & 7) == 0) std::this_thread::yield();
      });
      for (std::size_t i = 0; i < count; ++i) {
        if (hits[i].load() != 1)
          QFAIL(qPrintable(QString("run %1: chunk %2 ran %3 times").arg(run).arg(i).arg(hits[i].load())));
      }
      // Now and then pause past the helpers' spin time, so they go to sleep and must be woken.
      if (rng() % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 300));
    }
  }

  void lateHelperMeetsTheNextRun() {
    // Helpers asleep, a tiny run the caller finishes alone before the woken helper arrives, then at
    // once a larger run: the pattern in which the race occurred. A watchdog turns a hang into a failure.
    std::atomic<bool> finished{false};
    std::thread watchdog([&] {
      for (int i = 0; i < 900 && !finished.load(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (!finished.load()) qFatal("the thread pool hung (a chunk ran twice or a wake-up was lost)");
    });
    ThreadPool pool(2);
    std::vector<std::atomic<int>> hits(64);
    int wrong = 0;
    for (int iteration = 0; iteration < 6000 && wrong == 0; ++iteration) {
      std::this_thread::sleep_for(std::chrono::microseconds(150 + iteration % 100));
      pool.run(2, [&](std::size_t) {});
      for (auto& h : hits) h.store(0);
      pool.run(hits.size(), [&](std::size_t i) { hits[i].fetch_add(1); });
      for (auto& h : hits) wrong += h.load() != 1;
    }
    finished.store(true);
    watchdog.join();
    QCOMPARE(wrong, 0);
  }

  void twoPoolsAtOnce() {
    // Two pools used from two threads share the workers; both must complete correctly.
    std::atomic<long> total{0};
    const auto work = [&] {
      ThreadPool pool(2);
      for (int run = 0; run < 2000; ++run)
        pool.run(17, [&](std::size_t i) { total.fetch_add(static_cast<long>(i)); });
    };
    std::thread other(work);
    work();
    other.join();
    QCOMPARE(total.load(), 2L * 2000L * (16L * 17L / 2L));
  }
};

QTEST_GUILESS_MAIN(ThreadPoolTest)
#include "tst_thread_pool.moc"
