#include "core/base/Assert.hpp"

#include <cstdio>
#include <cstdlib>

namespace clumplab::detail {

void assertionFailed(const char* condition, const char* message, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: assertion failed: %s (%s)\n", file, line, message, condition);
  std::fflush(stderr);
  std::abort();
}

}  // namespace clumplab::detail
