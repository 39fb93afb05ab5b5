#pragma once
// What the integrators of the cluster integration method (cim and rk4) carry from one World step to the
// next: the bodies as they integrate them (angular velocity in the principal frame), each contact's
// largest overlap (Mutze's hertz law), the cluster lists whose lifetime reaches into the next step
// (Meland et al., Cluster integration method) and the particle model of the world they were built for.
// WorldState holds it; a copy (a checkpoint) holds all of it, so a restored run goes on with the same bits.
#include <cstddef>
#include <memory>

namespace clumplab::cim {

struct OwnForcesWork;  // cim's sources: what it holds

class OwnForcesHistory {
 public:
  OwnForcesHistory();
  ~OwnForcesHistory();
  OwnForcesHistory(const OwnForcesHistory& other);
  OwnForcesHistory& operator=(const OwnForcesHistory& other);
  OwnForcesHistory(OwnForcesHistory&&) noexcept;
  OwnForcesHistory& operator=(OwnForcesHistory&&) noexcept;

  // The state was edited from outside: the bodies and the model are taken from the world again at
  // the next step (the largest overlaps are kept, as World keeps its springs).
  void forget();
  // Body `index` was removed and those above renumbered down by one.
  void removeBody(std::size_t index);
  // Memory it holds [bytes] as a copy holds it: the bodies, the particle model and its world
  // description, the contacts' memory and the cluster or neighbour lists (a copy holds no
  // working memory of a step).
  std::size_t memoryBytes() const;

  // What it holds, made on first use.
  OwnForcesWork& work();
  const OwnForcesWork* work() const { return work_.get(); }

 private:
  std::unique_ptr<OwnForcesWork> work_;
};

}  // namespace clumplab::cim
