#pragma once
// Scenes and helpers of tst_scene_export (kept out of the test's source: moc does not read raw
// string literals).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/Errors.hpp"
#include "core/export/SceneExport.hpp"
#include "core/scene/Scene.hpp"

namespace clumplab::test {

// Two asymmetric clumps of different sizes (so different masses) above a floor; `contact`,
// `walls` and `extra` (more top-level keys) are spliced in.
std::string sceneText(const std::string& contact, const std::string& walls, const std::string& extra = "") {
  return R"({"format": "clumplab-scene/1", "time_step": 1e-5, "contact": )" + contact + R"(, "walls": )" +
         walls + extra + R"(,
    "templates": {"ell": {"density": 2500, "inertia": "pebbles",
        "pebbles": [[0, 0, 0, 0.002], [0.003, 0, 0, 0.0015], [0, 0.004, 0, 0.001], [0, 0, 0.002, 0.0012]]},
                  "dot": {"density": 1000, "inertia": "pebbles", "pebbles": [[-0.0005, 0, 0, 0.001], [0.0005, 0, 0, 0.001]]}},
    "bodies": [{"template": "ell", "position": [0, 0, 0.01], "orientation": [0.9, 0.1, 0.3, 0.2],
                "velocity": [0.1, 0, 0], "angular_velocity": [1, 2, 3]},
               {"template": "dot", "position": [0.02, 0, 0.01]}]})";
}

inline const char* kLinear = R"({"model": "linear", "stiffness": 1000, "restitution": 0.5, "friction": 0.3})";
inline const char* kFloor = R"([{"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]}])";

struct Exported {
  ExportResult result;
  std::string error;  // the InputError's message, if the export refused
};

// Every mesh file reads as the square [-1, 1]^2 at z = 0, two triangles (file coordinates).
inline TriangleMesh squareMesh(const std::string&) {
  return TriangleMesh{{Vec3(-1, -1, 0), Vec3(1, -1, 0), Vec3(1, 1, 0), Vec3(-1, 1, 0)},
                      {{0, 1, 2}, {0, 2, 3}}};
}

inline Scene parseWithMeshes(const std::string& text) {
  SceneLoadOptions options;
  options.wallMeshes = squareMesh;
  return parseScene(text, "scene.json", options);
}

Exported exportTo(const std::string& target, const std::string& text, const std::string& folder) {
  const Scene scene = parseWithMeshes(text);
  const auto world = buildWorld(scene);
  try {
    const ExportRun run{100, 10};
    if (target == "liggghts") return {exportLiggghts(scene, *world, folder, run), ""};
    if (target == "yade") return {exportYade(scene, *world, folder, run), ""};
    return {exportMercury(scene, *world, folder), ""};
  } catch (const InputError& e) {
    return {{}, e.what()};
  }
}

bool anyContains(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

std::string fileText(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A mesh wall (squareMesh, x 0.01) with `motion` (a JSON object, or "" for none), 0.02 m down and
// turned 90 degrees about x (so the square stands in the x-z plane, below the bodies).
inline std::string meshWall(const std::string& motion) {
  return R"([{"type": "mesh", "file": "floor.stl", "scale": 0.01)" +
         std::string(
             motion.find("interpolated") == std::string::npos
                 ? R"(, "position": [0, 0, -0.02], "orientation": [0.7071067811865476, 0.7071067811865476, 0, 0])"
                 : "") +
         (motion.empty() ? "" : R"(, "motion": )" + motion) + "}]";
}
inline const char* kSlide = R"({"type": "velocity", "linear": [0.2, 0.1, 0]})";
inline const char* kTurn = R"({"type": "velocity", "angular": [0, 0, 3], "center": [0.001, 0.002, 0]})";
inline const char* kTurnAndSlide =
    R"({"type": "velocity", "linear": [0.2, 0, 0], "angular": [0, 0, 3], "center": [0.001, 0.002, 0]})";
inline const char* kTurnAlongAxis =
    R"({"type": "velocity", "linear": [0, 0, 0.2], "angular": [0, 0, 3], "center": [0.001, 0.002, 0]})";
inline const char* kKeyframes =
    R"({"type": "interpolated", "times": [0, 1], "positions": [[0, 0, 0], [0, 0, 0.01]], "orientations": [[1, 0, 0, 0], [1, 0, 0, 0]]})";

inline std::string periodicKey(const std::string& axes) {
  return R"(, "periodic": {"min": [-0.05, -0.04, -0.03], "max": [0.05, 0.04, 0.03], "axes": ")" + axes +
         R"("})";
}

inline const char* kBoxRegion = R"({"box": {"min": [-0.01, -0.01, 0.02], "max": [0.01, 0.01, 0.03]}})";
inline const char* kZCylinder =
    R"({"cylinder": {"center": [0.001, 0.002, 0.03], "axis": [0, 0, 1], "radius": 0.01, "height": 0.02}})";
inline const char* kObliqueCylinder =
    R"({"cylinder": {"center": [0, 0, 0.03], "axis": [0, 1, 1], "radius": 0.01, "height": 0.02}})";

// An inlet of `region` pouring "ell" and "dot" 3 : 1 by count at 10 g/s up to 5 g.
inline std::string inletKey(const std::string& region) {
  return R"(, "inlets": [{"region": )" + region +
         R"(, "templates": [{"template": "ell", "weight": 3}, {"template": "dot", "weight": 1}],
      "mass_rate": 0.01, "max_mass": 0.005, "velocity": [0, 0, -0.1], "seed": 2}])";
}

