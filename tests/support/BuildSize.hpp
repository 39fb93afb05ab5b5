#pragma once
// What a test may ask of the build it runs in. A test's verdict must not depend on how fast the
// machine is: heavy physics cases keep their assertions but run a case sized for the build (the
// full case in optimised builds, a smaller one under the sanitizers, which run 3-20x slower), and a
// wall-clock bound (a wait for the app's thread, a responsiveness check) is measured in the release
// build and scaled for the sanitizers. Both are chosen when the tests are compiled (CMake's
// CLUMPLAB_REDUCED_TEST_CASES, on where CMAKE_CXX_FLAGS hold -fsanitize=), never by timing.
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
