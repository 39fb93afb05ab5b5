#pragma once
// A single-producer single-consumer triple buffer: the writer always has a slot of its own to fill,
// the reader always gets the newest complete one, and neither ever waits for the other. Slots are
// reused, so their storage (vectors) is allocated once and refilled in place.
#include <array>
#include <atomic>
#include <cstdint>

namespace clumplab::sim {

template <class T>
class TripleBuffer {
 public:
  // Writer side: the slot to fill, then publish() it.
  T& writeSlot() { return slots_[write_]; }
  void publish() {
    // Swap the write slot with the middle one and mark it fresh; release makes the filled slot
    // visible to the reader that acquires it.
    const std::uint8_t previous =
        middle_.exchange(static_cast<std::uint8_t>(write_ | kFresh), std::memory_order_acq_rel);
    write_ = previous & kIndexMask;
  }

  // Reader side: swaps in the newest published slot if there is one; returns true if it changed.
  bool acquire() {
    if ((middle_.load(std::memory_order_relaxed) & kFresh) == 0) return false;
    const std::uint8_t previous = middle_.exchange(read_, std::memory_order_acq_rel);
    read_ = previous & kIndexMask;
    return true;
  }
  // The slot last acquired (valid until the next acquire()).
  const T& readSlot() const { return slots_[read_]; }

 private:
  static constexpr std::uint8_t kFresh = 0x4;
  static constexpr std::uint8_t kIndexMask = 0x3;
  std::array<T, 3> slots_{};
  std::uint8_t write_ = 0;  // owned by the writer
  std::uint8_t read_ = 1;   // owned by the reader
  std::atomic<std::uint8_t> middle_{2};
};

}  // namespace clumplab::sim
