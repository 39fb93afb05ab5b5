#pragma once
// Export of a loaded scene to engines that scale out: a LIGGGHTS input deck, a Yade
// script, MercuryDPM clump folders, and ParaView files of the initial state. Each target takes the
// world as built from the scene (generated bodies placed; templates in their principal frame; body
// poses of the principal frame) and writes into `folder`.
//
// What a target cannot express is an InputError naming the scene file, the JSON path of the
// feature and why (nothing is written for it); what it can only approximate is written, and listed
// in ExportResult::warnings, one line per feature saying what was done instead. Nothing is dropped
// silently.
#include <string>
#include <vector>

#include "core/scene/Scene.hpp"

namespace clumplab {

class World;

struct ExportResult {
  std::vector<std::string> files;     // written, relative to the folder
  std::vector<std::string> warnings;  // approximations, one per feature: "<json path>: <what was done>"
  // Numbers behind the warnings, by name (e.g. "center_of_mass_offset.<template>": x, y, z [m]).
  std::vector<std::pair<std::string, std::vector<double>>> figures;
};

// How long an exported run lasts and how often it writes the pebbles' state.
struct ExportRun {
  long long steps = 1000;  // time steps after the bodies are in place
  long long every = 100;   // output every `every` steps (and at the start)
};

// LIGGGHTS-PUBLIC 3.8 deck `in.clumplab` (run it in `folder`: `mpirun -np 4 liggghts -in in.clumplab`),
// one `templates/templateK.multisphere` pebble file per template used, `meshes/wall<w>.stl` per
// mesh wall (its triangles at the pose of time 0); dumps the pebbles to `post/pebbles_<step>.txt`
// (id mol type x y z vx vy vz radius) every `run.every` steps, and moving meshes to
// `post/meshes_<step>.stl`. Inlets become insertion fixes (LiggghtsInlets.hpp).
ExportResult exportLiggghts(const Scene& scene, const World& world, const std::string& folder,
                            const ExportRun& run);

// Yade 2023 script `clumplab_yade.py` (run it in `folder`: `yade -n -x clumplab_yade.py`), which
// builds every clump with ClumpLab's mass, centre of mass and principal moments and writes
// `yade_bodies.csv` (time, body, x, y, z, qw, qx, qy, qz, vx, vy, vz, wx, wy, wz) every `run.every`
// steps.
ExportResult exportYade(const Scene& scene, const World& world, const std::string& folder,
                        const ExportRun& run);

// One MercuryDPM clump folder per template (`<name>/Clump/Clump.txt`, `<name>/Inertia/Mass.txt`,
// `TOI.txt`, `PD.txt`, in the principal frame) and `scene.txt`, the rest of the scene in words and
// numbers (contact law, gravity, time step, walls, mesh walls with `meshes/wall<w>.stl` beside it,
// inlets, every body's pose and velocities; MercuryDescriptions.hpp).
ExportResult exportMercury(const Scene& scene, const World& world, const std::string& folder);

// The initial state as ParaView files (VtkSeriesWriter.hpp): one output step and its .pvd.
ExportResult exportVtk(const World& world, const std::string& folder);

}  // namespace clumplab
