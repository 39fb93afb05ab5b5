#pragma once
// What pebble pairs and plane-wall pairs remember from one force evaluation to the next: the
// tangential spring of each pair (the linear and Hertz-Mindlin laws with friction), beside it the
// stiffness kt it was last evaluated with (its energy 1/2 kt |xi|^2), or for Mutze's hertz law with
// restitution_squared < 1 the pair's largest overlap (Mutze, Polyspherical grains, eq. 56, as
// ContactLaw.hpp keeps it). Keys and values in parallel arrays, the keys sorted.
//
// It is part of the world's state (WorldState.hpp). While the world steps it holds one entry per pair
// the broad phase listed (most of them zero: listed pairs that do not touch), in the layout the
// contact loop reads, and each rebuild of the lists carries it over to the pairs listed again
// (NeighborList::rebuild). A copy keeps only the entries that hold something (held()): the rest is
// what a new contact starts from, so a copy is the same history, and a list rebuilt around it gives
// later forces and energies the same bits. That makes a checkpoint's copy of the state compact; a
// move keeps every entry.
#include <cstdint>
#include <vector>

#include "core/base/Math.hpp"

namespace clumplab {

struct PebblePair {
  std::uint32_t a = 0;  // pebble indices, a < b, bodies differ
  std::uint32_t b = 0;
};

struct WallPair {
  std::uint32_t pebble = 0;
  std::uint32_t wall = 0;
  std::uint32_t end = 0;  // spherocylinders: 0 the shaft end at -l/2 along the axis, 1 the one at +l/2
};

inline bool pairLess(const PebblePair& x, const PebblePair& y) {
  return x.a != y.a ? x.a < y.a : x.b < y.b;
}
inline bool wallPairLess(const WallPair& x, const WallPair& y) {
  if (x.pebble != y.pebble) return x.pebble < y.pebble;
  return x.wall != y.wall ? x.wall < y.wall : x.end < y.end;
}

struct ContactHistory {
  std::vector<PebblePair> pairs;    // sorted by (a, b)
  std::vector<Vec3> pairSprings;    // tangential springs [m], beside pairs
  std::vector<double> pairStored;   // kt [N/m], or Mutze's largest overlap [m]
  std::vector<WallPair> wallPairs;  // sorted by (pebble, wall, end)
  std::vector<Vec3> wallSprings;    // beside wallPairs
  std::vector<double> wallStored;

  ContactHistory() = default;
  ContactHistory(const ContactHistory& other);  // the held entries only
  ContactHistory& operator=(const ContactHistory& other);
  ContactHistory(ContactHistory&&) noexcept = default;
  ContactHistory& operator=(ContactHistory&&) noexcept = default;
  ~ContactHistory() = default;

  // A pair holds history when its spring or what is stored beside it is not zero. An entry that
  // holds nothing acts as no entry: a zero spring stores no energy whatever its stiffness, and a
  // largest overlap of zero is a new contact's.
  static bool held(const Vec3& spring, double stored) { return spring != Vec3::Zero() || stored != 0.0; }
  std::size_t heldCount() const;

  // Every entry set to zero (a new contact law: the springs' history forgotten), the keys kept.
  void forget();
  // No entries (the arrays keep their capacity).
  void clear();
  // Every entry of `other` (held or not) after these; the keys stay sorted when other's first keys
  // follow these' last ones.
  void append(const ContactHistory& other);
  // Pebbles [first, first + count) are gone and those above renumbered down by `count`: their
  // entries go, the rest keep their order and values.
  void removePebbles(std::uint32_t first, std::uint32_t count);
  // Memory its arrays hold [bytes] (element sizes times counts).
  std::size_t memoryBytes() const;
  // Memory a copy of it holds [bytes]: the held entries only (the copy constructor's).
  std::size_t heldBytes() const;
};

}  // namespace clumplab
