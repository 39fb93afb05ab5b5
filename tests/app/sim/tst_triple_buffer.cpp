// TripleBuffer: the reader gets the newest published slot and never a slot being written, with a
// writer and a reader on two threads (under the tsan preset too: labelled threads).
#include <QtTest>
#include <array>
#include <atomic>
#include <cstdint>
#include <thread>

#include "sim/TripleBuffer.hpp"

using namespace clumplab::sim;

namespace {
// A slot whose every word carries the sequence number it was written with: a torn read (a slot
// read while written) shows as words that disagree.
struct Stamped {
  std::array<std::uint64_t, 64> words{};
};
}  // namespace

class TestTripleBuffer : public QObject {
  Q_OBJECT
 private slots:
  void readerGetsTheNewestPublished() {
    TripleBuffer<int> buffer;
    QVERIFY(!buffer.acquire());  // nothing published yet
    buffer.writeSlot() = 1;
    buffer.publish();
    buffer.writeSlot() = 2;
    buffer.publish();  // 1 is overwritten before the reader looked: it gets 2
    QVERIFY(buffer.acquire());
    QCOMPARE(buffer.readSlot(), 2);
    QVERIFY(!buffer.acquire());  // no newer one
    QCOMPARE(buffer.readSlot(), 2);
    buffer.writeSlot() = 3;
    buffer.publish();
    QVERIFY(buffer.acquire());
    QCOMPARE(buffer.readSlot(), 3);
  }

  void concurrentReaderSeesWholeSlotsInOrder() {
    TripleBuffer<Stamped> buffer;
    constexpr std::uint64_t kFrames = 200000;
    std::atomic<bool> done{false};
    std::thread writer([&] {
      for (std::uint64_t n = 1; n <= kFrames; ++n) {
        Stamped& slot = buffer.writeSlot();
        slot.words.fill(n);
        buffer.publish();
      }
      done = true;
    });
    std::uint64_t last = 0, seen = 0, torn = 0, backwards = 0;
    while (true) {
      // Read before acquiring: once the writer is done, one more acquire finds its last frame.
      const bool finished = done.load();
      if (buffer.acquire()) {
        const Stamped& slot = buffer.readSlot();
        const std::uint64_t n = slot.words[0];
        for (std::uint64_t w : slot.words) torn += w != n ? 1 : 0;
        backwards += n <= last ? 1 : 0;
        last = n;
        ++seen;
      } else if (finished) {
        break;
      }
    }
    writer.join();
    QCOMPARE(torn, std::uint64_t{0});
    QCOMPARE(backwards, std::uint64_t{0});
    QVERIFY(seen >= 1);
    QCOMPARE(buffer.readSlot().words[0], kFrames);  // the reader ends on the last frame
  }
};

QTEST_APPLESS_MAIN(TestTripleBuffer)
#include "tst_triple_buffer.moc"
