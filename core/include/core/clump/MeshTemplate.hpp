#pragma once
// What a scene's mesh template asks for (docs/formats.md: "mesh", "scale", "fill", "inertia"). The
// engine does not read meshes itself: the shapes library builds such templates, and programs that
// link it hand its builder to loadScene (SceneLoadOptions).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/clump/ClumpTemplate.hpp"

namespace clumplab {

// Regular-grid pebble fill (MClump mode 3): candidate centres on a grid of spacing h over the
// mesh's bounding box, kept when inside the mesh.
struct FillSettings {
  double spacing = 0.0;          // h [m]; 0: found from targetCount
  std::int64_t targetCount = 0;  // pebbles wanted when spacing is 0
  double radius = 0.0;           // r [m]; 0: (sqrt 3 / 2) h, so each pebble circumscribes its cell
  bool fitted = false;           // r_i = min(r, distance from the centre to the surface): nothing protrudes
  double minimumRadius = 0.0;    // fitted pebbles smaller than this are dropped [m]; 0: h / 4
  bool shellOnly = false;        // keep only centres within shellBand of the surface
  double shellBand = 0.0;        // [m]; 0: h
  // Mode "spheres" (shapes/SphereFit.hpp): spheres of varied radii fitted to the solid, added until
  // the Dice coefficient reaches targetDice, or targetCount spheres (then no Dice target); none
  // smaller than minimumRadius (0: one working voxel), none reaching farther out than maxProtrusion.
  bool spheres = false;
  double targetDice = 0.0;      // in (0, 1]; 0 with a count
  double maxProtrusion = -1.0;  // [m]; < 0: 2% of the mesh's largest extent; 0: none
  std::int64_t maxCount = 0;    // with a target Dice: no more spheres than this (0: 1000)
  std::uint64_t seed = 1;       // shifts the working grid (another seed: other spheres of like quality)

  bool operator==(const FillSettings&) const = default;
};

// Fill settings from their written form (scene "fill" or clumplab-cli fill options): exactly one of
// spacing > 0 and count > 0; radius 0 for none; mode "" (circumscribed, or given when a radius is
// there), "circumscribed", "given", "fitted" or "shell"; band 0 for none (shell only); minimumRadius
// 0 for none (fitted only). Throws std::invalid_argument naming the setting at fault.
FillSettings makeFillSettings(double spacing, long long count, double radius, const std::string& mode,
                              double band, double minimumRadius);

// Mode "spheres" from its written form: a count (spheres wanted, 0 for none) or a target Dice
// coefficient (0 for none; neither: 0.95), the largest protrusion (< 0: 2% of the mesh's size) and
// the smallest radius (0: none), and with a target the largest count (0: 1000; it stops at the first
// of the two). Throws std::invalid_argument naming the setting at fault.
FillSettings makeSphereFillSettings(long long count, double targetDice, double maxProtrusion,
                                    double minimumRadius, long long maxCount = 0);

// What a fill is, in a few words for a template's metrics ("spheres fitted to Dice 0.95, protrusion
// at most 0.22 mm", "grid h = 1 mm, fitted").
std::string describeFill(const FillSettings& fill);

struct MeshTemplateRequest {
  std::string name;
  std::string meshFile;    // path of the mesh (resolved against the scene file's folder), or
  std::string shape;       // the name of a built-in shape (t-handle, wingnut, ...) instead of a file
  double shapeSize = 0.0;  // [m] the built-in shape's largest extent; 0: its default size
  double scale = 1.0;      // multiplies the mesh's coordinates (STL has no units: 0.001 for mm)
  double density = 0.0;    // [kg/m^3]
  // How the clump's mass properties are computed: "mesh" (exact for the mesh, MClump mode 3),
  // "voxel", "monte-carlo" or "pebbles" (of the pebble union).
  std::string inertia = "mesh";
  bool hasFill = false;
  FillSettings fill;  // when hasFill
  // MClump mode 4: pebbles made by another tool, in the mesh's units and frame (scaled with it).
  // A built-in shape without fill or pebbles uses its own clump.
  std::vector<Pebble> pebbles;
  bool repair = false;             // close small holes in an open mesh instead of refusing it
  int voxels = 0;                  // voxels per side; 0: chosen from voxelBudget
  double voxelBudget = 1e-3;       // relative error budget of the voxel method
  std::int64_t samples = 1000000;  // Monte Carlo samples
  bool halton = true;              // Monte Carlo sequence: Halton, or Mutze, Polyspherical grains, eq. 30
};

// Builds the template or throws (InputError naming the mesh file, or std::exception with a message).
using MeshTemplateBuilder = std::function<ClumpTemplate(const MeshTemplateRequest&)>;

}  // namespace clumplab
