#pragma once
// The contact laws of ContactSolver.hpp for one touching pair, for engines that evaluate contacts
// on their own (the cluster integration method and its RK4 baseline, Meland et al., Cluster integration
// method): the same geometry (Mutze, Polyspherical grains, eq. 50; spherocylinders touch like spheres at
// their shafts' closest points) and the same normal laws, without the tangential spring's history. Defined in
// ContactLaw.cpp with the solver's own kernels (ContactKernels.hpp), so both use one implementation.
#include <string>

#include "core/base/Math.hpp"
#include "core/collision/ContactModel.hpp"
#include "core/walls/Walls.hpp"

namespace clumplab {

// Mutze's hertz law with restitution_squared delta < 1 keeps one number per contact: the largest overlap
// it reached (the restitution as a hysteresis in the overlap, docs/physics.md): a force that reads it is a
// continuous function of the overlap given it (as Runge-Kutta wants), and a step that ends deeper takes the
// new overlap in (commitLargestOverlap), dissipating (1 - delta) of the work of Mutze's eq. 57 over the
// growth.

// The geometry of one touching pair: the force on A is along +normal for repulsion.
struct ContactTouch {
  Vec3 normal = Vec3::UnitZ();  // unit, from B towards A
  double overlap = 0.0;         // [m] > 0
  Vec3 point = Vec3::Zero();    // contact point [m], world
  double hertzRadius = 0.0;     // Mutze's r~ (Mutze, Polyspherical grains, eq. 55) [m]
};

// Spheres of radii ra, rb centred at pa, pb [m]: true (and `touch` filled) when they overlap.
bool touchSpheres(const Vec3& pa, double ra, const Vec3& pb, double rb, ContactTouch& touch);
// A sphere of radius r at p against a wall; `side` is the point whose side of a membrane decides
// the direction it is pushed (the pebble's centre). False when apart or passing a membrane.
bool touchWall(const Wall& wall, const Vec3& p, double r, const Vec3& side, ContactTouch& touch);

// The force of a contact law that keeps no history, on A [N], and its non-conservative part [N].
struct ContactLawForce {
  Vec3 force = Vec3::Zero();
  Vec3 dissipative = Vec3::Zero();
};

// True when `model` keeps no tangential spring history: Hertz (regularised friction, Mutze, Polyspherical
// grains eq. 53), Hertz-Mindlin without friction, or linear without friction or with a zero tangential spring
// (normal spring, dashpot and, with friction, a tangential dashpot capped by Coulomb's limit).
bool contactModelIsHistoryFree(const ContactModel& model);
// Why a model keeps history and what to change, naming `integrator` ("" when history-free).
std::string contactHistoryProblem(const ContactModel& model, const std::string& integrator);

// True when `model` keeps each contact's largest overlap (Mutze's hertz law with delta < 1).
bool contactKeepsLargestOverlap(const ContactModel& model);

// The law of `model` for a touching pair: `w` the velocity of A relative to B at the contact point
// [m/s], `massEff` the pair's reduced mass m_a m_b / (m_a + m_b) [kg] (a wall: the body's mass),
// for a damping derived from the restitution. `model` must be history-free (no tangential spring).
// `largestOverlap`: the largest overlap the contact reached [m] (0: a new contact), read by a law that
// keeps it (contactKeepsLargestOverlap) and not changed here; beyond it the force is loading's.
ContactLawForce historyFreeContactForce(const ContactModel& model, const ContactTouch& touch, const Vec3& w,
                                        double massEff, double largestOverlap = 0.0);
// The contact's largest overlap brought up to `touch` (a step ended there); returns the energy the growth
// dissipated [J] (>= 0; 0 for the laws that keep none).
double commitLargestOverlap(const ContactModel& model, const ContactTouch& touch, double& largestOverlap);
// The same law with the tangential spring `spring` [m] of the pair (the solver's own law): the spring
// advances by wDrift dt (`wDrift` the relative velocity the contact point moved with, DriftVelocities;
// dt 0: it is only turned into the tangent plane and capped) and the change of its energy
// 1/2 kt |spring|^2 is returned [J] (ContactSolver.hpp's bookkeeping). `springStiffness` is the kt
// [N/m] the spring was last evaluated with, set to this evaluation's (Hertz-Mindlin's varies with
// the overlap). Mutze's law keeps no spring and holds the contact's largest overlap [m] there instead
// (0 for a new contact; it grows as the overlap does, and the energy that loses is `hysteresisLoss`).
struct ContactLawStep {
  Vec3 force = Vec3::Zero();
  Vec3 dissipative = Vec3::Zero();
  double springEnergyChange = 0.0;
  double hysteresisLoss = 0.0;  // [J], >= 0
};
ContactLawStep contactForceWithSpring(const ContactModel& model, const ContactTouch& touch, const Vec3& w,
                                      const Vec3& wDrift, double massEff, Vec3& spring,
                                      double& springStiffness, double dt);
// The energy 1/2 kt |spring|^2 a tangential spring holds [J], kt its last stiffness [N/m] (Mutze's
// Hertz law keeps no spring).
double tangentialSpringEnergy(const Vec3& spring, double springStiffness);
// The elastic energy the normal law stores in a touch [J]: 1/2 kn d^2, Mutze's sqrt(3)/5 E~
// sqrt(r~) d^(5/2) (the integral of his eq. 57; with delta < 1, of the branch of the contact's
// `largestOverlap`), or Hertz-Mindlin's (8/15) E* sqrt(R*) d^(5/2).
double contactElasticEnergy(const ContactModel& model, const ContactTouch& touch,
                            double largestOverlap = 0.0);

}  // namespace clumplab
