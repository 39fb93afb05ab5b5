#pragma once
// Reading a whole text file, with errors that name it (private to core).
#include <string>

namespace clumplab {

// The file's bytes. Throws InputError when it is missing, a folder or unreadable.
std::string readTextFile(const std::string& path);

}  // namespace clumplab
