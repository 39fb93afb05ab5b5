#pragma once
// How this process's heap hands memory back. glibc maps blocks of 128 KiB and more on their own and
// unmaps them when freed, but after the first such block is freed it raises that threshold (up to
// 32 MiB): from then on the large per-body and per-pebble arrays come from the heap, and every array
// that grows by reallocation leaves its old copy there, unused but resident. A million-pebble pile
// (tbar_million.py) peaked at 177 MB resident for 159 MB of live blocks so; with the threshold fixed
// at 128 KiB, at 164 MB. Blocks of that size are allocated once per world or per growth of an array
// (scratch keeps its capacity from step to step), so mapping each costs no measurable time.
namespace clumplab {

// Fixes the threshold at 128 KiB (glibc; nothing elsewhere). Call once, at the start of main.
void keepLargeBlocksMapped();

}  // namespace clumplab
