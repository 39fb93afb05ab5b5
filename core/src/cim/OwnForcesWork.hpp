#pragma once
// What an OwnForcesHistory holds (OwnForcesHistory.hpp): the World integrators of the cluster integration
// method keep the bodies as a RigidBodySet and a ParticleModel of the world (WorldParticleModel.hpp),
// both brought up to date when the world was edited, with what the contacts remember (Mutze's largest
// overlaps) kept across edits as World keeps its springs.
#include <memory>
#include <optional>
#include <vector>

#include "core/cim/ClusterIntegration.hpp"
#include "core/cim/Rk4Baseline.hpp"
#include "core/cim/WorldParticleModel.hpp"
#include "core/model/CimSettings.hpp"

namespace clumplab::cim {

struct OwnForcesWork {
  std::shared_ptr<const WorldParticles> particles;
  ParticleModel model;
  RigidBodySet state;
  CimSettings settings;
  double buffer = 0.0;                       // Delta in use [m]
  bool tally = false;                        // integrate dissipated and external work and wall impulses
  ContactMemory memory;                      // one entry per body (synchronize)
  std::vector<Vec3> writtenAngularVelocity;  // world angular velocities as last written
  bool stale = true;
  std::optional<ClusterIntegration> integration;  // cim: the lists carried into the next step
  std::optional<Rk4Baseline> baseline;            // rk4
};

}  // namespace clumplab::cim
