#pragma once
// Scene files ("clumplab-scene/1", see docs/formats.md): loading with clear errors, and building a
// World from a loaded scene. Writing scenes (from the live world) is in SceneWriter.hpp.
//
// Extensions of the docs/formats.md format (all optional; older files read as before):
//   "time": t                     the clock at the start [s], >= 0 (default 0).
//   "damping": {"linear": g, "angular": g_rot}
//                                 global damping [1/s], each >= 0 (default 0): a force -g m v on
//                                 every body and a torque -g_rot I omega; its work is dissipated.
//   "bodies": []                  an explicit empty list is a scene without bodies (a scene with
//                                 neither "bodies" nor "generate" is still an error).
//   a template in principal form, exact to the bit (what saved scenes write):
//     { "inertia": "principal", "mass": m, "principal_moments": [I1, I2, I3],   // ascending
//       "pebbles": [[x, y, z, r], ...],     // in the principal frame: origin at the centre of mass
//       "density": d, "volume": v,          // optional, informative
//       "inertia_method": "voxel",          // optional: how the moments were first computed
//       "source": { "mesh": "gear.stl", "scale": 0.001, "fill": {..}, "density": 2500 },
//       "source_scale": 0.93 }              // optional: a scaled copy of what "source" builds
//   Its frame "as the user wrote it" is the principal frame: a body's "orientation" rotates the
//   principal frame. "source" is a mesh or built-in shape template as the original scene wrote it
//   (relative paths against this file): it gives the template its source mesh name, and, when a
//   mesh builder is at hand (SceneLoadOptions), the mesh for drawing and the mesh metrics; the
//   physics (pebbles, mass, moments) always comes from the principal form.
//   In the principal form a pebble may also be a spherocylinder [x, y, z, r, ux, uy, uz, h]: radius
//   r swept along the shaft centre +- h u (u a unit vector, h >= 0 half the shaft length), which is
//   how saved scenes write spherocylinders.
//   a spherocylinder (Meland et al., Cluster integration method): a cylinder capped by two hemispheres, one
//   body of its own:
//     { "shape": "spherocylinder", "radius": r, "length": l, "density": d }
//                                 r > 0 [m], shaft length l >= 0 [m] (l = 0: a sphere), density
//                                 [kg/m^3]; mass and principal moments in closed form (Meland et al., Cluster
//                                 integration method), its frame as written has the shaft along z (a body's
//                                 "orientation" turns it). Contacts use the shortest distance between shafts
//                                 (Meland et al., Cluster integration method, Fig. 2). Clumps of
//                                 spherocylinders have no pebble-sum inertia: [x, y, z, r, ux, uy, uz, h]
//                                 rows elsewhere are refused.
//   PaLa's keys (docs/formats.md): "fields", "gravitation", "plane", "spheres", membrane
//   walls, and the point keys "charge", "electric_dipole", "magnetic_dipole", "point_mass" on
//   bodies, "generate" entries and templates (a template's are its bodies' defaults).
//   "periodic": {"min": [x, y, z], "max": [x, y, z], "axes": "xyz"}
//                                 periodic boundaries across the faces of that box on the axes
//                                 named (any subset of x, y, z; Meland et al., Cluster integration method).
//   "integrator": "cim" | "rk4"   the cluster integration paper's cluster integration method and its DEM
//   baseline
//                                 (classical RK4 at the constant time step), with forces of their own
//                                 (no fields, 2D plane, charges or tangential spring history).
//   {"type": "mesh", "file": "drum.stl", "scale": s, "position": [..], "orientation": [..],
//    "motion": {...}} in "walls": a triangle mesh as a boundary with an imposed motion
//                                 (MeshWall.hpp; keys in SceneMeshWalls.hpp and docs/formats.md).
//   "blocked": "xyzXYZ" on a body: blocked degrees of freedom (BlockedDofs.hpp).
//   "cim": {"buffer": Delta, "rtol": 1e-5, "atol": 1e-20, "min_step": dt_min, "max_step": dt_max}
//                                 their settings (CimSettings.hpp), each optional: the neighbour-list
//                                 buffer [m] (default 0.6 x the smallest pebble radius), the
//                                 per-cluster RKF45 tolerances and its least and largest steps [s].
//   "inlets": [{"region": {"box": {"min": [..], "max": [..]}} | {"cylinder": {"center", "axis",
//               "radius", "height"}}, "templates": ["a"] | [{"template": "a", "weight": w} |
//               {"template": "a", "mass_fraction": f}, ...], "mass_rate": kg/s, "max_mass": kg,
//               "max_count": n, "velocity": [..], "velocity_spread": m/s, "seed": n, "start": s,
//               "attempts": n, "retry_interval": s, "progress": {..}}]
//                                 regions that insert clumps while the world runs (Inlet.hpp; Woo's
//                                 inlets); "progress" is what saved running worlds write.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/clump/MeshTemplate.hpp"
#include "core/clump/SphereKind.hpp"
#include "core/model/WorldModel.hpp"
#include "core/world/BodyInit.hpp"
#include "core/world/Inlet.hpp"

