#include "TextFile.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/base/Errors.hpp"

namespace clumplab {

namespace {
// Writes `text` to `file` and flushes it to the disk (so a crash right after the rename cannot
// leave an empty file), with the permissions of `replaced` when that file exists.
bool writeDurably(const std::filesystem::path& file, const std::string& text,
                  const std::filesystem::path& replaced) {
  struct stat old {};
  const bool hadFile = ::stat(replaced.c_str(), &old) == 0;
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  bool ok = !hadFile || ::fchmod(fd, old.st_mode & 07777) == 0;
  std::size_t written = 0;
  while (ok && written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) written += static_cast<std::size_t>(n);
  }
  ok = ok && ::fsync(fd) == 0;
  return ::close(fd) == 0 && ok;
}

// Makes the rename itself durable.
void syncFolder(const std::filesystem::path& file) {
  const std::filesystem::path folder =
      file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}
}  // namespace

std::string readTextFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, "", "is a folder, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open the file (missing or unreadable)");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void writeTextFileAtomically(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path, "", "is a folder, cannot write a file there");
  const fs::path folder = fs::path(path).parent_path();
  if (!folder.empty() && !fs::is_directory(folder, ec)) {
    throw InputError(path, "", "cannot write the file: the folder " + folder.string() + " does not exist");
  }
  // A name no other writer (thread or process) picks at the same time.
  static std::atomic<unsigned> counter{0};
  const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
  fs::path temporary = path;
  temporary += ".saving-" + std::to_string(stamp) + "-" + std::to_string(counter++);
  if (!writeDurably(temporary, text, path)) {
    fs::remove(temporary, ec);
    throw InputError(path, "", "cannot write the file (is the folder writable and the disk not full?)");
  }
  fs::rename(temporary, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw InputError(path, "", "cannot replace the file: " + ec.message());
  }
  syncFolder(path);
}

}  // namespace clumplab
