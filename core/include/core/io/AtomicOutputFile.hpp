#pragma once
// A file written as a stream and published whole (safe saves): the bytes go to a
// temporary file beside `path`, and commit() renames it over `path`. Until then readers see the
// previous file, if any; a crash leaves `path` untouched and the temporary file (name.partial-N)
// behind. Destroying an uncommitted file commits it (a finished run's output is kept, also when the
// run ends by an exception); call commit() to hear of failures.
#include <fstream>
#include <string>

namespace clumplab {

class AtomicOutputFile {
 public:
  // Throws InputError naming `path` when its folder is missing or the file cannot be created.
  explicit AtomicOutputFile(std::string path, bool binary = false);
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;
  AtomicOutputFile(AtomicOutputFile&& other) noexcept;
  AtomicOutputFile& operator=(AtomicOutputFile&&) = delete;

  std::ofstream& stream() { return out_; }
  // Flushes, closes and renames into place. Throws InputError naming the file on failure (the
  // temporary file is removed, a file already at `path` stays as it was). Later calls do nothing.
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_, temporary_;
  std::ofstream out_;
  bool open_ = false;
};

// Writes `text` to `path` the same way, whole, and synced to disk before the rename.
void writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace clumplab
