#pragma once
// A small pool that runs `task(chunk)` for chunk = 0..count-1 on up to N threads: the caller and
// N-1 helpers from one process-wide set of worker threads shared by all pools (so a World and its
// integrator can both use one without oversubscribing cores). Helpers spin briefly between runs,
// then sleep. Which thread runs which chunk varies; callers make results independent of that by
// writing per-chunk outputs and reducing them in chunk order. A run that finds the workers busy
// (another thread's run, or a nested run) executes on the calling thread alone.
#include <cstddef>
#include <functional>

namespace clumplab {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return threads_; }
  // The machine's cores, at least 1 and at most 8: the default for one-off computations.
  static int machineThreads();
  void run(std::size_t count, const std::function<void(std::size_t)>& task);

 private:
  int threads_;
};

}  // namespace clumplab
