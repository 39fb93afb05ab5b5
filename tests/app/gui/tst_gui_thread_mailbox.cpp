// GuiThreadMailbox: calls posted from worker threads run on the GUI thread, each once, in each
// sender's order, with the data they captured intact. Under the tsan preset this is also the
// regression test for the hand-off TSan used to report (functors through Qt's uninstrumented queue).
#include <QtTest>
#include <array>
#include <string>
#include <thread>
#include <vector>

#include "BuildSize.hpp"
#include "gui/jobs/GuiThreadMailbox.hpp"

using clumplab::gui::GuiThreadMailbox;

class GuiThreadMailboxTest : public QObject {
  Q_OBJECT
 private slots:
  void callsFromWorkersRunOnTheGuiThreadInOrder() {
    GuiThreadMailbox mailbox;
    constexpr int kThreads = 4, kCalls = 500;
    std::array<std::vector<int>, kThreads> received;
    int offThread = 0, badText = 0;
    const auto gui = QThread::currentThread();
    std::vector<std::thread> workers;
    for (int t = 0; t < kThreads; ++t) {
      workers.emplace_back([&, t] {
        for (int k = 0; k < kCalls; ++k) {
          // Heap-held data written on the worker, read on the GUI thread.
          std::string text = "call " + std::to_string(k) + " of thread " + std::to_string(t);
          mailbox.post([&, t, k, text = std::move(text)] {
            offThread += QThread::currentThread() != gui;
            badText += text != "call " + std::to_string(k) + " of thread " + std::to_string(t);
            received[t].push_back(k);
          });
        }
      });
    }
    for (auto& w : workers) w.join();
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
          for (const auto& r : received)
            if (r.size() != kCalls) return false;
          return true;
        }(),
        clumplab::test::wallClockMs(60000));
    QCOMPARE(offThread, 0);
    QCOMPARE(badText, 0);
    for (const auto& r : received) {
      for (int k = 0; k < kCalls; ++k) QCOMPARE(r[k], k);
    }
  }

  void theApplicationMailboxIsOneChildOfTheApplication() {
    GuiThreadMailbox* a = GuiThreadMailbox::application();
    QVERIFY(a != nullptr);
    QCOMPARE(a, GuiThreadMailbox::application());
    QCOMPARE(a->parent(), QCoreApplication::instance());
  }
};

QTEST_GUILESS_MAIN(GuiThreadMailboxTest)
#include "tst_gui_thread_mailbox.moc"
