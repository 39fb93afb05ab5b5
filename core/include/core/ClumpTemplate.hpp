#pragma once
// An immutable clump shape shared by many bodies: pebbles in the principal frame, mass, moments.
#include <memory>
#include <string>
#include <vector>

#include "core/MassProperties.hpp"
#include "core/Pebble.hpp"

namespace clumplab {

struct ClumpTemplate {
  std::string name;
  std::vector<Pebble> pebbles;           // body (principal) frame: origin at the centre of mass
  double mass = 0.0;                     // [kg]
  double volume = 0.0;                   // [m^3]
  double density = 0.0;                  // [kg/m^3] (nominal; 0 when only mass was given)
  Vec3 principalMoments = Vec3::Zero();  // [kg m^2], ascending
  // x_body = rotationFromInput * (x_input - centerOfMassInInput)
  Quat rotationFromInput = Quat::Identity();
  Vec3 centerOfMassInInput = Vec3::Zero();  // [m]
  double boundingRadius = 0.0;   // [m], smallest sphere about the centre of mass holding all pebbles
  double minPebbleRadius = 0.0;  // [m]
  std::string inertiaMethod;     // "pebbles", "voxel", "monte-carlo", "given", ...
};

using TemplatePtr = std::shared_ptr<const ClumpTemplate>;

// Builds a template from pebbles given in an input frame and their mass properties in that frame:
// principal frame (seed 000 eq. 23-26), pebbles re-expressed in it, bounding radius (seed 001 eq. 32).
ClumpTemplate makeTemplate(std::string name, const std::vector<Pebble>& inputPebbles,
                           const MassProperties& massProperties, std::string inertiaMethod, double density);

// A geometrically similar copy scaled by `factor`: lengths x f, mass x f^3, moments x f^5.
ClumpTemplate scaledTemplate(const ClumpTemplate& source, double factor);

}  // namespace clumplab
