#include "core/io/AtomicOutputFile.hpp"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <system_error>

#include "TextFile.hpp"
#include "core/base/Errors.hpp"

namespace clumplab {

namespace fs = std::filesystem;

AtomicOutputFile::AtomicOutputFile(std::string path, bool binary) : path_(std::move(path)) {
  std::error_code ec;
  if (fs::is_directory(path_, ec)) throw InputError(path_, "", "is a folder, cannot write a file there");
  const fs::path folder = fs::path(path_).parent_path();
  if (!folder.empty() && !fs::is_directory(folder, ec)) {
    throw InputError(path_, "", "cannot write the file: the folder " + folder.string() + " does not exist");
  }
  static std::atomic<unsigned> counter{0};  // unique among threads; the pid among processes
  temporary_ = path_ + ".partial-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  out_.open(temporary_, binary ? std::ios::binary | std::ios::trunc : std::ios::trunc);
  if (!out_) throw InputError(path_, "", "cannot open the file for writing (is the folder writable?)");
  open_ = true;
}

AtomicOutputFile::AtomicOutputFile(AtomicOutputFile&& other) noexcept
    : path_(std::move(other.path_)),
      temporary_(std::move(other.temporary_)),
      out_(std::move(other.out_)),
      open_(other.open_) {
  other.open_ = false;
}

AtomicOutputFile::~AtomicOutputFile() {
  try {
    commit();
  } catch (...) {  // a destructor must not throw; the temporary file was removed by commit()
  }
}

void AtomicOutputFile::commit() {
  if (!open_) return;
  open_ = false;
  out_.flush();
  const bool written = out_.good();
  out_.close();
  std::error_code ec;
  if (!written || out_.fail()) {
    fs::remove(temporary_, ec);
    throw InputError(path_, "", "cannot write the file (is the disk full?)");
  }
  fs::rename(temporary_, path_, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary_, ignored);
    throw InputError(path_, "", "cannot replace the file: " + ec.message());
  }
}

void writeFileAtomically(const std::string& path, const std::string& text) {
  writeTextFileAtomically(path, text);  // the durable whole-text path (fsync of file and folder)
}

}  // namespace clumplab
