#pragma once
// Reading and writing whole text files, with errors that name them (private to core).
#include <string>

namespace clumplab {

// The file's bytes. Throws InputError when it is missing, a folder or unreadable.
std::string readTextFile(const std::string& path);

// Writes `text` to a temporary file in the folder of `path`, then renames it over `path`: readers
// see the old file or the new one, never half of one. Throws InputError naming `path` on failure
// (the temporary file is removed, an existing file at `path` stays as it was).
void writeTextFileAtomically(const std::string& path, const std::string& text);

}  // namespace clumplab
