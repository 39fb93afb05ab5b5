#pragma once
// Runs f(b) for every body b on the world's thread pool, in fixed chunks of bodies. Per-body
// updates are independent, so the result does not depend on the number of threads.
#include <algorithm>
#include <cstddef>

#include "core/base/ThreadPool.hpp"

namespace clumplab {

// Bodies per parallel work item. Sums over bodies are made per chunk and added in chunk order, so
// they do not depend on the number of threads; changing it changes their last bits.
inline constexpr std::size_t kBodyChunk = 128;

// The number of chunks of kBodyChunk bodies that cover `bodyCount`.
inline std::size_t bodyChunkCount(std::size_t bodyCount) {
  return (bodyCount + kBodyChunk - 1) / kBodyChunk;
}

// Runs perChunk(chunk, begin, end) for the bodies [begin, end) of each chunk, on the pool.
template <class PerChunk>
void forEachBodyChunk(ThreadPool& pool, std::size_t bodyCount, PerChunk&& perChunk) {
  pool.run(bodyChunkCount(bodyCount), [&](std::size_t chunk) {
    perChunk(chunk, chunk * kBodyChunk, std::min(bodyCount, (chunk + 1) * kBodyChunk));
  });
}

template <class PerBody>
void forEachBody(ThreadPool& pool, std::size_t bodyCount, PerBody&& perBody) {
  forEachBodyChunk(pool, bodyCount, [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t b = begin; b < end; ++b) perBody(b);
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
