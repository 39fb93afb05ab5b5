#include "core/base/HeapPolicy.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace clumplab {

void keepLargeBlocksMapped() {
#if defined(__GLIBC__)
  constexpr int kMapAtBytes = 128 * 1024;  // glibc's initial threshold, kept (setting it stops the raising)
  mallopt(M_MMAP_THRESHOLD, kMapAtBytes);
#endif
}

}  // namespace clumplab
