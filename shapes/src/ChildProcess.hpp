#pragma once
// Work that may crash the process it runs in (a third-party file reader: Assimp aborts or faults
// on some files), run in a child process instead, so that a crash costs a message, not the app and
// the user's unsaved scene. POSIX fork: the child runs the work and writes its result to a pipe;
// nothing else of the parent runs in it. Private to shapes.
#include <functional>
#include <string>

namespace clumplab::shapes::detail {

struct ChildOutcome {
  enum class Kind { Done, Threw, Crashed };
  Kind kind = Kind::Crashed;
  std::string bytes;  // Done: what the work returned; Threw: the exception's what()
  std::string how;    // Crashed: "signal 6 (Aborted)", "exit code 3", ...
};

// Runs `work` in a forked child and returns what it returned, threw, or how it died. Where fork is
// not usable (ThreadSanitizer builds kill a forked child of a threaded program), `work` runs here.
ChildOutcome runInChildProcess(const std::function<std::string()>& work);

}  // namespace clumplab::shapes::detail
