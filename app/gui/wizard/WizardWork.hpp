#pragma once
// The clump wizard's computations, plain C++ (no widgets): each runs on a worker thread of a
// BackgroundJob and returns an immutable result the pages show. Mass properties are computed at
// unit density (1 kg/m^3) and scaled by the density chosen at the end (mass and moments are
// proportional to it), so changing the density never recomputes anything.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/WorkProgress.hpp"
#include "core/clump/ClumpTemplate.hpp"
#include "core/clump/MeshTemplate.hpp"
#include "core/collision/ContactModel.hpp"
#include "shapes/ClumpQuality.hpp"
#include "shapes/MeshImport.hpp"
#include "shapes/MeshSolid.hpp"
#include "shapes/PebbleFill.hpp"
#include "shapes/SphereFit.hpp"

namespace clumplab::gui::wizard {

// Where the mesh comes from: a file or a built-in shape (exactly one is set).
struct MeshChoice {
  std::string file;   // absolute path
  std::string shape;  // built-in shape name (shapes/BuiltinShapes.hpp)

  bool empty() const { return file.empty() && shape.empty(); }
  std::string displayName() const;  // the file's name or "built-in NAME"
  bool operator==(const MeshChoice&) const = default;
};

struct ImportedMesh {
  MeshChoice choice;
  double scale = 1.0;
  bool repair = false;
  shapes::PreparedMesh prepared;
  std::shared_ptr<const shapes::MeshSolid> solid;
  MassProperties unitDensity;  // exact (MercuryDPM rigid clumps, eq. 11-22), at 1 kg/m^3, mesh frame
};

// Reads, scales, checks and repairs the mesh (shapes::importMesh / prepareMesh) and computes its
// exact mass properties. Throws InputError naming the file, or std::invalid_argument; the cancel
// flag of `progress` stops it (OperationCancelled).
std::shared_ptr<const ImportedMesh> importForWizard(const MeshChoice& choice, double scale, bool repair,
                                                    const WorkProgress& progress = {});

struct FilledClump {
  std::shared_ptr<const ImportedMesh> mesh;
  FillSettings settings;
  shapes::FillResult fill;            // the pebbles (in every mode), the grid's figures in the grid modes
  shapes::SphereFitResult sphereFit;  // mode spheres: how the spheres were chosen, the Dice by count
  // The clump's predicted cost in a pile of kCostPileBodies at `density` under the running scene's
  // law (core/world/PileCost.hpp), or why there is none.
  double density = 0.0;  // [kg/m^3]
  std::optional<PileCost> pileCost;
  std::string pileCostError;
};

inline constexpr int kCostPileBodies = 100;

// Fills the mesh and estimates the clump's cost in a pile at `density` under `law`.
std::shared_ptr<const FilledClump> fillForWizard(std::shared_ptr<const ImportedMesh> mesh,
                                                 const FillSettings& settings, double density,
                                                 const ContactModel& law, const WorkProgress& progress);

// The four ways the wizard offers to give the clump its mass properties, in table order.
enum class InertiaMethod { Mesh, Voxel, MonteCarlo, Pebbles };
inline constexpr std::array<InertiaMethod, 4> kInertiaMethods{
    InertiaMethod::Mesh, InertiaMethod::Voxel, InertiaMethod::MonteCarlo, InertiaMethod::Pebbles};
const char* inertiaMethodKey(InertiaMethod method);          // "mesh", "voxel", "monte-carlo", "pebbles"
InertiaMethod inertiaMethodFromKey(const std::string& key);  // unknown keys give Mesh

struct InertiaComparison {
  std::shared_ptr<const FilledClump> clump;
  std::int64_t samples = 0;                   // Monte Carlo points
  std::array<MassProperties, 4> unitDensity;  // by kInertiaMethods, at 1 kg/m^3, mesh frame
  std::array<PrincipalFrame, 4> frames;
  ClumpMetrics metrics;  // the pebble union against the mesh (shapes::compareWithMesh)
};

// Mesh exact; voxels of the pebble union within a 1e-3 budget (with the metrics); Monte Carlo of
// the union (Halton, `samples` points); the pebble sum with Steiner's theorem (MercuryDPM rigid clumps, eq.
// 1-5, overlaps counted twice).
std::shared_ptr<const InertiaComparison> compareInertia(std::shared_ptr<const FilledClump> clump,
                                                        std::int64_t samples, const WorkProgress& progress);

// Mass properties at unit density scaled to `density` [kg/m^3].
MassProperties atDensity(MassProperties unit, double density);

// The thresholds beyond which the wizard shows a clump's error against the mesh in red.
inline constexpr double kVolumeErrorLimit = 0.02;  // relative
inline constexpr double kMomentErrorLimit = 0.03;  // relative, per principal moment
inline constexpr double kAxisErrorLimitDeg = 5.0;

// The template: pebbles and the chosen method's mass properties at `density`, metrics (with how the
// pebbles were made and the predicted cost in a pile under `law`), the mesh for drawing, and its
// source (mesh file or shape, scale, fill, inertia, density) for reopening.
ClumpTemplate wizardTemplate(const InertiaComparison& comparison, InertiaMethod method,
                             const std::string& name, double density, const ContactModel& law);

}  // namespace clumplab::gui::wizard
