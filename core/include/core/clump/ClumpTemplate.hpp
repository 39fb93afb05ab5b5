#pragma once
// An immutable clump shape shared by many bodies: pebbles in the principal frame, mass, moments.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/clump/MassProperties.hpp"
#include "core/clump/Pebble.hpp"
#include "core/clump/PointProperties.hpp"
#include "core/clump/TriangleMesh.hpp"

namespace clumplab {

struct MeshTemplateRequest;  // core/clump/MeshTemplate.hpp

// What a clump would cost in a pile (core/world/PileCost.hpp): the time step its stiffest contact mode
// allows under a contact law and the simulated seconds per wall second a pile of such clumps reaches
// on one core, at the benchmark's cost per body and per pebble.
struct PileCost {
  std::string law;                             // the contact law the step is for, in a few words
  double timeStep = 0.0;                       // [s] recommended (World::timeSteps's estimate)
  double criticalStep = 0.0;                   // [s] the stability limit less a tenth
  int bodies = 0;                              // the pile the rate is for
  int exposedPebbles = 0;                      // pebbles not wholly inside the others: those that can touch
  double secondsPerStep = 0.0;                 // [s] wall time of one step of that pile, one core
  double simulatedSecondsPerWallSecond = 0.0;  // timeStep / secondsPerStep
};

// How well a clump (the union of its pebbles) reproduces the mesh it was made from (docs/formats.md
// `metrics`). Relative errors are (clump - mesh) / mesh; lengths in m.
struct ClumpMetrics {
  double meshVolume = 0.0;                    // [m^3]
  double clumpVolume = 0.0;                   // [m^3], the pebble union counted once
  double volumeError = 0.0;                   // relative
  Vec3 principalMomentErrors = Vec3::Zero();  // relative, I1 <= I2 <= I3 of each
  // Largest angle between corresponding principal axes [deg], over the axes whose moments are
  // distinct (an axis of two equal moments is not defined); 0 if all three moments are equal.
  double axisMisalignmentDeg = 0.0;
  double largestProtrusion = 0.0;  // [m] farthest the pebble union reaches outside the mesh (sampled)
  double largestGap = 0.0;         // [m] farthest a point of the mesh surface is from the pebbles (sampled)
  double dzhanibekovMargin = 0.0;  // (I2 - I1) / (I3 - I1) of the clump
  double meshDzhanibekovMargin = 0.0;  // the same of the mesh
  std::string clumpMethod;             // how the pebble union was measured ("voxel", ...)
  // The Dice coefficient 2 |mesh ∩ union| / (|mesh| + |union|) (core/clump/SolidOverlap.hpp); 0 when
  // not measured (templates written before it was).
  double dice = 0.0;
  double smallestRadius = 0.0;       // [m] of the pebbles
  std::string fillMethod;            // how the pebbles were made (describeFill), empty when given
  std::optional<PileCost> pileCost;  // when estimated (fill on the command line, the wizard)
};

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
  double boundingRadius = 0.0;          // [m], smallest sphere about the centre of mass holding all pebbles
  double minPebbleRadius = 0.0;         // [m]
  std::string inertiaMethod;            // "pebbles", "voxel", "monte-carlo", "given", "mesh"
  std::string sourceMesh;               // the mesh file the clump was made from ("" if none)
  std::optional<ClumpMetrics> metrics;  // clump against its mesh, when made from one
  // The source mesh in the body (principal) frame, for drawing; null if none.
  std::shared_ptr<const TriangleMesh> mesh;
  // How the clump was made from its mesh (mesh file or built-in shape, scale, fill, inertia method,
  // density), so that it can be made again or refined (template files' "source"); null if unknown.
  std::shared_ptr<const MeshTemplateRequest> source;
  // The charge, dipoles (principal frame) and point-mass flag its bodies carry unless a body says
  // otherwise (Fields.hpp; scene and template files' point keys).
  PointProperties point;
};

using TemplatePtr = std::shared_ptr<const ClumpTemplate>;

// Builds a template from pebbles given in an input frame and their mass properties in that frame:
// principal frame (MercuryDPM rigid clumps, eq. 23-26), pebbles re-expressed in it, bounding radius (Mutze,
// Polyspherical grains, eq. 32).
ClumpTemplate makeTemplate(std::string name, const std::vector<Pebble>& inputPebbles,
                           const MassProperties& massProperties, std::string inertiaMethod, double density);

// A geometrically similar copy scaled by `factor`: lengths x f, mass x f^3, moments x f^5.
ClumpTemplate scaledTemplate(const ClumpTemplate& source, double factor);

}  // namespace clumplab
