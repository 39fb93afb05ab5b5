#pragma once
// The fuzz input as a file, for loaders that read a path (Assimp, the trajectory reader). One file per
// process in the temporary folder, rewritten for every input, removed at exit.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "FuzzTarget.hpp"

namespace clumplab::fuzz {

class TemporaryInputFile {
 public:
  explicit TemporaryInputFile(const std::string& extension)
      : path_((std::filesystem::temp_directory_path() /
               (std::string(kInputName) + "-" + std::to_string(::getpid()) + extension))
                  .string()) {}
  ~TemporaryInputFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  TemporaryInputFile(const TemporaryInputFile&) = delete;
  TemporaryInputFile& operator=(const TemporaryInputFile&) = delete;

  const std::string& write(const std::uint8_t* data, std::size_t size) {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return path_;
  }

 private:
  std::string path_;
};

}  // namespace clumplab::fuzz
