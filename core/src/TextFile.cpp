#include "TextFile.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/Errors.hpp"

namespace clumplab {

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
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (out) out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      fs::remove(temporary, ec);
      throw InputError(path, "", "cannot write the file (is the folder writable and the disk not full?)");
    }
  }
  fs::rename(temporary, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw InputError(path, "", "cannot replace the file: " + ec.message());
  }
}

}  // namespace clumplab