namespace clumplab {

class World;

// How a template built from a mesh or a built-in shape was declared, so that a scene saved from the
// live world can name its source again (the GUI draws the mesh). Empty for other templates.
struct TemplateSource {
  std::string definition;  // the template's JSON object as written (compact text); "" if none
  std::string file;        // the scene file its relative paths resolve against
  double scale = 1.0;      // a scaled copy made by "generate": its factor against `definition`

  bool empty() const { return definition.empty(); }
};

struct Scene {
  std::string file;  // where it came from (for messages and relative paths)
  std::string description;
  double duration = 0.0;   // suggested run length [s] (0: none given)
  double startTime = 0.0;  // "time": the clock at the start [s] (a saved scene continues there)
  // Settings, contact model, walls and templates (generated scaled copies are appended to
  // model.templates): what buildWorld hands the world.
  WorldModel model;
  // Parallel to `model.templates` (programs that make templates in code may leave it shorter).
  std::vector<TemplateSource> templateSources;
  std::vector<BodyInit> bodies;  // explicit bodies, then generated ones
  // Parallel to `bodies`: their charges, dipoles and point-mass flags (Fields.hpp). May be shorter
  // (code that builds scenes may leave it empty): the bodies beyond it carry their template's.
  std::vector<PointProperties> bodyPoints;
  std::vector<Inlet> inlets;  // "inlets": settings and progress (Inlet.hpp)
  // What loading changed that the user should hear of (e.g. fewer bodies placed in 2D), one line each.
  std::vector<std::string> notes;

  PointProperties pointOf(std::size_t body) const {
    return body < bodyPoints.size() ? bodyPoints[body] : model.templates[bodies[body].templateIndex]->point;
  }
  // The pebbles of all its bodies.
  std::size_t pebbleCount() const {
    std::size_t n = 0;
    for (const BodyInit& b : bodies) n += model.templates[b.templateIndex]->pebbles.size();
    return n;
  }
};

// PaLa's switches (Mutze, Polyspherical grains, §1 (i), (ii)) as a user sets them on a scene, whatever its
// file says.
struct SceneOverrides {
  // Every clump as one sphere (SphereSwitch.hpp), whatever the file's "spheres" key says: templates
  // are switched before bodies are placed, so generated bodies do not overlap.
  std::optional<SphereKind> spheres;
  // The 2D / 3D switch, whatever the file's "plane" key says: enabled, 2D in that plane (explicit
  // bodies are moved into it, generated ones placed in it; a region too full for its count in the
  // plane gets what fits, with a note); disabled, 3D.
  std::optional<PlaneConstraint> plane;

  bool operator==(const SceneOverrides&) const = default;
};

struct SceneLoadOptions : SceneOverrides {
  // Builds templates that name a mesh; without it such templates are an error that says so.
  MeshTemplateBuilder meshTemplates;
  // Reads the meshes of mesh walls ("walls": [{"type": "mesh", "file": ...}]); without it such
  // walls are an error that says so.
  WallMeshReader wallMeshes;
};

// Throws InputError naming the file, the JSON path and the problem, before any work starts.
Scene loadScene(const std::string& path, const SceneLoadOptions& options = {});
Scene parseScene(const std::string& text, const std::string& file, const SceneLoadOptions& options = {});

// A scene's "contact" object on its own (JSON text), with the checks and messages of a whole scene
// file: errors name `file` and the path "contact.KEY". For front ends that change the contact law
// of a live world (the Python module); contactToJson (SceneWriter.hpp) writes it.
ContactModel contactFromJson(const std::string& text, const std::string& file);

// A World with the scene's settings, walls, templates and bodies, its clock at `startTime`.
std::unique_ptr<World> buildWorld(const Scene& scene);

}  // namespace clumplab
