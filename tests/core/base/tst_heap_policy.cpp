// keepLargeBlocksMapped (HeapPolicy.hpp): after it, a large block is mapped on its own and unmapped
// when freed even once a larger block was freed before it (which, left to glibc, raises the mapping
// threshold to that block's size, so the next large blocks come from the heap and stay resident
// after they are freed).
#include <QtTest>
#include <cstdlib>
#include <cstring>

#include "core/base/HeapPolicy.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CLUMPLAB_OWN_ALLOCATOR 1  // the sanitizers replace malloc: glibc's settings do not apply
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CLUMPLAB_OWN_ALLOCATOR 1
#endif
#endif

class HeapPolicyTest : public QObject {
  Q_OBJECT
 private slots:
  void largeBlocksAreReturnedWhenFreed() {
#if !defined(__GLIBC__) || defined(CLUMPLAB_OWN_ALLOCATOR)
    QSKIP("glibc's malloc only");
#else
    clumplab::keepLargeBlocksMapped();
    constexpr std::size_t kBig = 16u << 20, kLarge = 1u << 20;  // [bytes]
    void* big = std::malloc(kBig);
    QVERIFY(big != nullptr);
    std::memset(big, 1, kBig);
    std::free(big);  // left to glibc, the threshold would now be 16 MiB
    const std::size_t mappedBefore = mallinfo2().hblkhd;
    void* large = std::malloc(kLarge);
    QVERIFY(large != nullptr);
    std::memset(large, 1, kLarge);
    const std::size_t mappedWith = mallinfo2().hblkhd;
    QVERIFY2(mappedWith >= mappedBefore + kLarge,
             qPrintable(QString("mapped bytes %1 -> %2: the 1 MiB block came from the heap")
                            .arg(mappedBefore)
                            .arg(mappedWith)));
    std::free(large);
    QCOMPARE(mallinfo2().hblkhd, mappedBefore);  // unmapped: no longer resident
#endif
  }
};

QTEST_APPLESS_MAIN(HeapPolicyTest)
#include "tst_heap_policy.moc"
