#pragma once
// A contact law seen as a spring-dashpot for the time-step estimate (World::timeSteps): the
// stiffest tangent stiffness it takes near contact and its dashpots.
#include "core/collision/ContactModel.hpp"

namespace clumplab {

struct ContactStiffness {
  double normal = 0.0;      // k [N/m]
  double tangential = 0.0;  // kt [N/m], 0 without a tangential spring
  // The dashpots between a pebble of a body of mass m and a wall: c = perRootMass sqrt(m) + fixed
  // [N s/m] (a law's dashpot from the restitution is 2 zeta sqrt(k m), a given one fixed).
  double normalDampingPerRootMass = 0.0;  // [N s/m / sqrt(kg)]
  double normalDampingFixed = 0.0;        // [N s/m]
  double tangentialDampingPerRootMass = 0.0;
  double tangentialDampingFixed = 0.0;
};

// `model` between two pebbles of radius `pebbleRadius` [m]. The Hertz laws' stiffness grows with the
// overlap: it is taken at an overlap of 1% of the radius, where a hard impact takes it; Mutze's law
// unloads 1/delta stiffer than it loads (its overlap hysteresis).
ContactStiffness contactStiffness(const ContactModel& model, double pebbleRadius);

}  // namespace clumplab
