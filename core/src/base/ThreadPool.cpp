#include "core/base/ThreadPool.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "core/base/VectorState.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CLUMPLAB_PAUSE() _mm_pause()
#else
#define CLUMPLAB_PAUSE() std::this_thread::yield()
#endif

namespace clumplab {

namespace {

// The shared workers. A run publishes a new generation and splits its chunks into one contiguous
// block per participant (the caller and its helpers). Each block's chunks are claimed from the
// block's own word, which packs the run's generation (24 bits), the block's end (20 bits) and its
// next chunk index (20 bits) into one atomic on a cache line of its own. A participant drains its
// own block first, then the others': so the same chunks (the same bodies) go to the same core run
// after run while all keep up, claims do not bounce one cache line between cores, and a helper that
// is late or descheduled leaves its chunks to the others. A claim is checked against the generation
// and end stored with it, so a helper that wakes late and reads the task or block count of a newer
// run can never claim with them: every block of the old run has index == end by the time a newer
// run is published. Each participant adds the chunks it completed to `done_` once, at the end.
class Workers {
 public:
  static Workers& instance() {
    static Workers workers;
    return workers;
  }

  void ensure(int helpers) {
    std::lock_guard lock(spawnMutex_);
    while (static_cast<int>(threads_.size()) < helpers) {
      const int id = static_cast<int>(threads_.size());
      // The helper starts from the generation current now, before the caller's first run is
      // published: reading it in the new thread could miss that run (it was published while the
      // thread started), leaving a one-off run to the caller alone.
      const std::uint64_t seen = generation_.load(std::memory_order_acquire);
      threads_.emplace_back([this, id, seen] { loop(id, seen); });
    }
  }

  static constexpr int kIndexBits = 20, kCountBits = 20;
  static constexpr std::uint64_t kIndexMask = (1ULL << kIndexBits) - 1;
  static constexpr std::uint64_t kMaxCount = (1ULL << kCountBits) - 1;
  static constexpr std::uint64_t kGenerationMask = (1ULL << (64 - kIndexBits - kCountBits)) - 1;

  static std::uint64_t pack(std::uint64_t generation, std::uint64_t count, std::uint64_t index) {
    return ((generation & kGenerationMask) << (kIndexBits + kCountBits)) | (count << kIndexBits) | index;
  }

  // False when another run is in progress or the run is too large (the caller then runs the chunks
  // itself).
  bool run(std::size_t count, int helpers, const std::function<void(std::size_t)>& task) {
    if (count > kMaxCount) return false;
    bool expected = false;
    if (!busy_.compare_exchange_strong(expected, true, std::memory_order_acquire)) return false;
    const std::uint64_t generation = generation_.load(std::memory_order_relaxed) + 1;
    const std::size_t blocks =
        std::min<std::size_t>({static_cast<std::size_t>(helpers) + 1, kMaxBlocks, count});
    task_.store(&task, std::memory_order_relaxed);
    helpers_.store(helpers, std::memory_order_relaxed);
    blockCount_.store(blocks, std::memory_order_relaxed);
    done_.store(0, std::memory_order_relaxed);
    for (std::size_t p = 0; p < blocks; ++p) {
      blocks_[p].next.store(pack(generation, (p + 1) * count / blocks, p * count / blocks),
                            std::memory_order_relaxed);
    }
    generation_.store(generation, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      { std::lock_guard lock(sleepMutex_); }
      wake_.notify_all();
    }
    drain(generation, task, 0);
    while (done_.load(std::memory_order_acquire) != count) CLUMPLAB_PAUSE();
    busy_.store(false, std::memory_order_release);
    return true;
  }

  ~Workers() {
    stop_.store(true, std::memory_order_seq_cst);
    { std::lock_guard lock(sleepMutex_); }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

 private:
  // Participant `self` (0 the caller, helper i is i + 1) runs the chunks it can claim: its own
  // block's, then the other blocks' in turn.
  void drain(std::uint64_t generation, const std::function<void(std::size_t)>& task, std::size_t self) {
    clearUpperVectorState();
    const std::uint64_t tag = generation & kGenerationMask;
    const std::size_t blocks = blockCount_.load(std::memory_order_relaxed);
    std::size_t completed = 0;
    for (std::size_t k = 0; k < blocks; ++k) {
      std::atomic<std::uint64_t>& next = blocks_[(self + k) % blocks].next;
      std::uint64_t v = next.load(std::memory_order_relaxed);
      for (;;) {
        const std::uint64_t index = v & kIndexMask, end = (v >> kIndexBits) & kMaxCount;
        if ((v >> (kIndexBits + kCountBits)) != tag || index >= end) break;
        if (!next.compare_exchange_weak(v, v + 1, std::memory_order_acq_rel)) continue;
        task(static_cast<std::size_t>(index));
        ++completed;
        v = next.load(std::memory_order_relaxed);
      }
    }
    if (completed > 0) done_.fetch_add(completed, std::memory_order_release);
  }

  void loop(int id, std::uint64_t seen) {
    for (;;) {
      // Spin about 100 us for the next run (runs of a time step follow each other closely), then sleep.
      const auto spinUntil = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
      const auto waiting = [&](std::memory_order order) {
        return generation_.load(order) == seen && !stop_.load(order);
      };
      for (int k = 0; waiting(std::memory_order_acquire); ++k) {
        CLUMPLAB_PAUSE();
        if ((k & 63) == 63 && std::chrono::steady_clock::now() > spinUntil) {
          std::unique_lock lock(sleepMutex_);
          sleepers_.fetch_add(1, std::memory_order_seq_cst);
          wake_.wait(lock, [&] { return !waiting(std::memory_order_seq_cst); });
          sleepers_.fetch_sub(1, std::memory_order_relaxed);
        }
      }
      if (stop_.load(std::memory_order_relaxed)) return;
      seen = generation_.load(std::memory_order_acquire);
      if (id >= helpers_.load(std::memory_order_relaxed)) continue;
      const auto* task = task_.load(std::memory_order_relaxed);
      if (task != nullptr) drain(seen, *task, static_cast<std::size_t>(id) + 1);
    }
  }

  std::mutex spawnMutex_;
  std::vector<std::thread> threads_;
  std::atomic<bool> busy_{false};
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> generation_{0};
  // One claim word per participant's block, each on its own cache line.
  static constexpr std::size_t kMaxBlocks = 64;
  struct alignas(64) Block {
    std::atomic<std::uint64_t> next{0};
  };
  std::array<Block, kMaxBlocks> blocks_{};
  std::atomic<std::size_t> blockCount_{0};
  std::atomic<std::size_t> done_{0};
  std::atomic<int> helpers_{0};
  std::atomic<const std::function<void(std::size_t)>*> task_{nullptr};
  std::atomic<int> sleepers_{0};
  std::mutex sleepMutex_;
  std::condition_variable wake_;
};

}  // namespace

int ThreadPool::machineThreads() {
  return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
}

ThreadPool::ThreadPool(int threads) : threads_(threads < 1 ? 1 : threads) {
  if (threads_ > 1) Workers::instance().ensure(threads_ - 1);
}

void ThreadPool::run(std::size_t count, const std::function<void(std::size_t)>& task) {
  if (threads_ > 1 && count > 1) {
    const auto helpers =
        static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads_ - 1), count - 1));
    if (Workers::instance().run(count, helpers, task)) return;
  }
  clearUpperVectorState();
  for (std::size_t i = 0; i < count; ++i) task(i);
}

}  // namespace clumplab
