#pragma once
// What a test may ask of the build it runs in. A test's verdict must not depend on how fast the
// machine is: heavy physics cases keep their assertions but run a case sized for the build (the
// full case in optimised builds, a smaller one under the sanitizers, which run 3-20x slower), and a
// wall-clock bound (a wait for the app's thread, a responsiveness check) is measured in the release
// build and scaled for the sanitizers. Both are chosen when the tests are compiled (CMake's
// CLUMPLAB_REDUCED_TEST_CASES, on where CMAKE_CXX_FLAGS hold -fsanitize=), never by timing.
// The sanitizer the tests are built with, for the checks that cannot run under it: CLUMPLAB_UNDER_TSAN
// and CLUMPLAB_UNDER_ASAN are 1 or 0. gcc defines __SANITIZE_THREAD__ and __SANITIZE_ADDRESS__;
// clang 14 tells only through __has_feature.
#if defined(__SANITIZE_THREAD__)
#define CLUMPLAB_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CLUMPLAB_UNDER_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CLUMPLAB_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CLUMPLAB_UNDER_ASAN 1
#endif
#endif
#ifndef CLUMPLAB_UNDER_TSAN
#define CLUMPLAB_UNDER_TSAN 0
#endif
#ifndef CLUMPLAB_UNDER_ASAN
#define CLUMPLAB_UNDER_ASAN 0
#endif

// In a Qt Test function that starts a child process: skipped under ThreadSanitizer, which does not
// support fork in a threaded program (clang 14's crashes the child); it runs in the release suite.
#if CLUMPLAB_UNDER_TSAN
#define CLUMPLAB_SKIP_FORK_UNDER_TSAN() \
  QSKIP("starts a child process (fork), which ThreadSanitizer does not support in a threaded program")
#else
#define CLUMPLAB_SKIP_FORK_UNDER_TSAN() static_cast<void>(0)
#endif

namespace clumplab::test {

#ifdef CLUMPLAB_REDUCED_TEST_CASES
inline constexpr bool kReducedCases = true;
// ThreadSanitizer runs the app's threads 5-15x slower, AddressSanitizer the engine 3-5x.
inline constexpr int kWallClockFactor = 10;
#else
inline constexpr bool kReducedCases = false;
inline constexpr int kWallClockFactor = 1;
#endif

// `full` in an optimised build, `reduced` in a sanitized one.
template <class T>
constexpr T sizedForBuild(T full, T reduced) {
  return kReducedCases ? reduced : full;
}

// A wall-clock bound measured in the release build [ms], for this build.
constexpr int wallClockMs(int releaseMs) {
  return releaseMs * kWallClockFactor;
}

}  // namespace clumplab::test
