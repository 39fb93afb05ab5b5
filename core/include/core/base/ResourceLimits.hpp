#pragma once
// Caps on what one input may ask of the machine, checked before anything is allocated.
// A scene that would exceed one is refused with a message that names the limit and how to raise it:
// a `--max-...` option of clumplab-cli and the app, or an environment variable read at start-up.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clumplab {

struct ResourceLimits {
  std::size_t maxPebbles = 10'000'000;       // pebbles in a scene (bodies × their template's pebbles)
  std::int64_t maxFillPoints = 100'000'000;  // points tested: pebble fill grid, Monte Carlo samples
  std::size_t maxTriangles = 20'000'000;     // triangles of one imported mesh
  std::size_t maxMemoryMB = 0;               // estimated memory of a world [MiB]; 0: 3/4 of the RAM

  // The defaults above, then CLUMPLAB_MAX_PEBBLES, CLUMPLAB_MAX_FILL_POINTS, CLUMPLAB_MAX_TRIANGLES and
  // CLUMPLAB_MAX_MEMORY_MB where set. Throws std::invalid_argument for a value that is not a count.
  static ResourceLimits fromEnvironment();

  std::size_t memoryBytes() const;  // maxMemoryMB in bytes, the RAM-based default resolved
};

// The limits in force in this process (fromEnvironment() until set otherwise): a copy taken under
// the lock, so that a worker thread reading them while the GUI thread raises one reads either.
ResourceLimits resourceLimits();
void setResourceLimits(const ResourceLimits& limits);

// Takes the command-line options of the limits out of `args` (--max-pebbles N, --max-fill-points N,
// --max-triangles N, --max-memory-mb N) and sets them for this process. Throws std::invalid_argument
// for a missing or bad value.
void takeLimitOptions(std::vector<std::string>& args);

// "raise it with --max-pebbles N or CLUMPLAB_MAX_PEBBLES=N" for "pebbles", "fill-points",
// "triangles" and "memory-mb", in a process that takes command lines (the default); "" in one that
// offers its own way (the desktop app: a button in the message's dialog, no command-line advice).
std::string howToRaise(const std::string& limit);
enum class LimitAdvice { CommandLine, None };
void setLimitAdvice(LimitAdvice advice);
// `problem` with " (" + howToRaise(limit) + ")" when there is advice.
std::string withHowToRaise(const std::string& problem, const std::string& limit);
// A copy of `limits` with `limit` (a LimitError's name) raised to `value`; unknown names change nothing.
ResourceLimits raised(ResourceLimits limits, const std::string& limit, std::uint64_t value);

// What a world of `pebbles` pebbles and `bodies` bodies needs, as measured on the release build
// (about 230 bytes a pebble for T-bars with their neighbour list; taken as 400 for contacts in piles).
std::size_t estimatedWorldBytes(std::size_t pebbles, std::size_t bodies);

}  // namespace clumplab
