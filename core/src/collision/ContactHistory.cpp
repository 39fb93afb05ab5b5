#include "core/collision/ContactHistory.hpp"

#include <algorithm>

#include "core/base/MemoryBytes.hpp"

namespace clumplab {

namespace {

// The entries of `keys` (with `springs` and `stored` beside them) for which keep(k) holds, moved to
// the front in order; the rest dropped. `renumber` gives each kept key its new value.
template <class Key, class Keep, class Renumber>
void keepEntries(std::vector<Key>& keys, std::vector<Vec3>& springs, std::vector<double>& stored, Keep keep,
                 Renumber renumber) {
  std::size_t kept = 0;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (!keep(k)) continue;
    keys[kept] = renumber(keys[k]);
    springs[kept] = springs[k];
    stored[kept] = stored[k];
    ++kept;
  }
  keys.resize(kept);
  springs.resize(kept);
  stored.resize(kept);
}

// How many entries hold a spring or a stored value.
std::size_t countHeld(const std::vector<Vec3>& springs, const std::vector<double>& stored) {
  std::size_t count = 0;
  for (std::size_t k = 0; k < springs.size(); ++k)
    count += ContactHistory::held(springs[k], stored[k]) ? 1 : 0;
  return count;
}

// The held entries of `keys` (with `springs` and `stored` beside them) in place of the out arrays'
// entries (their capacity kept).
template <class Key>
void copyHeld(const std::vector<Key>& keys, const std::vector<Vec3>& springs,
              const std::vector<double>& stored, std::vector<Key>& outKeys, std::vector<Vec3>& outSprings,
              std::vector<double>& outStored) {
  outKeys.clear();
  outSprings.clear();
  outStored.clear();
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (!ContactHistory::held(springs[k], stored[k])) continue;
    outKeys.push_back(keys[k]);
    outSprings.push_back(springs[k]);
    outStored.push_back(stored[k]);
  }
}

}  // namespace

// A new copy is allocated at the size of the held entries (checkpoints stay compact); an assignment
// reuses the arrays it has (the broad phase's copy of the previous lists, at every rebuild).
ContactHistory::ContactHistory(const ContactHistory& other) {
  const std::size_t heldPairs = countHeld(other.pairSprings, other.pairStored);
  const std::size_t heldWalls = countHeld(other.wallSprings, other.wallStored);
  pairs.reserve(heldPairs);
  pairSprings.reserve(heldPairs);
  pairStored.reserve(heldPairs);
  wallPairs.reserve(heldWalls);
  wallSprings.reserve(heldWalls);
  wallStored.reserve(heldWalls);
  *this = other;
}

ContactHistory& ContactHistory::operator=(const ContactHistory& other) {
  if (this != &other) {
    copyHeld(other.pairs, other.pairSprings, other.pairStored, pairs, pairSprings, pairStored);
    copyHeld(other.wallPairs, other.wallSprings, other.wallStored, wallPairs, wallSprings, wallStored);
  }
  return *this;
}

std::size_t ContactHistory::heldCount() const {
  return countHeld(pairSprings, pairStored) + countHeld(wallSprings, wallStored);
}

void ContactHistory::forget() {
  std::fill(pairSprings.begin(), pairSprings.end(), Vec3::Zero());
  std::fill(wallSprings.begin(), wallSprings.end(), Vec3::Zero());
  std::fill(pairStored.begin(), pairStored.end(), 0.0);
  std::fill(wallStored.begin(), wallStored.end(), 0.0);
}

void ContactHistory::clear() {
  pairs.clear();
  pairSprings.clear();
  pairStored.clear();
  wallPairs.clear();
  wallSprings.clear();
  wallStored.clear();
}

void ContactHistory::append(const ContactHistory& other) {
  const auto appendTo = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
  appendTo(pairs, other.pairs);
  appendTo(pairSprings, other.pairSprings);
  appendTo(pairStored, other.pairStored);
  appendTo(wallPairs, other.wallPairs);
  appendTo(wallSprings, other.wallSprings);
  appendTo(wallStored, other.wallStored);
}

void ContactHistory::removePebbles(std::uint32_t first, std::uint32_t count) {
  const std::uint32_t end = first + count;
  const auto gone = [&](std::uint32_t p) { return p >= first && p < end; };
  const auto renumbered = [&](std::uint32_t p) { return p >= end ? p - count : p; };
  keepEntries(
      pairs, pairSprings, pairStored, [&](std::size_t k) { return !gone(pairs[k].a) && !gone(pairs[k].b); },
      // a < b and the order survive the renumbering
      [&](const PebblePair& p) {
        return PebblePair{renumbered(p.a), renumbered(p.b)};
      });
  keepEntries(
      wallPairs, wallSprings, wallStored, [&](std::size_t k) { return !gone(wallPairs[k].pebble); },
      [&](const WallPair& p) {
        return WallPair{renumbered(p.pebble), p.wall, p.end};
      });
}

std::size_t ContactHistory::memoryBytes() const {
  return elementBytes(pairs) + elementBytes(pairSprings) + elementBytes(pairStored) +
         elementBytes(wallPairs) + elementBytes(wallSprings) + elementBytes(wallStored);
}

std::size_t ContactHistory::heldBytes() const {
  const std::size_t entry = sizeof(Vec3) + sizeof(double);
  return countHeld(pairSprings, pairStored) * (sizeof(PebblePair) + entry) +
         countHeld(wallSprings, wallStored) * (sizeof(WallPair) + entry);
}

}  // namespace clumplab
