#pragma once
// Runs f(b) for every body b on the world's thread pool, in fixed chunks of bodies. Per-body
// updates are independent, so the result does not depend on the number of threads.
#include <algorithm>
#include <cstddef>

#include "core/base/ThreadPool.hpp"

namespace clumplab {

template <class PerBody>
void forEachBody(ThreadPool& pool, std::size_t bodyCount, PerBody&& perBody) {
  constexpr std::size_t kChunk = 128;
  pool.run((bodyCount + kChunk - 1) / kChunk, [&](std::size_t chunk) {
    const std::size_t end = std::min(bodyCount, (chunk + 1) * kChunk);
    for (std::size_t b = chunk * kChunk; b < end; ++b) perBody(b);
  });
}

// Runs batch(begin, end) over consecutive batches of at most `batchSize` bodies, with chunks of
// `batchesPerChunk` batches spread over the pool.
template <class PerBatch>
void forEachBodyBatch(ThreadPool& pool, std::size_t bodyCount, std::size_t batchSize,
                      std::size_t batchesPerChunk, PerBatch&& batch) {
  const std::size_t chunkSize = batchSize * batchesPerChunk;
  pool.run((bodyCount + chunkSize - 1) / chunkSize, [&](std::size_t chunk) {
    const std::size_t chunkEnd = std::min(bodyCount, (chunk + 1) * chunkSize);
    for (std::size_t begin = chunk * chunkSize; begin < chunkEnd; begin += batchSize) {
      batch(begin, std::min(chunkEnd, begin + batchSize));
    }
  });
}

}  // namespace clumplab
