#pragma once
// CLUMPLAB_ASSERT(condition, message): an invariant of the code (not of the input: bad input
// throws with a message for the user). Checked in builds configured with CLUMPLAB_ASSERTIONS=ON
// (the debug, asan-ubsan and tsan presets), where a broken invariant prints the condition, the
// message, the file and the line to stderr and aborts; compiled out elsewhere (the condition is
// not evaluated), so the release build runs at full speed.

namespace clumplab {

#ifdef CLUMPLAB_ASSERTIONS
inline constexpr bool kAssertions = true;
#else
inline constexpr bool kAssertions = false;
#endif

namespace detail {
[[noreturn]] void assertionFailed(const char* condition, const char* message, const char* file, int line);
}  // namespace detail

}  // namespace clumplab

#ifdef CLUMPLAB_ASSERTIONS
#define CLUMPLAB_ASSERT(condition, message)                                                           \
  do {                                                                                                \
    if (!(condition)) ::clumplab::detail::assertionFailed(#condition, (message), __FILE__, __LINE__); \
  } while (false)
#else
// sizeof's operand is not evaluated: the condition costs nothing, and what it names counts as used.
#define CLUMPLAB_ASSERT(condition, message)         \
  do {                                              \
    static_cast<void>(sizeof((condition) ? 1 : 0)); \
  } while (false)
#endif
