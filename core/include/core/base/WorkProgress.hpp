#pragma once
// Progress and cancellation of long computations (fills, sampled mass properties, clump metrics),
// for callers that run them off their interface thread. Plain C++: a callback and a flag.
//
// A computation that takes a WorkProgress calls `report(fraction, stage)` from the thread that
// called it (never from its helper threads), with fractions that never decrease and end at 1, and
// checks the flag every few milliseconds, throwing OperationCancelled once it is set. It then
// returns nothing: its caller's previous results stay as they were.
#include <atomic>
#include <functional>
#include <stdexcept>
#include <string_view>

namespace clumplab {

class OperationCancelled : public std::runtime_error {
 public:
  OperationCancelled() : std::runtime_error("cancelled") {}
};

struct WorkProgress {
  // fraction in [0, 1], stage a few words ("filling", "voxels 128 per side"); may be empty.
  std::function<void(double fraction, std::string_view stage)> callback;
  const std::atomic<bool>* cancel = nullptr;  // set to true (any thread) to stop; may be null

  bool cancelled() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }
  void throwIfCancelled() const {
    if (cancelled()) throw OperationCancelled();
  }
  // Reports (when a callback is set), then throws if cancelled.
  void report(double fraction, std::string_view stage) const {
    if (callback) callback(fraction, stage);
    throwIfCancelled();
  }
  // The cancel flag alone, for work that reports in its own words or not at all.
  WorkProgress silent() const {
    WorkProgress p;
    p.cancel = cancel;
    return p;
  }
  // The part [begin, end] of this progress: the part's fraction f reports begin + f (end - begin).
  // Shares the cancel flag.
  WorkProgress part(double begin, double end) const {
    WorkProgress p;
    p.cancel = cancel;
    if (callback) {
      p.callback = [outer = callback, begin, end](double f, std::string_view stage) {
        outer(begin + f * (end - begin), stage);
      };
    }
    return p;
  }
};

}  // namespace clumplab
