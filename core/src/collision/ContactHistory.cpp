#include "core/collision/ContactHistory.hpp"

namespace clumplab {

ContactHistory ContactHistory::held() const {
  ContactHistory out;
  std::size_t pairCount = 0, wallCount = 0;  // allocated once, at their size (checkpoint memory)
  for (std::size_t k = 0; k < pairs.size(); ++k) pairCount += held(pairSprings[k], pairStored[k]) ? 1 : 0;
  for (std::size_t k = 0; k < wallPairs.size(); ++k) wallCount += held(wallSprings[k], wallStored[k]) ? 1 : 0;
  out.pairs.reserve(pairCount);
  out.pairSprings.reserve(pairCount);
  out.pairStored.reserve(pairCount);
  out.wallPairs.reserve(wallCount);
  out.wallSprings.reserve(wallCount);
  out.wallStored.reserve(wallCount);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    if (!held(pairSprings[k], pairStored[k])) continue;
    out.pairs.push_back(pairs[k]);
    out.pairSprings.push_back(pairSprings[k]);
    out.pairStored.push_back(pairStored[k]);
  }
  for (std::size_t k = 0; k < wallPairs.size(); ++k) {
    if (!held(wallSprings[k], wallStored[k])) continue;
    out.wallPairs.push_back(wallPairs[k]);
    out.wallSprings.push_back(wallSprings[k]);
    out.wallStored.push_back(wallStored[k]);
  }
  return out;
}

std::size_t ContactHistory::memoryBytes() const {
  const auto bytes = [](const auto& v) { return v.size() * sizeof(v[0]); };
  return bytes(pairs) + bytes(pairSprings) + bytes(pairStored) + bytes(wallPairs) + bytes(wallSprings) +
         bytes(wallStored);
}

}  // namespace clumplab
