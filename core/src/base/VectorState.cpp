#include "core/base/VectorState.hpp"

namespace clumplab {

#if defined(__x86_64__)

namespace {
bool cpuHasAvx() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx") != 0;
}
const bool kHasAvx = cpuHasAvx();
}  // namespace

void clearUpperVectorState() {
  // Out of line, so that no caller keeps values in vector registers across it (all are caller-saved).
  if (kHasAvx) __asm__ volatile("vzeroupper" ::: "memory");
}

#else

void clearUpperVectorState() {}

#endif

}  // namespace clumplab
