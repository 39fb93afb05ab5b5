#include "core/cim/ParticleModel.hpp"

#include <algorithm>

#include "core/base/MemoryBytes.hpp"
#include "core/cim/ClusterLifetime.hpp"

namespace clumplab::cim {

void ContactMemory::removeParticle(std::size_t index) {
  if (index < of.size()) of.erase(of.begin() + static_cast<std::ptrdiff_t>(index));
  for (std::vector<ContactMemoryEntry>& entries : of) {
    std::erase_if(entries, [&](const ContactMemoryEntry& e) { return e.partner == index; });
    for (ContactMemoryEntry& e : entries) {
      if (e.partner < kWallPartner && e.partner > index) --e.partner;
    }
  }
}

std::size_t ContactMemory::memoryBytes() const {
  std::size_t n = elementBytes(of);
  for (const std::vector<ContactMemoryEntry>& entries : of) n += elementBytes(entries);
  return n;
}

std::size_t ParticleModel::memoryBytes() const {
  constexpr std::size_t kCallbacks = 12, kCellBytes = 32;  // a small capture on the heap
  return elementBytes(inertia) + elementBytes(reach) + elementBytes(driven) + kCallbacks * kCellBytes;
}

ForceCallCounts listForces(const ParticleModel& model, const NeighborCsr& neighbors,
                           std::span<const std::uint32_t> members, std::span<const std::uint32_t> localIndex,
                           const RigidBodySet& local, std::vector<Vec3>& forces, std::vector<Vec3>& torques,
                           ForceTally* tally, const ContactMemory* memory) {
  ForceCallCounts counts;
  const bool bodyForces = tally != nullptr && model.bodyForce && !model.driven.empty();
  for (std::size_t a = 0; a < members.size(); ++a) {
    const std::uint32_t i = members[a];
    const ParticleState si = local.particle(a);
    const ContactMemoryView remembered =
        memory != nullptr && i < memory->of.size() ? ContactMemoryView(memory->of[i]) : ContactMemoryView();
    if (bodyForces && model.isDriven(i)) {
      const BodyForce f = model.bodyForce(i, si);
      forces[a] += f.force;
      torques[a] += f.torque;
      tally->dissipation += f.dissipation;
      tally->externalPower += f.externalPower;
    }
    for (const std::int32_t e : neighbors.of(i)) {
      if (NeighborCsr::isWall(e)) {
        const std::uint32_t w = NeighborCsr::wallIndex(e);
        const WallForce f = model.wallForce(i, w, si, remembered);
        forces[a] += f.force;
        torques[a] += f.torque;
        if (tally != nullptr) {
          tally->dissipation += f.dissipation;
          if (w < tally->wallForces.size()) tally->wallForces[w] -= f.force;  // the reaction on the wall
        }
        ++counts.wallCalls;
        continue;
      }
      const auto j = static_cast<std::uint32_t>(e);
      if (j < i) continue;  // each pair once, from its lower index (Newton's third law)
      const std::uint32_t b = localIndex[j];
      ParticleState sj = local.particle(b);
      sj.position = si.position + model.box.minimumImage(sj.position - si.position);
      const PairForce f = model.pairForce(i, j, si, sj, remembered);
      forces[a] += f.forceOnI;
      torques[a] += f.torqueOnI;
      forces[b] += f.forceOnJ;
      torques[b] += f.torqueOnJ;
      if (tally != nullptr) tally->dissipation += f.dissipation;
      ++counts.pairCalls;
    }
  }
  return counts;
}

double commitContacts(const ParticleModel& model, const NeighborCsr& neighbors,
                      std::span<const std::uint32_t> members, std::span<const std::uint32_t> localIndex,
                      const RigidBodySet& local, ContactMemory& memory) {
  if (!model.keepsMemory()) return 0.0;
  double lost = 0.0;
  std::vector<ContactMemoryEntry> previous;
  for (std::size_t a = 0; a < members.size(); ++a) {
    const std::uint32_t i = members[a];
    if (i >= memory.of.size()) continue;  // the callers size it (one entry per particle) before a pass
    previous.swap(memory.of[i]);
    std::vector<ContactMemoryEntry>& next = memory.of[i];
    next.clear();
    const ParticleState si = local.particle(a);
    for (const std::int32_t e : neighbors.of(i)) {
      if (NeighborCsr::isWall(e)) {
        lost += model.commitWall(i, NeighborCsr::wallIndex(e), si, previous, next);
        continue;
      }
      const auto j = static_cast<std::uint32_t>(e);
      if (j < i) continue;  // owned by j
      ParticleState sj = local.particle(localIndex[j]);
      sj.position = si.position + model.box.minimumImage(sj.position - si.position);
      lost += model.commitPair(i, j, si, sj, previous, next);
    }
  }
  return lost;
}

NeighborCsr neighborsOf(const ParticleModel& model, const RigidBodySet& state, double buffer) {
  NeighborQuery query;
  query.positions = state.position;
  query.reach = model.reach;
  query.buffer = buffer;
  query.box = model.box;
  query.surfaceDistance = [&](std::uint32_t i, std::uint32_t j, const Vec3& separation) {
    return model.surfaceDistance(i, j, separation, state.orientation[i], state.orientation[j]);
  };
  query.wallCount = model.wallCount;
  query.wallDistance = [&](std::uint32_t i, std::uint32_t w) {
    return model.wallDistance(i, w, state.particle(i));
  };
  return buildNeighborList(query);
}

void wrapPositions(const PeriodicBox& box, RigidBodySet& state, std::vector<Vec3>* shifts) {
  if (!box.any()) return;
  for (std::size_t i = 0; i < state.size(); ++i) {
    const Vec3 inside = box.wrap(state.position[i]);
    if (shifts != nullptr && inside != state.position[i]) (*shifts)[i] += inside - state.position[i];
    state.position[i] = inside;
  }
}

std::vector<double> pointSpeeds(const ParticleModel& model, const RigidBodySet& state) {
  std::vector<double> speeds(state.size());
  for (std::size_t i = 0; i < state.size(); ++i) {
    const auto index = static_cast<std::uint32_t>(i);
    if (model.pointSpeed) {
      speeds[i] = model.pointSpeed(index, state.particle(i), state.bodyAngularVelocity[i]);
    } else {
      speeds[i] = state.velocity[i].norm() +
                  model.reach[i] * angularSpeedBound(model.inertia[i].moments, state.bodyAngularVelocity[i]);
    }
  }
  return speeds;
}

}  // namespace clumplab::cim
