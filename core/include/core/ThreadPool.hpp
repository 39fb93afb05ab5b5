#pragma once
// A small persistent pool that runs `task(chunk)` for chunk = 0..count-1 on N threads.
// Which thread runs which chunk varies; callers make results independent of that by writing
// per-chunk outputs and reducing them in chunk order.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace clumplab {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }
  void run(std::size_t count, const std::function<void(std::size_t)>& task);

 private:
  void workerLoop();
  void drain();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t count_ = 0;
  std::atomic<std::size_t> next_{0};
  std::size_t generation_ = 0;
  int busy_ = 0;
  bool stop_ = false;
};

}  // namespace clumplab