inline std::string blockedScene() {
  std::string text = sceneText(kLinear, kFloor);
  const std::string at = R"("position": [0, 0, 0.01],)";
  return text.replace(text.find(at), at.size(), at + R"( "blocked": "xyz",)");
}

inline std::string onePebbleScene() {
  return R"({"format": "clumplab-scene/1", "time_step": 1e-5, "contact": {"model": "linear", "stiffness": 1000,
      "restitution": 0.5}, "walls": [], "templates": {"ball": {"density": 2700, "inertia": "pebbles",
      "pebbles": [[0, 0, 0, 0.001]]}}, "bodies": [{"template": "ball", "position": [0, 0, 0]}]})";
}

struct RefusalCase {
  std::string name, target, scene, expected;
};

// Features LIGGGHTS and Yade cannot express, and what the error must say.
inline std::vector<RefusalCase> refusalCases() {
  const std::string membrane =
      R"([{"type": "membrane", "point": [0, 0, 0], "normal": [0, 0, 1], "pass_radius": 1e-4}])";
  const std::string cavity = R"([{"type": "sphere", "center": [0, 0, 0.01], "radius": 0.05}])";
  const std::string oblique = R"([{"type": "plane", "point": [0, 0, 0], "normal": [0, 1, 1]}])";
  const std::string hertz = R"({"model": "hertz", "young": 5e8, "poisson": 0.3})";
  std::vector<RefusalCase> out;
  for (const std::string target : {"liggghts", "yade"}) {
    out.push_back({target + " membrane", target, sceneText(kLinear, membrane),
                   "scene.json: walls[0]: cannot be exported"});
    out.push_back({target + " cavity", target, sceneText(kLinear, cavity), "spherical cavity"});
    out.push_back({target + " oblique plane", target, sceneText(kLinear, oblique), "normal to x, y or z"});
    out.push_back({target + " fields", target,
                   sceneText(kLinear, kFloor, R"(, "fields": {"electric": [0, 0, 1]})"),
                   "scene.json: fields: cannot be exported"});
    out.push_back({target + " damping", target, sceneText(kLinear, kFloor, R"(, "damping": {"linear": 1})"),
                   "scene.json: damping:"});
  }
  out.push_back({"liggghts local damping", "liggghts",
                 sceneText(kLinear, kFloor, R"(, "damping": {"local": 0.3})"),
                 "scene.json: damping.local: cannot be exported to LIGGGHTS: Cundall's local damping"});
  out.push_back({"liggghts one pebble", "liggghts", onePebbleScene(),
                 "scene.json: templates.ball: cannot be exported to LIGGGHTS: a one-pebble template"});
  out.push_back({"yade hertz", "yade", sceneText(hertz, kFloor),
                 "scene.json: contact.model: cannot be exported to Yade"});
  // Mesh walls: keyframes in both engines, a sideways-moving axis in Yade.
  for (const std::string target : {"liggghts", "yade"}) {
    out.push_back({target + " keyframed mesh", target, sceneText(kLinear, meshWall(kKeyframes)),
                   "scene.json: walls[0].motion: cannot be exported to " +
                       std::string(target == "yade" ? "Yade" : "LIGGGHTS") +
                       ": keyframed (interpolated) motion"});
    out.push_back({target + " blocked body", target, blockedScene(),
                   "scene.json: bodies[0].blocked: cannot be exported"});
  }
  out.push_back(
      {"yade sideways axis", "yade", sceneText(kLinear, meshWall(kTurnAndSlide)),
       "scene.json: walls[0].motion: cannot be exported to Yade: a linear velocity (0.2, 0, 0) across "
       "the angular velocity (0, 0, 3)"});
  // Inlets: Yade has none for clumps; LIGGGHTS's cylinders are axis-aligned.
  out.push_back({"yade inlet", "yade", sceneText(kLinear, kFloor, inletKey(kBoxRegion)),
                 "scene.json: inlets: cannot be exported to Yade: Yade has no clump inlet"});
  out.push_back({"liggghts oblique inlet", "liggghts", sceneText(kLinear, kFloor, inletKey(kObliqueCylinder)),
                 "scene.json: inlets[0].region.cylinder.axis: cannot be exported to LIGGGHTS"});
  return out;
}

// One spherocylinder: no Clump.txt row can hold it.
inline std::string capsuleScene() {
  return R"({"format": "clumplab-scene/1", "time_step": 1e-5, "contact": {"model": "linear", "stiffness": 1000,
      "restitution": 0.5}, "walls": [], "templates": {"cap": {"shape": "spherocylinder", "radius": 0.001,
      "length": 0.004, "density": 2700}}, "bodies": [{"template": "cap", "position": [0, 0, 0]}]})";
}

inline std::string hertzScene(const std::string& extra) {
  return sceneText(R"({"model": "hertz", "young": 5e8, "poisson": 0.3)" + extra + "}", kFloor);
}

inline std::string dashpotScene() {
  return sceneText(R"({"model": "linear", "stiffness": 1000, "damping": 0.01, "limit_damping": true})",
                   kFloor);
}

inline std::string templateFileScene(const std::string& folder) {
  return R"({"format": "clumplab-scene/1", "time_step": 1e-5, "contact": )" + std::string(kLinear) +
         R"(, "walls": [], "templates": {"ell": {"file": ")" + folder +
         R"(/ell"}}, "bodies": [{"template": "ell", "position": [0, 0, 0]}]})";
}

inline std::string midpointKey() {
  return R"(, "integrator": "midpoint")";
}

inline std::string hysteresisKeys() {
  return R"(, "restitution_squared": 0.64, "friction": 0.2)";
}

}  // namespace clumplab::test
