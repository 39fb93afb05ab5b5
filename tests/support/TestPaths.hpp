#pragma once
// The data folders and programs the tests use, found at run time from the test executable's own
// folder through paths CMake gives relative to it (clumplab_test_paths in tests/CMakeLists.txt).
// No absolute path is compiled in, so a test's object file is the same in every clone of the
// repository and ccache serves it to any of them (.ci/test-all).
//
// CLUMPLAB_SCENES_DIR, CLUMPLAB_MESHES_DIR, CLUMPLAB_CLI and CLUMPLAB_APP expand to a `const char*`
// that lives as long as the program (not to a string literal: write `QString(CLUMPLAB_SCENES_DIR) +
// "/x.json"`, not `CLUMPLAB_SCENES_DIR "/x.json"`).
#include <filesystem>
#include <string>
#include <system_error>

namespace clumplab::testpaths {

// The folder of the running executable (/proc/self/exe), or the working folder where that cannot
// be read.
inline const std::filesystem::path& executableFolder() {
  static const std::filesystem::path folder = [] {
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::current_path() : self.parent_path();
  }();
  return folder;
}

// `relativePath` (from the executable's folder) as a normalised path.
inline std::string besideExecutable(const char* relativePath) {
  return (executableFolder() / relativePath).lexically_normal().string();
}

}  // namespace clumplab::testpaths

#define CLUMPLAB_TESTPATHS_RESOLVED(relativePath)                                              \
  ([]() -> const char* {                                                                       \
    static const std::string resolved = ::clumplab::testpaths::besideExecutable(relativePath); \
    return resolved.c_str();                                                                   \
  }())

#ifdef CLUMPLAB_SCENES_FROM_TEST
#define CLUMPLAB_SCENES_DIR CLUMPLAB_TESTPATHS_RESOLVED(CLUMPLAB_SCENES_FROM_TEST)
#endif
#ifdef CLUMPLAB_MESHES_FROM_TEST
#define CLUMPLAB_MESHES_DIR CLUMPLAB_TESTPATHS_RESOLVED(CLUMPLAB_MESHES_FROM_TEST)
#endif
#ifdef CLUMPLAB_CLI_FROM_TEST
#define CLUMPLAB_CLI CLUMPLAB_TESTPATHS_RESOLVED(CLUMPLAB_CLI_FROM_TEST)
#endif
#ifdef CLUMPLAB_APP_FROM_TEST
#define CLUMPLAB_APP CLUMPLAB_TESTPATHS_RESOLVED(CLUMPLAB_APP_FROM_TEST)
#endif
