#pragma once
// A World's bodies as a ParticleModel, for the cluster integration method and its RK4 baseline
// (Meland et al., Cluster integration method). Each body is a particle: its template's pebbles (spheres,
// spherocylinders, clumps of them) in its principal frame. A pair's force is the sum over pebble pairs of the
// World's contact law (ContactLaw.hpp: the same geometry and normal laws as ContactSolver; spherocylinders
// touch at their shafts' closest points, Meland et al., Cluster integration method, Fig. 2) at the minimum
// image of the periodic box; walls act on spheres and on each end of a shaft, as in ContactSolver. Gravity,
// global damping and the world's external loads are part of the model; fields, the 2D plane and contact laws
// with a tangential spring are not (requireOwnForcesSupport refuses them). Mutze's hertz law with
// restitution_squared < 1 keeps each contact's largest overlap in a ContactMemory (ParticleModel.hpp),
// keyed (partner, pebble of i, pebble of j) for pairs and (kWallPartner + wall, pebble, shaft end) for walls.
//
// The lifetime speed of a particle (ParticleModel::pointSpeed): for a body that is one pebble
// centred at its centre of mass (a spherocylinder, a sphere) the paper's shaft-end speed
// max |v +- (l/2) w x u| (l = 0: |v|); for other clumps the bounding-radius version
// |v| + rho w_max, rho the bounding radius and w_max = angularSpeedBound (>= |w| for the whole
// torque-free motion of an asymmetric clump).
#include <cstdint>
#include <memory>
#include <vector>

#include "core/base/PeriodicBox.hpp"
#include "core/cim/ParticleModel.hpp"
#include "core/clump/ClumpTemplate.hpp"
#include "core/collision/ContactModel.hpp"
#include "core/walls/Walls.hpp"

namespace clumplab {
struct BodyState;
struct WorldView;  // StepContext.hpp
}  // namespace clumplab

namespace clumplab::cim {

// What the callbacks of the model read: immutable once made (shared by copies of the model).
struct WorldParticles {
  std::vector<TemplatePtr> templates;
  std::vector<std::uint32_t> templateOf;    // per body
  std::vector<double> mass;                 // per body [kg]
  std::vector<Vec3> moments;                // per body, principal [kg m^2]
  std::vector<double> reach;                // per body: its template's bounding radius [m]
  std::vector<std::uint8_t> centredPebble;  // per body: one pebble centred at the centre of mass
  ContactModel contact;
  std::vector<Wall> walls;
  PeriodicBox box;
  Vec3 gravity = Vec3::Zero();  // [m/s^2]
  double linearDamping = 0.0;   // [1/s] (WorldSettings)
  double angularDamping = 0.0;  // [1/s]
  // External loads: per body the index of its load in `loadForce`/`loadPoint`, or -1.
  std::vector<std::int32_t> loadOf;
  std::vector<Vec3> loadForce;      // [N], world
  std::vector<Vec3> loadPoint;      // [m], world (fixed while the load acts)
  std::size_t memoryBytes() const;  // [bytes]: its arrays (the templates are the world's)
};

// The description of `world` as it is now (bodies, templates, contact model, walls, settings, loads).
std::shared_ptr<const WorldParticles> describeWorld(const WorldView& world);

// The model of `particles` (its callbacks hold the pointer).
ParticleModel makeParticleModel(const std::shared_ptr<const WorldParticles>& particles);

// The bodies' state as the integrators keep it (angular velocity in the principal frame).
RigidBodySet bodySetOf(const BodyState& bodies);

// The contacts of `state` among the pairs and walls listed in `neighbors` (a list built for a state
// from which no point moved more than the list's buffer allows).
struct ContactSummary {
  std::size_t pebbleContacts = 0;
  std::size_t wallContacts = 0;
  double worstOverlapRatio = 0.0;  // overlap / smaller radius
  double worstOverlap = 0.0;       // [m]
  std::uint32_t worstBody = 0;
  double elasticEnergy = 0.0;  // [J]
  std::vector<Vec3> points;    // [m], world, one per touch counted (pebble pairs, then walls)
};
// `memory`: what the contacts remember (Mutze's largest overlaps), for their energy.
ContactSummary summarizeContacts(const WorldParticles& particles, const NeighborCsr& neighbors,
                                 const RigidBodySet& state, const ContactMemory* memory = nullptr);

// The same at a state with no list at hand: one is built (buffer a millionth of the largest reach).
ContactSummary summarizeContacts(const WorldParticles& particles, const ParticleModel& model,
                                 const RigidBodySet& state, const ContactMemory* memory = nullptr);

// Delta [m] from the settings: CimSettings::buffer, or 0.6 x the smallest pebble radius.
double resolveBuffer(double buffer, const std::vector<TemplatePtr>& templates);

}  // namespace clumplab::cim
