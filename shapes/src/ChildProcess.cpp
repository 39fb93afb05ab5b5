#include "ChildProcess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <exception>

// clang 14's ThreadSanitizer kills a child that a threaded program forks (gcc defines
// __SANITIZE_THREAD__, clang tells through __has_feature).
#if defined(__SANITIZE_THREAD__)
#define CLUMPLAB_SHAPES_NO_FORK 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CLUMPLAB_SHAPES_NO_FORK 1
#endif
#endif

namespace clumplab::shapes::detail {

namespace {
constexpr int kSilenceSeconds = 300;  // a read of 2e7 triangles writes long before this

ChildOutcome runHere(const std::function<std::string()>& work) {
  try {
    return {ChildOutcome::Kind::Done, work(), {}};
  } catch (const std::exception& e) {
    return {ChildOutcome::Kind::Threw, e.what(), {}};
  }
}

void writeAll(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone: nothing to tell
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}
}  // namespace

ChildOutcome runInChildProcess(const std::function<std::string()>& work) {
#ifdef CLUMPLAB_SHAPES_NO_FORK
  return runHere(work);
#else
  int channel[2];
  if (::pipe(channel) != 0) return runHere(work);
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(channel[0]);
    ::close(channel[1]);
    return runHere(work);
  }
  if (child == 0) {
    // The child: the work, one byte saying how it ended, what it gave; then out at once (no
    // destructors or atexit handlers of the parent's objects run twice).
    ::close(channel[0]);
    // What the child prints (a library's assertion before it aborts) is not the parent's to print:
    // its stdout and stderr hold the CLI's JSON and its one-line errors.
    if (const int nowhere = ::open("/dev/null", O_WRONLY); nowhere >= 0) {
      ::dup2(nowhere, STDOUT_FILENO);
      ::dup2(nowhere, STDERR_FILENO);
    }
    char kind = 'T';
    std::string out;
    try {
      out = work();
      kind = 'D';
    } catch (const std::exception& e) {
      out = e.what();
    } catch (...) {
      out = "an unknown error";
    }
    writeAll(channel[1], &kind, 1);
    writeAll(channel[1], out.data(), out.size());
    ::close(channel[1]);
    ::_exit(0);
  }
  ::close(channel[1]);
  std::string received;
  char buffer[1 << 16];
  // A child that neither writes nor ends for kSilenceSeconds is stuck (a lock held at the fork by
  // another of the parent's threads, in a library): it is ended, and said so.
  bool stuck = false;
  for (;;) {
    pollfd ready{channel[0], POLLIN, 0};
    const int polled = ::poll(&ready, 1, kSilenceSeconds * 1000);
    if (polled < 0 && errno == EINTR) continue;
    if (polled == 0) {
      stuck = true;
      ::kill(child, SIGKILL);
      break;
    }
    const ssize_t n = ::read(channel[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    received.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(channel[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  ChildOutcome outcome;
  if (stuck) {
    outcome.how = "it did nothing for " + std::to_string(kSilenceSeconds) + " s and was stopped";
    return outcome;
  }
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    const char* name = ::strsignal(signal);
    outcome.how = "signal " + std::to_string(signal) + (name != nullptr ? std::string(", ") + name : "");
    return outcome;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || received.empty()) {
    outcome.how = "exit code " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return outcome;
  }
  outcome.kind = received[0] == 'D' ? ChildOutcome::Kind::Done : ChildOutcome::Kind::Threw;
  outcome.bytes = received.substr(1);
  return outcome;
#endif
}

}  // namespace clumplab::shapes::detail
