#include "TextFile.hpp"

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

}  // namespace clumplab
